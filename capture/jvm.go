package capture

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
)

// jvmDump takes a thread dump of a local JVM: "jcmd PID Thread.print -l",
// or "jstack -l PID" when jcmd is missing or fails. It first checks that the
// pid is a live JVM (checkJVMProcess), because attaching to anything else
// makes jcmd wait 10 s before it fails.
func jvmDump(ctx context.Context, r *runner, pid int) (af *atomicFile, tool string, err error) {
	if err := checkJVMProcess(pid); err != nil {
		return nil, "", err
	}
	p := strconv.Itoa(pid)
	af, jcmdErr := r.runTool(ctx, []string{"jcmd", p, "Thread.print", "-l"})
	if jcmdErr == nil {
		return af, "jcmd", nil
	}
	if ctx.Err() != nil {
		return nil, "", jcmdErr
	}
	af, jstackErr := r.runTool(ctx, []string{"jstack", "-l", p})
	if jstackErr == nil {
		return af, "jstack", nil
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
