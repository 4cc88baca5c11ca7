package watchtest

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// Tmpfs mounts a tmpfs of size ("2m") on a temporary folder for the test,
// to fill a real disk; it skips the test where none can be mounted (not
// Linux, not allowed), and unmounts it when the test ends.
func Tmpfs(t testing.TB, size string) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("tmpfs: linux only")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v: %s): the full disk is tested where it can be", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() { exec.Command("umount", "-l", mnt).Run() })
	return mnt
}
