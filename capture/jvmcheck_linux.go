//go:build linux

package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// checkJVMProcess reads /proc/PID/maps: a HotSpot JVM has libjvm.so mapped.
// When maps cannot be read (another user's process) it lets jcmd decide.
func checkJVMProcess(pid int) error {
	maps, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no process with pid %d (it has exited?)", pid)
	}
	if err != nil {
		return nil
	}
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	name := strings.TrimSpace(string(comm))
	if len(maps) == 0 {
		return fmt.Errorf("pid %d (%s) has exited", pid, name)
	}
	if !bytes.Contains(maps, []byte("/libjvm.")) {
		return fmt.Errorf("pid %d (%s) is not a JVM: no libjvm loaded", pid, name)
	}
	return nil
}
