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
	return writeSlack(w, slackLines(buildDocument(r, opt)))
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
		d := buildDocument(r, opt.withDefaults())
		what := slackText(title(r)) + ": "
		if d.lead.root == nil {
			what += "no finding"
		} else {
			what += slackSyntax().render(d.headline)
			if d.lead.root.culprit != "" {
				what += " · culprit " + slackCode(d.lead.root.culprit)
			}
		}
		lines = append(lines, "• "+what)
	}
	return writeSlack(w, lines)
}

// writeSlack writes lines, cutting whole lines from the end (with a note)
// when the message would pass slackMaxChars.
func writeSlack(w io.Writer, lines []string) error {
	total := 0
	for i, l := range lines {
		total += len(l) + 1
		if total > slackMaxChars-80 && i < len(lines)-1 {
			// No command for the channel to run: those who read the post
			// have no dumps. The full report is the poster's to attach.
			lines = append(lines[:i:i], fmt.Sprintf("_… %d more lines left out (one Slack message holds %d characters)_", len(lines)-i, slackMaxChars))
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

// slackLines are the message: the title, the lead's facts as bullets
// (with the identical stacks of the root cause, from its finding), the
// first warning, then where it comes from.
func slackLines(d *document) []string {
	sx := slackSyntax()
	var out []string
	if d.lead.root == nil {
		out = append(out, fmt.Sprintf("*dumpdiff: no findings* in %s of a %s process", words.Plural(len(d.moments), "moment"), runtimeName(d.runtime)))
		if hung := d.hungSentence(); hung != "" {
			out = append(out, "• "+slackEntities(hung))
		}
		if len(d.moments) == 1 {
			out = append(out, "• "+slackText(d.oneDumpHint(false)))
		}
	} else {
		out = append(out, "*dumpdiff:* "+sx.render(d.headline))
		// The root's identical stacks, as its finding says them, before
		// the other root causes.
		var fs []fact
		for _, it := range d.verdict {
			if it.key == "Also" {
				fs = append(fs, d.rootStacks()...)
			}
			fs = append(fs, it)
		}
		if len(fs) == len(d.verdict) {
			fs = append(fs, d.rootStacks()...)
		}
		for _, it := range fs {
			key := slackEntities(it.key)
			switch {
			case it.of != nil:
				// The severity and kind in words: the emoji is the title's.
				out = append(out, fmt.Sprintf("• *%s* (%s %s): %s", key, it.of.severity, slackEntities(it.of.kind), sx.render(it.value)))
			case it.phrase:
				out = append(out, fmt.Sprintf("• *%s* %s", key, sx.render(it.value)))
			default:
				out = append(out, fmt.Sprintf("• *%s:* %s", key, sx.render(it.value)))
			}
		}
	}
	// The thread to look at first, the rest counted.
	if len(d.notable) > 0 {
		line := "• *Notable thread:* " + slackText(d.notable[0])
		if len(d.notable) > 1 {
			line += " (" + words.Plural(len(d.notable)-1, "more") + " in the full report)"
		}
		out = append(out, line)
	}
	// Warnings say what the numbers above cannot show (a dump that hides
	// virtual threads, lines skipped): the first in full, the rest counted.
	for i, w := range d.warnings {
		if i == 1 {
			out = append(out, "• *Warnings:* "+words.Plural(len(d.warnings)-1, "more")+" in the full report")
			break
		}
		out = append(out, "• *Warning:* "+slackText(w))
	}
	return append(out, "_"+sx.render(d.meta)+"_")
}

// rootStacks is the root finding's "Identical stacks at ..." fact when it
// has more than one group (one group says nothing a one-post message
// needs); nil otherwise.
func (d *document) rootStacks() []fact {
	for _, fb := range d.findings {
		if fb.findingRow != d.lead.root || len(fb.groups) < 2 {
			continue
		}
		for _, it := range fb.facts {
			if strings.HasPrefix(it.key, "Identical stacks") {
				return []fact{it}
			}
		}
	}
	return nil
}
