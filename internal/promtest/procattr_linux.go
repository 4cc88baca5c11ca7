package promtest

import "syscall"

// dieWithParent has the kernel kill Prometheus when the test binary dies
// without running its cleanups (go test's -timeout panics, a SIGKILL), so
// no server outlives its test. The signal follows the OS thread that
// started the process; Go ends a thread only when a goroutine locked to it
// exits, which this package's callers do not do.
func dieWithParent() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
