package parse

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// journalForms render a dump the ways journalctl prints what a service
// wrote to stdout: -o export and -o verbose (each line an entry's MESSAGE
// among its other fields, in any order), and the short output where a
// logger sent several lines as one entry (its later lines under the
// first, indented to the message's column, without the prefix). A
// dump's first lines (its date and header) are entries of their own: a
// dump starts at a line the journal prefixes (startsHere). A dump that
// starts inside another entry's later lines is read under their
// indentation, as a paste: not yet joined to the entries around it.
var journalForms = []struct {
	name   string
	render func(r *rand.Rand, lines []string) string
}{
	{"export", func(r *rand.Rand, lines []string) string {
		var b strings.Builder
		for i, l := range lines {
			fields := journalFields(r, i)
			k := r.IntN(len(fields) + 1)
			fields = append(fields[:k], append([]string{"MESSAGE=" + l}, fields[k:]...)...)
			for _, f := range fields {
				b.WriteString(f + "\n")
			}
			b.WriteString("\n")
		}
		return b.String()
	}},
	{"verbose", func(r *rand.Rand, lines []string) string {
		var b strings.Builder
		for i, l := range lines {
			fmt.Fprintf(&b, "Mon 2026-12-07 16:00:%02d.%06d UTC [s=1c3e9a;i=%x;b=77f0;m=%x;t=%x;x=9d2c]\n", i%60, r.IntN(1000000), i, i*7, i*11)
			fields := journalFields(r, i)
			k := r.IntN(len(fields) + 1)
			fields = append(fields[:k], append([]string{"MESSAGE=" + l}, fields[k:]...)...)
			for _, f := range fields {
				b.WriteString("    " + f + "\n")
			}
		}
		return b.String()
	}},
	{"short, entries of several lines", func(r *rand.Rand, lines []string) string {
		var b strings.Builder
		col := 0
		for i := 0; i < len(lines); {
			n := 1
			if i >= 3 {
				n = 1 + r.IntN(6)
			}
			prefix := fmt.Sprintf("Dec 07 16:00:%02d vm orders[4242]: ", i%60)
			col = len(prefix)
			for j := i; j < i+n && j < len(lines); j++ {
				if j > i && startsHere(lines, j) {
					n = j - i // the journal's own line: see journalForms
					break
				}
				if j == i {
					b.WriteString(prefix + lines[j] + "\n")
				} else {
					b.WriteString(strings.Repeat(" ", col) + lines[j] + "\n")
				}
			}
			i += n
		}
		return b.String()
	}},
}

// startsHere reports whether a dump starts at lines[j] or at the next
// line (a JVM dump's date line before its header).
func startsHere(lines []string, j int) bool {
	if strongStart([]byte(lines[j])) != nil {
		return true
	}
	return j+1 < len(lines) && strongStart([]byte(lines[j+1])) != nil
}

// journalFields are some of an entry's other fields, in a random order.
func journalFields(r *rand.Rand, i int) []string {
	all := []string{fmt.Sprintf("__CURSOR=s=1c3e9a;i=%x;b=77f0", i), fmt.Sprintf("__REALTIME_TIMESTAMP=17651232%08d", i),
		"_PID=4242", "_COMM=java", "PRIORITY=6", "SYSLOG_IDENTIFIER=orders", "_TRANSPORT=stdout", "_HOSTNAME=vm",
		"_SYSTEMD_UNIT=orders.service", "SYSLOG_FACILITY=3"}
	r.Shuffle(len(all), func(a, b int) { all[a], all[b] = all[b], all[a] })
	return all[:2+r.IntN(len(all)-2)]
}

// TestJournalFormsSameDumps (issue 33, "a dump in journald wrapping where
// a line is prefixed differently from its neighbours"): every committed
// Go and JVM text dump, printed in each journal form with random fields
// and random entries of several lines, reads as the dump as written.
func TestJournalFormsSameDumps(t *testing.T) {
	inputs := pasteInputs(t)
	tried, same := map[string]int{}, map[string]int{}
	for ii, in := range inputs {
		if in.prefixed || in.aggregated || in.format != FormatJVMText && in.format != FormatGoText {
			continue
		}
		lines := strings.Split(strings.TrimSuffix(in.text, "\n"), "\n")
		for fi, f := range journalForms {
			r := rand.New(rand.NewPCG(uint64(ii), uint64(fi)))
			text := f.render(r, lines)
			tried[f.name]++
			dumps, err := Parse(in.name, strings.NewReader(text))
			got := dumpFingerprint(dumps)
			if err == nil && got == in.want {
				same[f.name]++
				continue
			}
			why := firstDiff(in.want, got)
			if err != nil {
				why = err.Error()
			}
			t.Errorf("%s as journal %s: %s", in.name, f.name, why)
		}
	}
	for _, f := range journalForms {
		t.Logf("journal %s: %d of %d read as written", f.name, same[f.name], tried[f.name])
	}
	if tried["export"] == 0 {
		t.Fatal("no dump to render")
	}
}

// TestJournalFixtures: real jstack moments written into a journal file by
// systemd-journal-remote and printed by journalctl (testdata/journal)
// read as the moments themselves: the same threads, states, frames and
// locks, no line skipped (the expectation of its README).
func TestJournalFixtures(t *testing.T) {
	for dir, src := range map[string]string{
		"hc4-export": "libs/jvm-httpclient4-pool", "hc4-verbose": "libs/jvm-httpclient4-pool", "hc4-short-multiline": "libs/jvm-httpclient4-pool",
		"idle-export": "libs/jvm-idle-libs", "idle-short-multiline": "libs/jvm-idle-libs",
	} {
		for _, m := range []string{"1", "2"} {
			want, err := ParseFile("../testdata/" + src + "/" + m + ".txt")
			if err != nil {
				t.Fatal(err)
			}
			got, err := ParseFile("../testdata/journal/" + dir + "/" + m + ".txt.gz")
			if err != nil {
				t.Fatalf("%s/%s: %v", dir, m, err)
			}
			if len(got) != 1 || len(got[0].Skipped) != 0 || got[0].Prefix == "" {
				t.Fatalf("%s/%s: %d dumps, %d lines skipped, prefix %q", dir, m, len(got), len(got[0].Skipped), got[0].Prefix)
			}
			if w, g := dumpFingerprint(want), dumpFingerprint(got); w != g {
				t.Errorf("%s/%s reads other than %s: %s", dir, m, src, firstDiff(w, g))
			}
		}
	}
}
