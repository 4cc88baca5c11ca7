package main

import (
	"bytes"
	"fmt"
	"os"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// CPU tables beside JVM dumps (parse/cputable.go): top -H or ps -L lines
// pasted in the dump's own file (before or after it), or in a file of
// their own given with the dumps (`dumpdiff jstack.txt top-H.out`, a
// folder holding both). Each table's rows go to one moment: the dump of
// the same file nearest above the table (else the first below it); for a
// file of its own, the moment whose time of day is nearest top's clock
// (within maxClockGap), else the moment given just before the file (else
// the first given). The rows then reach their threads by native id.

// maxClockGap is how far top's clock may be from a dump's time of day to
// be taken at it: a jstack of a loaded JVM waits its safepoint for tens of
// seconds (testdata/verdicts/hashmap-loop-stuck: 20–30 s).
const maxClockGap = 2 * time.Minute

// sideRows is a file of CPU rows and no dump, and where it was given among
// the moments: after the first `after` of them.
type sideRows struct {
	file  string
	after int
	rows  []parse.ThreadCPU
}

// cpuRowsOf reads the CPU tables of a file that holds no dump; nil when it
// holds none either.
func cpuRowsOf(path string) []parse.ThreadCPU {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	return parse.ReadCPUTables(path, f)
}

// attachCPUTables gives the JVM moments of in the rows of the CPU tables
// in their own files (inline: the files their dumps were read from) and
// in side; what attached is said in warn, one line a table.
func attachCPUTables(in []analyze.Input, side []sideRows, warn *loadNotes) {
	byFile := map[string][]int{} // a file's moments, by index in in
	for i, x := range in {
		if x.Dump != nil && x.Dump.Format.Runtime() == parse.RuntimeJVM && x.Dump.Source.File != "-" {
			byFile[x.Dump.Source.File] = append(byFile[x.Dump.Source.File], i)
		}
	}
	for file, ms := range byFile {
		data, err := os.ReadFile(file)
		if err != nil || !bytes.Contains(data, []byte("CPU")) {
			continue // one byte scan: a dump without a CPU column costs no more
		}
		rows := parse.ReadCPUTables(file, bytes.NewReader(data))
		if len(rows) == 0 {
			continue
		}
		// The moment nearest above the table's first row, else the first.
		at := ms[0]
		for _, i := range ms {
			if in[i].Dump.Source.Line <= rows[0].Line {
				at = i
			}
		}
		n := parse.AttachCPU(in[at].Dump, rows)
		warn.add("%s: %d of %d rows of a %s table beside the dump read as its threads' CPU", file, n, len(rows), rows[0].Tool)
	}
	for _, s := range side {
		at := nearestMoment(in, s)
		if at < 0 {
			warn.add("%s: a %s table of %d rows, and no JVM dump to read it with", s.file, s.rows[0].Tool, len(s.rows))
			continue
		}
		n := parse.AttachCPU(in[at].Dump, s.rows)
		warn.add("%s: %d of %d rows of a %s table read as the CPU of %s's threads", s.file, n, len(s.rows), s.rows[0].Tool, in[at].Dump.Source)
	}
}

// nearestMoment is the moment of in a table of its own file s is read
// with: top's clock nearest a dump's time of day, else the JVM moment given
// just before it, else the first; -1 when in has no JVM moment.
func nearestMoment(in []analyze.Input, s sideRows) int {
	if c, err := time.Parse("15:04:05", s.rows[0].Clock); err == nil {
		clock := time.Duration(c.Hour())*time.Hour + time.Duration(c.Minute())*time.Minute + time.Duration(c.Second())*time.Second
		best, gap := -1, maxClockGap+1
		for i, x := range in {
			if x.Dump == nil || x.Dump.Time.IsZero() || x.Dump.Format.Runtime() != parse.RuntimeJVM {
				continue
			}
			t := x.Dump.Time
			day := time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute + time.Duration(t.Second())*time.Second
			if g := (day - clock).Abs(); g <= maxClockGap && g < gap {
				best, gap = i, g
			}
		}
		if best >= 0 {
			return best
		}
	}
	at := -1
	for i, x := range in {
		if x.Dump == nil || x.Dump.Format.Runtime() != parse.RuntimeJVM {
			continue
		}
		if at < 0 || i < s.after {
			at = i
		}
	}
	return at
}

// sideNote says a file read as a CPU table only.
func sideNote(path string, rows []parse.ThreadCPU) string {
	return fmt.Sprintf("%s: no dump in it, a %s table of %d threads' CPU", path, rows[0].Tool, len(rows))
}
