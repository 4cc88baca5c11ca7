package capture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	path, err := hsperfFile(pid)
	if err != nil {
		return 0, err
	}
	b, err := os.ReadFile(path)
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
//	entry:    length, name offset, vector length, type ('J' long, 'B'
//	          byte vector: a string), flags, units, variability, data
//	          offset; the name is NUL-terminated
func perfCounters(b []byte, names ...string) (map[string]int64, error) {
	out := map[string]int64{}
	err := eachPerfEntry(b, names, func(name string, typ byte, vlen int, data []byte) bool {
		if typ == 'J' && vlen == 0 && len(data) >= 8 {
			out[name] = int64(perfOrder(b).Uint64(data))
		}
		return len(out) == len(names)
	})
	if err != nil {
		return out, err
	}
	for _, s := range names {
		if _, ok := out[s]; !ok {
			return out, fmt.Errorf("hsperfdata: no counter %s", s)
		}
	}
	return out, nil
}

// perfString reads one string counter ('B' vector, NUL-terminated), such
// as java.property.java.vm.specification.version ("25").
func perfString(b []byte, name string) (string, error) {
	val, found := "", false
	err := eachPerfEntry(b, []string{name}, func(_ string, typ byte, vlen int, data []byte) bool {
		if typ == 'B' && vlen > 0 {
			data = data[:min(vlen, len(data))]
			if i := bytes.IndexByte(data, 0); i >= 0 {
				data = data[:i]
			}
			val, found = string(data), true
		}
		return found
	})
	if err == nil && !found {
		err = fmt.Errorf("hsperfdata: no counter %s", name)
	}
	return val, err
}

func perfOrder(b []byte) binary.ByteOrder {
	if b[4] == 1 {
		return binary.LittleEndian
	}
	return binary.BigEndian
}

// eachPerfEntry calls fn with each entry named in names, its data from
// its data offset to the entry's end, until fn returns true.
func eachPerfEntry(b []byte, names []string, fn func(name string, typ byte, vlen int, data []byte) (done bool)) error {
	if len(b) < 32 || binary.BigEndian.Uint32(b) != 0xcafec0c0 {
		return errors.New("hsperfdata: bad magic")
	}
	bo := perfOrder(b)
	off, n := int(bo.Uint32(b[24:])), int(bo.Uint32(b[28:]))
	for k := 0; k < n && off+20 <= len(b); k++ {
		e := b[off:]
		length, nameOff, vlen, typ, dataOff := int(bo.Uint32(e)), int(bo.Uint32(e[4:])), int(bo.Uint32(e[8:])), e[12], int(bo.Uint32(e[16:]))
		if length <= 0 || length > len(e) {
			return fmt.Errorf("hsperfdata: bad entry %d", k)
		}
		if nameOff < length && dataOff < length {
			name := e[nameOff:length]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if slices.Contains(names, string(name)) && fn(string(name), typ, vlen, e[dataOff:length]) {
				return nil
			}
		}
		off += length
	}
	return nil
}

// hsperfFile finds a local JVM's hsperfdata file: TMPDIR/hsperfdata_USER/PID,
// or for a JVM in a container, its own /tmp through /proc/PID/root.
func hsperfFile(pid int) (string, error) {
	name := strconv.Itoa(pid)
	paths, _ := filepath.Glob(filepath.Join(os.TempDir(), "hsperfdata_*", name))
	if len(paths) == 0 {
		paths, _ = filepath.Glob(filepath.Join("/proc", name, "root", "tmp", "hsperfdata_*", name))
	}
	if len(paths) == 0 {
		return "", errors.New("no hsperfdata file")
	}
	return paths[0], nil
}
