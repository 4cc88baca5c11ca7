//go:build unix

package capture

import (
	"os/exec"
	"syscall"
)

// KillGroupOnCancel runs cmd in its own process group and kills the whole
// group when its context ends: "sh -c 'kubectl exec ...'" leaves the shell's
// children behind otherwise, holding the output pipe open. Exported for
// the commands watch runs (--on-incident).
func KillGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// stopGroupOnCancel is KillGroupOnCancel with SIGTERM, for the load command:
// it may want to print a summary. cmd.WaitDelay bounds how long it has.
func stopGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
}
