package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/words"
)

// slackRenderer is one Slack message in mrkdwn: the verdict and its key
// numbers, short enough for one post (slackMaxChars); the evidence
// belongs in a file (--format html or markdown).
type slackRenderer struct{}

// slackMaxChars is the longest message written: Slack's limit for the text
// of one section block, which keeps the post whole wherever it is pasted.
const slackMaxChars = 3000

func (slackRenderer) one(w io.Writer, r *analyze.Result, opt Options) error {
	opt = opt.withDefaults()
	rs := buildRows(r, opt)
	return writeSlack(w, slackLines(rs, ""))
}

// many writes one post: a line per analysis (target) with its verdict.
func (slackRenderer) many(w io.Writer, rs []*analyze.Result, opt Options) error {
	var lines []string
	if targeted(rs) {
		lines = append(lines, fmt.Sprintf("*dumpdiff: %d captured targets compared*", len(rs)))
	} else {
		lines = append(lines, fmt.Sprintf("*dumpdiff: %d analyses*", len(rs)))
	}
	for _, r := range rs {
		rows := buildRows(r, opt.withDefaults())
		l := leadOf(rows)
		what := slackText(title(r)) + ": "
		if l.root == nil {
			what += "no finding"
		} else {
			what += slackSyntax().findingTitle(l.root, true)
			if l.root.culprit != "" {
				what += " · culprit " + slackCode(l.root.culprit)
			}
		}
		lines = append(lines, "• "+what)
	}
	lines = append(lines, "_the full report: dumpdiff --format html_")
	return writeSlack(w, lines)
}

// writeSlack writes lines, cutting whole lines from the end (with a note)
// when the message would pass slackMaxChars.
func writeSlack(w io.Writer, lines []string) error {
	total := 0
	for i, l := range lines {
		total += len(l) + 1
		if total > slackMaxChars-80 && i < len(lines)-1 {
			lines = append(lines[:i:i], fmt.Sprintf("_… %d more lines: see the full report (dumpdiff --format html)_", len(lines)-i))
			break
		}
	}
	bw := bufio.NewWriter(w)
	for _, l := range lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

var slackEmoji = map[analyze.Severity]string{
	analyze.Critical: ":red_circle:",
	analyze.Warning:  ":large_orange_circle:",
	analyze.Info:     ":large_blue_circle:",
}

// slackSyntax is Slack's syntax for the shared pieces: a title's
// severity and kind in bold after the severity's emoji.
func slackSyntax() syntax {
	return syntax{text: slackText, code: slackCode, culprit: slackCode, entry: slackCode,
		strong: func(s string) string { return s }, probe: " (health check)",
		tag: func(sev analyze.Severity, kind string) string {
			return slackEmoji[sev] + " *" + sev.String() + " " + slackEntities(kind) + "*"
		}}
}

// slackLines are the message: the title, then the lead as bullets, then
// where it comes from.
func slackLines(rs *rows, prefix string) []string {
	l := leadOf(rs)
	sx := slackSyntax()
	rt := runtimeName(rs.runtime)
	var out []string
	if l.root == nil {
		out = append(out, fmt.Sprintf("%s*dumpdiff: no findings* in %s of a %s process", prefix, words.Plural(len(rs.moments), "moment"), rt))
	} else {
		f := l.root
		out = append(out, prefix+"*dumpdiff:* "+sx.findingTitle(f, true))
		out = append(out, "• *Root cause:* "+slackText(f.head))
		for i, c := range l.consequences {
			if i == 2 {
				out = append(out, "• *Also caused:* "+words.Plural(len(l.consequences)-2, "more finding"))
				break
			}
			out = append(out, "• *Consequence:* "+sx.findingTitle(c, false)+": "+slackText(c.head))
		}
		out = append(out, "• *Recovered:* "+slackText(f.recovery.String()))
		if n := sx.numbers(rs, f); n != "" {
			out = append(out, "• *Numbers:* "+n)
		}
		if f.culprit != "" {
			out = append(out, "• *Culprit:* "+slackCode(f.culprit))
		}
		if e := sx.entryList(f.entries); e != "" {
			out = append(out, "• *Entry points:* "+e)
		}
		if len(f.groups) > 1 {
			var gs []string
			for i, sg := range f.groups {
				if i == 3 {
					gs = append(gs, fmt.Sprintf("%d more", len(f.groups)-3))
					break
				}
				s := fmt.Sprint(sg.Count)
				if l := sg.labelWith(sx); l != "" {
					s += " " + l
				}
				gs = append(gs, s)
			}
			out = append(out, "• *Identical stacks:* "+strings.Join(gs, " · "))
		}
		for i, o := range l.others {
			if i == 3 {
				out = append(out, "• *Also:* "+words.Plural(len(l.others)-3, "more finding"))
				break
			}
			out = append(out, "• *Also:* "+sx.findingTitle(o, true))
		}
	}
	// Warnings say what the numbers above cannot show (a dump that hides
	// virtual threads, lines skipped): the first in full, the rest counted.
	for i, w := range rs.warnings {
		if i == 1 {
			out = append(out, "• *Warnings:* "+words.Plural(len(rs.warnings)-1, "more")+" in the full report")
			break
		}
		out = append(out, "• *Warning:* "+slackText(w))
	}
	src := fmt.Sprintf("_%s · %s", rt, words.Plural(len(rs.moments), "moment"))
	if len(rs.moments) > 0 {
		first, last := rs.moments[0], rs.moments[len(rs.moments)-1]
		src += " (" + slackText(first.label)
		if first.time != "" {
			src += " " + first.time
		}
		if len(rs.moments) > 1 {
			src += " → " + slackText(last.label)
			if last.delta != "" {
				src += " " + last.delta
			}
		}
		src += ")"
	}
	src += " · " + words.Plural(len(rs.findings), "finding") + " · the full report: dumpdiff --format html_"
	return append(out, src)
}
