package parse

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"strings"
	"time"
)

// A table of threads' CPU printed beside a JVM dump (issue 33): the lines
// a user pastes with it to show which thread burns the CPU, from
//
//	top -H -p PID (batch or screen):
//	  PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND
//	21774 root      25   5 2848760 211576  21964 R  52.9   0.9   0:00.53 indexer-3
//	ps -mo 'pid lwp time %cpu cmd' PID (OpenTSDB/opentsdb#823):
//	  PID   LWP     TIME %CPU CMD
//	    - 34274 2-11:25:55 67.1 -
//	ps -eLo pid,tid,pcpu,etimes,time,comm / ps -L -p PID / ps -mo THREAD:
//	USER     %CPU PRI SCNT WCHAN  USER SYSTEM   TID
//
// Each row's thread id is the kernel's (decimal); a JVM dump prints it as
// the thread's nid=0x… (hex; a javacore's native thread ID). What the %CPU
// means differs by tool, and the analysis weighs it by that:
//   - top's is the thread's share of the last refresh interval (a few
//     seconds): on CPU now, not for how long;
//   - ps's is the thread's CPU time over its whole life (cputime/etime,
//     ps(1) "%cpu"): with the TIME column it gives the life it was
//     measured over.
//
// The scan is a state machine over lines: a header (a line of column names
// with a %CPU column and a thread-id column) starts a table; rows follow
// while each line has at least the header's fields with a number for the
// thread id and the %CPU; any other line ends the table. The rows are
// kept by the column names, so any column order, and extra columns, read.

// ThreadCPU is one row of a CPU table: one kernel thread.
type ThreadCPU struct {
	TID int64 // the kernel's thread id (top -H's PID, ps's LWP, TID or SPID)
	// Share is %CPU / 100 (a thread on one core all along: 1).
	Share float64
	// Life tells what Share is over: true for ps (the thread's whole
	// life), false for top (its last refresh interval).
	Life bool
	// CPU is the TIME (ps) or TIME+ (top) column: the thread's CPU time
	// over its life; 0 if the table has none.
	CPU time.Duration
	// Elapsed is the thread's age from an ELAPSED/ETIME/ETIMES column; 0
	// if the table has none. Where ps gives TIME and a lifetime Share,
	// the age is CPU/Share (CPUTable.Age).
	Elapsed time.Duration
	Tool    string // "top" or "ps"
	// Clock is the time of day of top's header line ("top - 23:34:51 up
	// …") over the table, as printed; empty for ps, which prints none.
	Clock  string
	Line   int    // 1-based line of the row in Source's file
	Source string // the file the row was read from
}

// Age is the life the row's Share was measured over: ELAPSED when
// printed, else for ps TIME/Share; 0 when neither is known (top).
func (c ThreadCPU) Age() time.Duration {
	if c.Elapsed > 0 {
		return c.Elapsed
	}
	if c.Life && c.CPU > 0 && c.Share > 0 {
		return time.Duration(float64(c.CPU) / c.Share)
	}
	return 0
}

// cpuColumns are where a header puts the columns a table is read by; -1
// when absent.
type cpuColumns struct {
	n                        int // fields in the header
	tid, pcpu, time, elapsed int
	top                      bool
}

// cpuHeader reads a header line's columns; ok when it has a %CPU column
// and a thread id column (top's PID: top prints no other id; ps's LWP,
// TID or SPID: ps's PID is the process's).
func cpuHeader(line []byte) (cpuColumns, bool) {
	f := strings.Fields(string(line))
	c := cpuColumns{n: len(f), tid: -1, pcpu: -1, time: -1, elapsed: -1}
	pid := -1
	for i, w := range f {
		switch strings.ToUpper(w) {
		case "%CPU", "PCPU", "CPU%":
			if c.pcpu < 0 {
				c.pcpu = i
			}
		case "LWP", "TID", "SPID":
			c.tid = i
		case "PID":
			pid = i
		case "TIME+":
			c.time, c.top = i, true
		case "TIME", "CPUTIME":
			c.time = i
		case "ELAPSED", "ETIME", "ETIMES":
			c.elapsed = i
		}
	}
	if c.tid < 0 && c.top {
		c.tid = pid // top -H lists threads under PID
	}
	if c.tid < 0 || c.pcpu < 0 || c.n < 2 {
		return cpuColumns{}, false
	}
	return c, true
}

// ReadCPUTables reads every CPU table of r (named name in the rows). One
// pass; a line without a '%' or a digit costs a byte scan.
func ReadCPUTables(name string, r io.Reader) []ThreadCPU {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var out []ThreadCPU
	var cols cpuColumns
	in := false
	n := 0
	clock := ""
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if in {
			row, ok, more := cpuRow(line, cols)
			if ok {
				row.Line, row.Source = n, name
				if row.Tool == "top" {
					row.Clock = clock
				}
				out = append(out, row)
			}
			if more {
				continue
			}
			in = false
		}
		if c, ok := topClock(line); ok {
			clock = c
			continue
		}
		if bytes.Contains(line, []byte("CPU")) {
			// A quoted or prefixed paste ("> ps …" is the command; the
			// header itself may be quoted too): the header is read from
			// its first column name on.
			if i := headerStart(line); i >= 0 {
				cols, in = cpuHeader(line[i:])
			}
		}
	}
	return out
}

// topClock reads the time of day of top's first line ("top - 23:34:51 up
// 3:06,  0 user,  load average: …").
func topClock(line []byte) (string, bool) {
	i := bytes.Index(line, []byte("top - "))
	if i < 0 {
		return "", false
	}
	f := bytes.Fields(line[i+len("top - "):])
	if len(f) == 0 || len(f[0]) != len("15:04:05") || f[0][2] != ':' || f[0][5] != ':' {
		return "", false
	}
	return string(f[0]), true
}

// headerStart is where a header's column names start in line: after a
// quote's "> " or a paste's indentation; -1 when the line holds no upper
// case column name.
func headerStart(line []byte) int {
	for i, b := range line {
		switch {
		case b == ' ' || b == '\t' || b == '>' || b == '|':
		case b >= 'A' && b <= 'Z' || b == '%':
			return i
		default:
			return -1
		}
	}
	return -1
}

// cpuRow reads one row of a table with columns c; false when line is not
// one (fewer fields, a thread id or %CPU that is not a number). more is
// true when the table goes on after line: a row, or ps -m's row of the
// process itself ("-" for its thread id), which is no thread's.
func cpuRow(line []byte, c cpuColumns) (row ThreadCPU, ok, more bool) {
	f := strings.Fields(string(bytes.TrimLeft(line, " \t>|"))) // a quoted paste's rows too
	// The last column (COMMAND, CMD) may hold spaces; a thread's row may
	// also leave it empty: at least the columns read.
	need := max(c.tid, c.pcpu, c.time, c.elapsed) + 1
	if len(f) < need || len(f) > c.n+16 {
		return ThreadCPU{}, false, false
	}
	pcpu, err := strconv.ParseFloat(strings.Replace(f[c.pcpu], ",", ".", 1), 64)
	if err != nil || pcpu < 0 {
		return ThreadCPU{}, false, false
	}
	if f[c.tid] == "-" {
		return ThreadCPU{}, false, true // ps -m's process row
	}
	tid, err := strconv.ParseInt(f[c.tid], 10, 64)
	if err != nil || tid <= 0 {
		return ThreadCPU{}, false, false
	}
	row = ThreadCPU{TID: tid, Share: pcpu / 100, Life: !c.top, Tool: "ps"}
	if c.top {
		row.Tool = "top"
	}
	if c.time >= 0 {
		row.CPU = cpuClock(f[c.time])
	}
	if c.elapsed >= 0 {
		// ps heads both etime and etimes ELAPSED: a clock, or seconds.
		if s, err := strconv.ParseInt(f[c.elapsed], 10, 64); err == nil {
			row.Elapsed = time.Duration(s) * time.Second
		} else {
			row.Elapsed = cpuClock(f[c.elapsed])
		}
	}
	return row, true, true
}

// cpuClock reads ps's TIME and ETIME ("[[dd-]hh:]mm:ss": "2-11:25:55",
// "01:02:03", "05:07") and top's TIME+ ("mm:ss.hh": "0:00.53",
// "125:07.32"); 0 when it is none of them.
func cpuClock(s string) time.Duration {
	days := 0
	if d, rest, ok := strings.Cut(s, "-"); ok {
		v, err := strconv.Atoi(d)
		if err != nil {
			return 0
		}
		days, s = v, rest
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0
	}
	var total float64
	for _, p := range parts {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || v < 0 {
			return 0
		}
		total = total*60 + v
	}
	return time.Duration((total + float64(days)*86400) * float64(time.Second))
}

// AttachCPU gives each JVM thread of d the row of rows whose thread id is
// its native id (nid=0x… in hex, a javacore's native thread ID, or a
// decimal nid as some tools print it), as Thread.JVM.SideCPU; it returns
// how many threads got one. A row already attached (one table given
// twice) is replaced by the later one.
func AttachCPU(d *Dump, rows []ThreadCPU) int {
	if d == nil || len(rows) == 0 {
		return 0
	}
	byTID := make(map[int64]*ThreadCPU, len(rows))
	for i := range rows {
		byTID[rows[i].TID] = &rows[i]
	}
	n := 0
	for _, t := range d.Threads {
		if t.JVM == nil || t.NativeID == "" {
			continue
		}
		id, err := strconv.ParseInt(t.NativeID, 0, 64)
		if err != nil {
			continue
		}
		if r := byTID[id]; r != nil {
			c := *r
			t.SideCPU = &c
			n++
		}
	}
	return n
}
