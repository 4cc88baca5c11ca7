//go:build unix

package watch

import "syscall"

// freeBytes is the space left to an unprivileged writer on dir's file
// system; ok is false when it cannot be known.
func freeBytes(dir string) (free uint64, ok bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return st.Bavail * uint64(st.Bsize), true
}
