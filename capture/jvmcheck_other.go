//go:build !linux

package capture

// checkJVMProcess has no cheap portable test outside Linux; jcmd decides.
func checkJVMProcess(pid int) error { return nil }
