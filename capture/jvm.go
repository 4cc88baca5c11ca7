package capture

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// jvmSide is what a run knows of one JVM target across its moments.
type jvmSide struct {
	// locks: the last dump showed threads parked on a lock whose owner
	// only -l prints, so the next one is taken with -l at once.
	locks bool
	// version is the target's Java feature version (javaVersion); 0
	// before the first moment or when it cannot be read.
	version int
	// noJSON: Thread.dump_to_file failed on this target (a JVM without
	// it, a /tmp it cannot write, a file this process cannot read), so
	// its moments are taken with Thread.print, saying so.
	noJSON string
	// lockPause is the stop the last -l dump cost the target (its heap
	// walk at a safepoint, from hsperfdata); 0 when not measured. Past the
	// pause budget, -l is not taken again.
	lockPause time.Duration
	// sched is TargetRecord.VThreadScheduler: "" before the first ask,
	// "served", or "absent" (before JDK 24, or the command refused).
	sched string
	// schedOver: a scheduler read stopped the target longer than the
	// pause budget; it is not taken again.
	schedOver bool
}

// jvmDump takes a thread dump of a local JVM. It first checks that the pid
// is a live process that shows itself a JVM (proveJVM), because the attach
// sends SIGQUIT, which kills any other process. A JDK 21+ target (javaVersion) writes a
// JSON dump with every virtual thread (jsonDump); an older one, or one
// where that fails, is dumped with "jcmd PID Thread.print", or "jstack PID"
// when jcmd is missing or fails.
//
// -l (lock ownership) is not free: HotSpot finds ownable synchronizers by
// walking the heap inside the safepoint (324 ms instead of 33 ms at 1k
// threads and a 1.75 GB heap). It is taken when Plan.Locks asks, or when a
// dump without it shows threads parked on a java.util.concurrent lock whose
// owner only -l prints: then the dump is taken again with -l at once, and
// the next moments keep -l while such waiters remain. A JSON dump names no
// such owner either (JDK 21-25): Thread.print -l is then taken beside it
// (lockOwners). Once an -l dump stopped the target longer than the pause
// budget (Plan.MaxPause), -l is not taken again on it, and the files say so.
func (r *runner) jvmDump(ctx context.Context, i int) (fetched, error) {
	pid := r.plan.Targets[i].PID
	side := r.jvm[i]
	res := fetched{kind: FileJVM, ext: ".txt"}
	if err := r.proveJVM(pid); err != nil {
		return res, withReason(ReasonGone, err)
	}
	if side.version == 0 {
		side.version = r.javaVersion(ctx, pid)
		if side.version > 0 {
			ti := r.tidx[i]
			r.update(func(m *Manifest) { m.Targets[ti].JavaVersion = side.version })
		}
	}
	before, perfErr := readSafepointTime(pid)
	measure := func() *Cost { return safepointCost(pid, before, perfErr) }
	if side.version >= minJSONDump && side.noJSON == "" {
		af, err := r.jsonDump(ctx, pid)
		if err == nil {
			res = fetched{af: af, kind: FileJVMJSON, ext: ".json", tool: "jcmd Thread.dump_to_file", cost: measure()}
			waiters, _ := ownableJSONWaiters(af.f.Name())
			side.locks = waiters > 0
			if side.locks {
				res.note = fmt.Sprintf("%s park on a java.util.concurrent lock the JSON dump names no owner of", plural(waiters, "thread"))
				if want, why := r.wantLockOwners(i); want {
					res.note += ": Thread.print -l is taken beside it"
				} else {
					res.note += "; " + why
				}
			}
			return res, nil
		}
		if ctx.Err() != nil {
			return res, err
		}
		// Said on this moment and every next one: its dumps lack the
		// virtual threads.
		side.noJSON = fmt.Sprintf("Java %d, but Thread.dump_to_file failed (%v): virtual threads are not in this dump", side.version, err)
	}
	locks := r.plan.Locks || side.locks
	overBudget := side.lockPause > 0 && r.plan.MaxPause >= 0 && side.lockPause > r.plan.MaxPause
	if overBudget {
		locks = false
	}
	af, tool, err := r.jvmTool(ctx, pid, locks)
	if err != nil {
		return res, err
	}
	var notes []string
	if side.noJSON != "" {
		notes = append(notes, side.noJSON)
	}
	waiters, _ := ownableWaiters(af.f.Name())
	switch {
	case !locks && waiters > 0 && overBudget:
		notes = append(notes, fmt.Sprintf("kept without -l: the last -l stopped the target %s > max-pause %s; %s park on a java.util.concurrent lock whose owner is unknown",
			roundDur(side.lockPause), r.plan.MaxPause, plural(waiters, "thread")))
	case !locks && waiters > 0:
		// The dump in hand is kept until the -l one exists: a retry that
		// fails (the JVM exits, a timeout, Ctrl-C) leaves the moment its
		// first dump, with the owners unknown, rather than nothing.
		why := fmt.Sprintf("%s park on a java.util.concurrent lock whose owner only -l prints", plural(waiters, "thread"))
		if laf, ltool, lerr := r.jvmTool(ctx, pid, true); lerr != nil {
			notes = append(notes, fmt.Sprintf("kept without -l: taking it again with -l failed (%v); %s", lerr, why))
		} else {
			af.discard()
			af, tool = laf, ltool
			notes = append(notes, "taken again with -l: "+why)
			locks = true
		}
	}
	if !r.plan.Locks {
		side.locks = waiters > 0
	}
	res.note = strings.Join(notes, "; ")
	res.cost = measure()
	if locks && res.cost != nil {
		side.lockPause = time.Duration(res.cost.PauseMS * float64(time.Millisecond))
	}
	res.af, res.tool = af, tool
	return res, nil
}

// lockOwners takes Thread.print -l beside a JSON dump whose threads park
// on ownable locks it names no owner of: the text names the platform
// threads holding them ("Locked ownable synchronizers"). Within the pause
// budget only, as every -l.
func (r *runner) lockOwners(ctx context.Context, i int) (fetched, error) {
	pid := r.plan.Targets[i].PID
	side := r.jvm[i]
	res := fetched{kind: FileJVM, ext: ".txt"}
	before, perfErr := readSafepointTime(pid)
	af, tool, err := r.jvmTool(ctx, pid, true)
	if err != nil {
		return res, err
	}
	res.af, res.tool = af, tool
	res.note = "lock owners for the JSON dump beside it"
	if res.cost = safepointCost(pid, before, perfErr); res.cost != nil {
		side.lockPause = time.Duration(res.cost.PauseMS * float64(time.Millisecond))
	}
	return res, nil
}

// wantLockOwners reports whether the JSON moment just taken needs
// Thread.print -l beside it, and why not when the budget refuses it.
func (r *runner) wantLockOwners(i int) (bool, string) {
	side := r.jvm[i]
	if !side.locks && !r.plan.Locks {
		return false, ""
	}
	if side.lockPause > 0 && r.plan.MaxPause >= 0 && side.lockPause > r.plan.MaxPause {
		return false, fmt.Sprintf("no Thread.print -l beside it: the last -l stopped the target %s > max-pause %s", roundDur(side.lockPause), r.plan.MaxPause)
	}
	return true, ""
}

// proveJVM checks, before every attach, that pid shows itself a JVM
// (jvmProbe.prove), unless the plan insists (Plan.ForceAttach).
func (r *runner) proveJVM(pid int) error {
	return hostProbe().prove(pid, r.plan.ForceAttach)
}

// jvmTool runs jcmd, falling back to jstack, with or without -l.
func (r *runner) jvmTool(ctx context.Context, pid int, locks bool) (*atomicFile, string, error) {
	p := strconv.Itoa(pid)
	jcmd, jstack := []string{"jcmd", p, "Thread.print"}, []string{"jstack", p}
	tool := ""
	if locks {
		jcmd, jstack = append(jcmd, "-l"), []string{"jstack", "-l", p}
		tool = " -l"
	}
	af, jcmdErr := r.runTool(ctx, jcmd)
	if jcmdErr == nil {
		return af, "jcmd" + tool, nil
	}
	if ctx.Err() != nil {
		return nil, "", jcmdErr
	}
	af, jstackErr := r.runTool(ctx, jstack)
	if jstackErr == nil {
		return af, "jstack" + tool, nil
	}
	if errors.Is(jcmdErr, exec.ErrNotFound) && errors.Is(jstackErr, exec.ErrNotFound) {
		return nil, "", withReason(ReasonTool, errors.New("neither jcmd nor jstack is on PATH (install a JDK, or use an exec target)"))
	}
	err := fmt.Errorf("jcmd: %v; jstack: %v", jcmdErr, jstackErr)
	// A JVM that exited while it was dumped is gone, not a tool's fault.
	if r.proveJVM(pid) != nil {
		return nil, "", withReason(ReasonGone, err)
	}
	return nil, "", withReason(ReasonTool, err)
}

// runTool runs a JDK tool and checks its output is a complete thread dump;
// jcmd can exit 0 after printing an error.
func (r *runner) runTool(ctx context.Context, argv []string) (*atomicFile, error) {
	af, err := runToFile(ctx, r.plan.OutDir, r.plan.MaxBytes, r.plan.Timeout, argv)
	if err != nil {
		return nil, err
	}
	if err := checkJVM(af.head, af.lastBytes(), af.n); err != nil {
		af.discard()
		return nil, err
	}
	return af, nil
}

// ownableLocks are the java.util.concurrent synchronizers that have an
// owner (AbstractOwnableSynchronizer) which a dump prints only with -l,
// in its "Locked ownable synchronizers" sections. Latches, semaphores,
// futures and conditions have no owner to find.
var ownableLocks = [][]byte{
	[]byte("(a java.util.concurrent.locks.ReentrantLock$"),          // NonfairSync, FairSync
	[]byte("(a java.util.concurrent.locks.ReentrantReadWriteLock$"), // NonfairSync, FairSync
	[]byte("(a java.util.concurrent.ThreadPoolExecutor$Worker)"),    // a worker's own lock
}

// ownableWaiters counts the threads of a dump parked on an ownable lock:
//
//   - parking to wait for  <0x000000062a8a1b40> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)
//
// One pass over the file, no regexp.
func ownableWaiters(path string) (int, error) {
	n := 0
	err := eachLine(path, func(line []byte) {
		line = bytes.TrimLeft(line, " \t")
		if !bytes.HasPrefix(line, []byte("- parking to wait for")) {
			return
		}
		for _, l := range ownableLocks {
			if bytes.Contains(line, l) {
				n++
				return
			}
		}
	})
	return n, err
}

// eachLine calls fn with each line of the file at path (up to 1 MiB a
// line; the bytes are valid during the call only).
func eachLine(path string, fn func(line []byte)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		fn(sc.Bytes())
	}
	return sc.Err()
}

// safepointCost is the stop a dump cost a JVM: its time at safepoints
// now less before (readSafepointTime); nil when either is unknown.
func safepointCost(pid int, before time.Duration, beforeErr error) *Cost {
	if beforeErr != nil {
		return nil
	}
	after, err := readSafepointTime(pid)
	if err != nil || after < before {
		return nil
	}
	return &Cost{PauseMS: ms(after - before), PauseSource: "hsperfdata"}
}
