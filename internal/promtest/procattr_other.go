//go:build !linux

package promtest

import "syscall"

// dieWithParent is Linux only (Pdeathsig); elsewhere only the test's
// cleanup stops Prometheus.
func dieWithParent() *syscall.SysProcAttr { return nil }
