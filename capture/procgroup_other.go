//go:build !unix

package capture

import "os/exec"

// Without process groups, the default (kill the process) is the best we have.
func killGroupOnCancel(cmd *exec.Cmd) {}
func stopGroupOnCancel(cmd *exec.Cmd) {}
