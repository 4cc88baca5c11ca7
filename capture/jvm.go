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
)

// jvmSide is what a run knows of one JVM target across its moments.
type jvmSide struct {
	// locks: the last dump showed threads parked on a lock whose owner
	// only -l prints, so the next one is taken with -l at once.
	locks bool
}

// jvmDump takes a thread dump of a local JVM: "jcmd PID Thread.print", or
// "jstack PID" when jcmd is missing or fails. It first checks that the pid
// is a live JVM (checkJVMProcess), because attaching to anything else makes
// jcmd wait 10 s before it fails.
//
// -l (lock ownership) is not free: HotSpot finds ownable synchronizers by
// walking the heap inside the safepoint (324 ms instead of 33 ms at 1k
// threads and a 1.75 GB heap). It is taken when Plan.Locks asks, or when a
// dump without it shows threads parked on a java.util.concurrent lock whose
// owner only -l prints: then the dump is taken again with -l at once, and
// the next moments keep -l while such waiters remain.
func (r *runner) jvmDump(ctx context.Context, i int) (fetched, error) {
	pid := r.plan.Targets[i].PID
	side := r.jvm[i]
	res := fetched{kind: FileJVM}
	if err := checkJVMProcess(pid); err != nil {
		return res, err
	}
	before, perfErr := readSafepointTime(pid)
	locks := r.plan.Locks || side.locks
	af, tool, err := r.jvmTool(ctx, pid, locks)
	if err != nil {
		return res, err
	}
	waiters, _ := ownableWaiters(af.f.Name())
	if !locks && waiters > 0 {
		// The dump in hand is kept until the -l one exists: a retry that
		// fails (the JVM exits, a timeout, Ctrl-C) leaves the moment its
		// first dump, with the owners unknown, rather than nothing.
		why := fmt.Sprintf("%s park on a java.util.concurrent lock whose owner only -l prints", plural(waiters, "thread"))
		if laf, ltool, lerr := r.jvmTool(ctx, pid, true); lerr != nil {
			res.note = fmt.Sprintf("kept without -l: taking it again with -l failed (%v); %s", lerr, why)
		} else {
			af.discard()
			af, tool = laf, ltool
			res.note = "taken again with -l: " + why
		}
	}
	if !r.plan.Locks {
		side.locks = waiters > 0
	}
	if perfErr == nil {
		if after, err := readSafepointTime(pid); err == nil && after >= before {
			res.cost = &Cost{PauseMS: ms(after - before), PauseSource: "hsperfdata"}
		}
	}
	res.af, res.tool = af, tool
	return res, nil
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
		return nil, "", errors.New("neither jcmd nor jstack is on PATH (install a JDK, or use an exec target)")
	}
	return nil, "", fmt.Errorf("jcmd: %v; jstack: %v", jcmdErr, jstackErr)
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
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		line := bytes.TrimLeft(sc.Bytes(), " \t")
		if !bytes.HasPrefix(line, []byte("- parking to wait for")) {
			continue
		}
		for _, l := range ownableLocks {
			if bytes.Contains(line, l) {
				n++
				break
			}
		}
	}
	return n, sc.Err()
}
