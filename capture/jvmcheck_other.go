//go:build !linux

package capture

import (
	"io/fs"
	"os"
)

// hostProbe is this machine's: no proc file system to read, so only a
// JVM's hsperfdata file, in the temp folder (macOS: the user's
// TMPDIR, as HotSpot finds it), shows it.
func hostProbe() jvmProbe { return jvmProbe{tmp: os.TempDir()} }

// fileOwner is not used without a proc file system.
func fileOwner(fs.FileInfo) (int, bool) { return 0, false }
