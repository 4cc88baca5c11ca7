package analyze

import (
	"fmt"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A thread's CPU at one moment, from wherever it is printed (issue 33:
// spinning seen in one moment by CPU evidence). What separates a loop from
// a healthy busy thread in one moment is how long the thread has been on
// CPU, not that it is on CPU now: a request thread under load, a batch
// worker, an event loop are all on CPU at the moment a dump or top catches
// them (testdata/verdicts/hashmap-busy-healthy/top-H.out: a busy indexer
// at 53% in top; jvm-busy-batch: a batch computing all its young life).
// So a share is evidence only over a life long enough (SpinLifeShare over
// SpinMinElapsed, the cpu= rule), and where no life is printed a CPU total
// is said as a notable line, not a finding, except in a loop of the
// hot-loop table, whose frames say the rest (HotLoopCPU).

// Where a thread's CPU and life were read from (cpuLife).
const (
	lifeHotSpot = "cpu-lifetime"    // HotSpot's cpu= against its elapsed= (JDK 11+)
	lifePS      = "cpu-lifetime-ps" // a ps row beside the dump: %CPU over the thread's life, TIME
	lifeUptime  = "cpu-uptime"      // a javacore's CPU total against the JVM's uptime: the thread is no older
)

// cpuLife is a JVM thread's CPU time at one moment of dump d and the life
// it was used over (0 when no life is known), and from where (the spinning
// basis: lifeHotSpot, lifePS, lifeUptime; "" when no life is known: a
// javacore without its start time, top's TIME+). The sources, best first:
//   - cpu= and elapsed= (HotSpot JDK 11+): the thread's own;
//   - a ps row (ps -L, -eLo, -mo) matched by native id: its %CPU is
//     cputime over the thread's life, its TIME the cputime, so the life
//     is TIME/%CPU (parse.ThreadCPU.Age);
//   - a javacore's CPU total (3XMCPUTIME) against the JVM's uptime
//     (1CISTARTTIME to 1TIDATETIME): the thread lived at most that long,
//     so the share is at least CPU/uptime (a lower bound: a young thread
//     is judged older than it is, never the other way);
//   - a CPU total alone (a javacore cut from its header, top's TIME+):
//     no life.
func cpuLife(t *parse.Thread, d *parse.Dump) (cpu, life time.Duration, from string) {
	if t == nil || t.JVM == nil {
		return 0, 0, ""
	}
	if t.CPU > 0 && t.Elapsed > 0 {
		return t.CPU, t.Elapsed, lifeHotSpot
	}
	if c := t.SideCPU; c != nil && c.Life {
		if age := c.Age(); age > 0 {
			return time.Duration(c.Share * float64(age)), age, lifePS
		}
	}
	if t.CPU > 0 && d != nil && d.Uptime > 0 {
		return t.CPU, d.Uptime, lifeUptime
	}
	if t.CPU > 0 {
		return t.CPU, 0, ""
	}
	if c := t.SideCPU; c != nil && c.CPU > 0 {
		return c.CPU, 0, ""
	}
	return 0, 0, ""
}

// onCPULife reports whether cpu over life is the lifetime rule's
// evidence: at least SpinLifeShare of a life of at least SpinMinElapsed.
func onCPULife(cpu, life time.Duration) bool {
	return life >= SpinMinElapsed*time.Second && float64(cpu) >= SpinLifeShare*float64(life)
}

// cpuNote is why a running thread's CPU makes it notable where no rule
// made it a finding, in words; "" when it does not. Two cases, each
// weaker than a finding's evidence:
//   - a CPU total with no life printed, past HotLoopCPU, in a paste a
//     person cut (they chose the thread): a loop, or a long-lived thread
//     that worked (a server's request thread for days); a second dump
//     tells. Not in a whole dump: a long-lived server's workers all carry
//     minutes of CPU (the corpus's SAP JVM 2008 log: HTTP workers at 4–7
//     minutes), which is no news;
//   - a share of a recent interval (top) past SpinTopShare: on CPU now,
//     as any busy thread is; a second dump tells whether it stays in the
//     same frames;
//   - a share of the thread's life (ps) past SpinLifeShare whose life
//     the table does not give (no TIME, no ELAPSED column).
func cpuNote(t *parse.Thread, d *parse.Dump) string {
	cpu, life, _ := cpuLife(t, d)
	if life == 0 && cpu >= HotLoopCPU*time.Second && d != nil && d.Cut {
		return "has used " + cpu.Round(time.Second).String() + " of CPU, its age not printed: a loop, or a long-lived thread that worked; a second dump tells"
	}
	if c := t.SideCPU; c != nil && !c.Life && c.Share >= SpinTopShare {
		return "on CPU now (" + c.Tool + " " + percent(c.Share) + "), as a busy thread is too: a second dump tells whether it stays in these frames"
	}
	if c := t.SideCPU; c != nil && c.Life && c.Age() == 0 && c.Share >= SpinLifeShare {
		// ps without TIME or ELAPSED: a share of a life of unknown length
		// (a thread started a second ago computes all of it).
		return "on CPU " + percent(c.Share) + " of its life (" + c.Tool + "), its age not printed: add TIME to the ps columns, or a second dump tells"
	}
	return ""
}

// percent is a share as "67%".
func percent(share float64) string { return fmt.Sprintf("%.0f%%", share*100) }
