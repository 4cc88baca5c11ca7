package capture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// readSafepointTime reads how long a local HotSpot JVM has spent at
// safepoints (with the world stopped) since it started, from the
// performance counters it keeps in a memory-mapped file,
// TMPDIR/hsperfdata_USER/PID: sun.rt.safepointTime in ticks of
// sun.os.hrt.frequency per second. Reading the file costs the JVM nothing
// (no attach, no safepoint). It fails when the JVM runs with
// -XX:-UsePerfData or the file is out of reach (another mount namespace).
func readSafepointTime(pid int) (time.Duration, error) {
	name := strconv.Itoa(pid)
	paths, _ := filepath.Glob(filepath.Join(os.TempDir(), "hsperfdata_*", name))
	if len(paths) == 0 {
		// A JVM in a container writes into its own /tmp.
		paths, _ = filepath.Glob(filepath.Join("/proc", name, "root", "tmp", "hsperfdata_*", name))
	}
	if len(paths) == 0 {
		return 0, errors.New("no hsperfdata file")
	}
	b, err := os.ReadFile(paths[0])
	if err != nil {
		return 0, err
	}
	c, err := perfCounters(b, "sun.rt.safepointTime", "sun.os.hrt.frequency")
	if err != nil {
		return 0, err
	}
	ticks, freq := c["sun.rt.safepointTime"], c["sun.os.hrt.frequency"]
	if freq <= 0 {
		return 0, errors.New("hsperfdata: no sun.os.hrt.frequency")
	}
	return time.Duration(float64(ticks) / float64(freq) * float64(time.Second)), nil
}

// perfCounters reads the named long counters of an hsperfdata buffer
// (HotSpot's perfMemory.hpp):
//
//	prologue: magic 0xcafec0c0 (big endian), byte order (0 big, 1 little),
//	          major, minor, accessible, used, overflow, mod time (8),
//	          entry offset, entry count                        — 32 bytes
//	entry:    length, name offset, vector length, type ('J' long), flags,
//	          units, variability, data offset; the name is NUL-terminated
func perfCounters(b []byte, names ...string) (map[string]int64, error) {
	if len(b) < 32 || binary.BigEndian.Uint32(b) != 0xcafec0c0 {
		return nil, errors.New("hsperfdata: bad magic")
	}
	var bo binary.ByteOrder = binary.BigEndian
	if b[4] == 1 {
		bo = binary.LittleEndian
	}
	off, n := int(bo.Uint32(b[24:])), int(bo.Uint32(b[28:]))
	want := map[string]bool{}
	for _, s := range names {
		want[s] = true
	}
	out := map[string]int64{}
	for k := 0; k < n && off+20 <= len(b) && len(out) < len(want); k++ {
		e := b[off:]
		length, nameOff, vlen, typ, dataOff := int(bo.Uint32(e)), int(bo.Uint32(e[4:])), int(bo.Uint32(e[8:])), e[12], int(bo.Uint32(e[16:]))
		if length <= 0 || length > len(e) || nameOff >= length || dataOff+8 > length {
			if length <= 0 || length > len(e) {
				return out, fmt.Errorf("hsperfdata: bad entry %d", k)
			}
			off += length
			continue
		}
		name := e[nameOff:length]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if typ == 'J' && vlen == 0 && want[string(name)] {
			out[string(name)] = int64(bo.Uint64(e[dataOff:]))
		}
		off += length
	}
	for _, s := range names {
		if _, ok := out[s]; !ok {
			return out, fmt.Errorf("hsperfdata: no counter %s", s)
		}
	}
	return out, nil
}
