package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// minVThreadScheduler is the first Java feature release whose jcmd prints
// the virtual-thread scheduler (`jcmd PID Thread.vthread_scheduler`, JDK
// 24). Its one line is the scheduler's own toString, on Temurin 25:
//
//	java.util.concurrent.ForkJoinPool@32da1d70[Running, parallelism = 4, size = 4, active = 4, running = 0, steals = 2, tasks = 0, submissions = 48]
//
// It runs Java code in the target's attach listener thread, at no
// safepoint: it does not stop the target (its cost is measured as every
// JVM file's, and the pause budget refuses it once it did).
const minVThreadScheduler = 24

// Scheduler states of a JVM target (TargetRecord.VThreadScheduler).
const (
	schedServed = "served"
	schedAbsent = "absent"
)

// unknownCommand is what a JVM before JDK 24 answers to a diagnostic
// command it does not have (jcmd exits 1):
//
//	java.lang.IllegalArgumentException: Unknown diagnostic command
const unknownCommand = "Unknown diagnostic command"

// vthreadScheduler takes `jcmd PID Thread.vthread_scheduler` beside
// target i's dump at moment label. A target known to be older than JDK 24
// is not asked, and one that refused the command once (or that jcmd is
// missing for) is not asked again (TargetRecord.VThreadScheduler
// "absent"); each moment so taken without it
// is counted (VThreadSchedulerSkipped). Once a read stopped the target
// longer than the pause budget, it is not taken again either.
func (r *runner) vthreadScheduler(ctx context.Context, i int, label string) {
	side := r.jvm[i]
	if side.sched == "" && side.version > 0 && side.version < minVThreadScheduler {
		r.schedState(i, schedAbsent)
	}
	if side.sched == schedAbsent || side.schedOver {
		ti := r.tidx[i]
		r.update(func(m *Manifest) { m.Targets[ti].VThreadSchedulerSkipped++ })
		return
	}
	t := r.plan.Targets[i]
	pid := t.PID
	j := fileJob{kind: FileVThreadScheduler, name: t.Name + "__" + label + "-vthread-scheduler", what: "jcmd Thread.vthread_scheduler"}
	f, ok := r.file(ctx, t, label, j, func(ctx context.Context) (fetched, error) {
		res := fetched{kind: FileVThreadScheduler, ext: ".txt", tool: "jcmd Thread.vthread_scheduler"}
		before, perfErr := readSafepointTime(pid)
		af, err := runToFile(ctx, r.plan.OutDir, r.plan.MaxBytes, r.plan.Timeout, []string{"jcmd", strconv.Itoa(pid), "Thread.vthread_scheduler"})
		if err != nil {
			// A JVM that has no such command, or no jcmd to ask with (the
			// dump came from jstack): nothing to read, said once.
			if strings.Contains(err.Error(), unknownCommand) || errors.Is(err, exec.ErrNotFound) {
				return res, errAbsent
			}
			return res, err
		}
		if err := checkVThreadScheduler(af.head); err != nil {
			af.discard()
			if errors.Is(err, errAbsent) {
				return res, err
			}
			return res, withReason(ReasonNotADump, err)
		}
		res.af, res.cost = af, safepointCost(pid, before, perfErr)
		return res, nil
	})
	switch {
	case ok:
		r.schedState(i, schedServed)
		if f.Cost != nil && r.plan.MaxPause >= 0 && time.Duration(f.Cost.PauseMS*float64(time.Millisecond)) > r.plan.MaxPause {
			side.schedOver = true
		}
	case f.Target == "" && ctx.Err() == nil:
		r.schedState(i, schedAbsent) // refused: errAbsent records no file
		ti := r.tidx[i]
		r.update(func(m *Manifest) { m.Targets[ti].VThreadSchedulerSkipped++ })
	}
}

// schedState records whether JVM target i prints its virtual-thread
// scheduler.
func (r *runner) schedState(i int, state string) {
	side := r.jvm[i]
	if side.sched == state {
		return
	}
	side.sched = state
	ti := r.tidx[i]
	r.update(func(m *Manifest) { m.Targets[ti].VThreadScheduler = state })
}

// checkVThreadScheduler checks that head is the scheduler's line (after
// jcmd's "PID:" line): a "[...]" list with a parallelism. jcmd can exit 0
// after printing the target's error; the refusal of a JVM without the
// command is errAbsent.
func checkVThreadScheduler(head []byte) error {
	if bytes.Contains(head, []byte(unknownCommand)) {
		return errAbsent
	}
	if bytes.Contains(head, []byte("[")) && bytes.Contains(head, []byte("parallelism = ")) {
		return nil
	}
	line := strings.TrimSpace(lastLineOf(string(head)))
	return fmt.Errorf("jcmd Thread.vthread_scheduler printed no scheduler: %q", line)
}
