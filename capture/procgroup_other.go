//go:build !unix

package capture

import "os/exec"

// Without process groups, the default (kill the process) is the best we have.
func KillGroupOnCancel(cmd *exec.Cmd) {} // KillGroupOnCancel: see procgroup_unix.go
func stopGroupOnCancel(cmd *exec.Cmd) {}
