//go:build linux

package capture

import (
	"io/fs"
	"syscall"
)

// hostProbe is this machine's: its proc file system, and /tmp, where
// HotSpot on Linux keeps hsperfdata whatever TMPDIR says.
func hostProbe() jvmProbe { return jvmProbe{proc: "/proc", tmp: "/tmp"} }

// fileOwner is the uid owning fi's file.
func fileOwner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
