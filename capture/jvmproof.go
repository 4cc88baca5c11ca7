package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Attaching is not harmless: jcmd and jstack create .attach_pid<PID> in
// the target's folder or /tmp and send it SIGQUIT, which a HotSpot JVM
// takes as "open the attach listener" and any other process dies of (a
// core dump). So a pid is attached to only once something shows it is a
// JVM (jvmProbe.prove); nothing showing it is not enough, unless the plan
// insists (Plan.ForceAttach).

// jvmProbe is where prove looks. hostProbe is this machine's; tests
// point it at a made-up tree.
type jvmProbe struct {
	// proc is the proc file system ("/proc"); empty where there is none
	// (outside Linux), where only the hsperfdata file can show a JVM.
	proc string
	// tmp is the folder a JVM writes hsperfdata_USER/PID into, as
	// HotSpot finds it (java.io.tmpdir does not move it): /tmp on Linux,
	// TMPDIR elsewhere.
	tmp string
}

// userHZ is the unit of a process's start time in /proc/PID/stat: the
// kernel's fixed ABI value (100 on every architecture Go runs Linux on),
// whatever its internal tick.
const userHZ = 100

// prove returns nil when pid is a live process that shows itself a JVM,
// by the first of these signs that can be read:
//
//  1. /proc/PID/maps lists libjvm: a HotSpot JVM (the launcher loads it).
//     Readable maps without it are a proof of the contrary.
//  2. (maps unreadable: another user's process, or a non-dumpable one)
//     its hsperfdata file, TMP/hsperfdata_USER/PID, or in a container its
//     own /tmp through /proc/PID/root under the pid it has there; only a
//     file of the process's user and no older than the process counts (a
//     JVM that died leaves its file, and its pid may be another's now);
//  3. /proc/PID/exe, or the first word of its command line, is a java
//     launcher.
//
// Otherwise it says what was looked at and what to check. force skips
// the signs and only refuses a pid that is gone. The error's Reason is
// ReasonGone at the caller.
func (p jvmProbe) prove(pid int, force bool) error {
	if p.proc == "" {
		return p.provePerfOnly(pid, force)
	}
	dir := filepath.Join(p.proc, strconv.Itoa(pid))
	st, err := readProcStatus(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !force {
			// Or hidden from us (hidepid): not attached either way.
			return fmt.Errorf("no process with pid %d (it has exited?)", pid)
		}
		if !force {
			return fmt.Errorf("pid %d: %v", pid, err)
		}
		return nil // insisted: jcmd decides
	}
	if st.state == 'Z' || st.state == 'X' {
		return fmt.Errorf("pid %d (%s) has exited", pid, st.name)
	}
	if force {
		return nil
	}
	maps, mapsErr := os.ReadFile(filepath.Join(dir, "maps"))
	if mapsErr == nil {
		switch {
		case len(maps) == 0:
			return fmt.Errorf("pid %d (%s) has no memory map: it has exited, or is a kernel thread", pid, st.name)
		case bytes.Contains(maps, []byte("/libjvm.")):
			return nil
		}
		return fmt.Errorf("pid %d (%s) is not a JVM: no libjvm loaded", pid, st.name)
	}
	if p.perfDataOf(pid, dir, st) != "" {
		return nil
	}
	if exe, err := os.Readlink(filepath.Join(dir, "exe")); err == nil && isJavaLauncher(exe) {
		return nil
	}
	argv0 := ""
	if b, err := os.ReadFile(filepath.Join(dir, "cmdline")); err == nil {
		argv0, _, _ = strings.Cut(string(b), "\x00")
		if isJavaLauncher(argv0) {
			return nil
		}
	}
	why := mapsErr.Error()
	if errors.Is(mapsErr, fs.ErrPermission) {
		why = "permission denied, as for another user's process or a non-dumpable one"
	}
	cmd := "its command line is unreadable"
	if argv0 != "" {
		cmd = fmt.Sprintf("its command %q is no java launcher", inert(argv0, 120))
	}
	who := st.name
	if st.uid >= 0 {
		who += ", uid " + strconv.Itoa(st.uid)
	}
	return fmt.Errorf("pid %d (%s) not attached: nothing shows it is a JVM (its memory map is unreadable: %s; no hsperfdata file of it in %s; %s), and the attach sends SIGQUIT, which kills any other process: check the pid (ps -o user,args -p %d), run as the JVM's user, or force-attach if it is one",
		pid, who, why, filepath.Join(p.tmp, "hsperfdata_*"), cmd, pid)
}

// provePerfOnly is prove without a proc file system: a JVM's hsperfdata
// file is the only sign (it cannot be told from a stale one, nor a gone
// pid from a live one).
func (p jvmProbe) provePerfOnly(pid int, force bool) error {
	if force {
		return nil
	}
	paths, _ := filepath.Glob(filepath.Join(p.tmp, "hsperfdata_*", strconv.Itoa(pid)))
	if len(paths) > 0 {
		return nil
	}
	return fmt.Errorf("pid %d not attached: nothing shows it is a JVM (no hsperfdata file of it in %s; a JVM run with -XX:-UsePerfData has none), and the attach sends SIGQUIT, which kills any other process: check the pid (ps -o user,args -p %d), or force-attach if it is one",
		pid, filepath.Join(p.tmp, "hsperfdata_*"), pid)
}

// perfDataOf returns the hsperfdata file of the process in dir (its
// /proc folder), or "" when none is surely its own.
func (p jvmProbe) perfDataOf(pid int, dir string, st procStatus) string {
	started, ok := p.startTime(dir)
	if !ok || st.euid < 0 {
		return "" // a file cannot be told from a stale one
	}
	paths, _ := filepath.Glob(filepath.Join(p.tmp, "hsperfdata_*", strconv.Itoa(pid)))
	if st.nspid > 0 {
		more, _ := filepath.Glob(filepath.Join(dir, "root", "tmp", "hsperfdata_*", strconv.Itoa(st.nspid)))
		paths = append(paths, more...)
	}
	for _, path := range paths {
		fi, err := os.Stat(path)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		uid, ok := fileOwner(fi)
		// The JVM writes its file after it started; btime has whole
		// seconds, hence the second's slack.
		if ok && uid == st.euid && !fi.ModTime().Before(started.Add(-time.Second)) {
			return path
		}
	}
	return ""
}

// startTime is when the process in dir started: the boot time (btime in
// /proc/stat) plus its start in clock ticks (field 22 of /proc/PID/stat).
func (p jvmProbe) startTime(dir string) (time.Time, bool) {
	stat, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return time.Time{}, false
	}
	// The command name (field 2) is in parentheses and may hold spaces
	// and parentheses: the fields after it start past the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return time.Time{}, false
	}
	fields := strings.Fields(string(stat[i+1:]))
	const startField = 22 - 3 // fields counted from 1; these start at field 3
	if len(fields) <= startField {
		return time.Time{}, false
	}
	ticks, err := strconv.ParseInt(fields[startField], 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	sys, err := os.ReadFile(filepath.Join(p.proc, "stat"))
	if err != nil {
		return time.Time{}, false
	}
	for line := range strings.Lines(string(sys)) {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			boot, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return time.Time{}, false
			}
			return time.Unix(boot, 0).Add(time.Duration(ticks) * time.Second / userHZ), true
		}
	}
	return time.Time{}, false
}

// isJavaLauncher reports whether path names the java launcher.
func isJavaLauncher(path string) bool {
	return filepath.Base(strings.TrimSuffix(path, " (deleted)")) == "java"
}

// procStatus is what prove reads of /proc/PID/status, which every user
// may read, whatever the process.
type procStatus struct {
	name  string // Name: the command name, as ps shows it
	state byte   // State: R, S, D, Z (zombie), ...
	uid   int    // real uid; -1 if not read
	euid  int    // effective uid, the owner of what it creates; -1 if not read
	nspid int    // its pid in its own pid namespace (the last of NSpid); 0 if not read
}

// readProcStatus reads dir/status:
//
//	Name:	java
//	State:	S (sleeping)
//	Uid:	1000	1000	1000	1000
//	NSpid:	4242	1
func readProcStatus(dir string) (procStatus, error) {
	b, err := os.ReadFile(filepath.Join(dir, "status"))
	if err != nil {
		return procStatus{}, err
	}
	st := procStatus{uid: -1, euid: -1}
	for line := range strings.Lines(string(b)) {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(val)
		if len(f) == 0 {
			continue
		}
		switch key {
		case "Name":
			st.name = strings.TrimSpace(val)
		case "State":
			st.state = f[0][0]
		case "Uid":
			st.uid = atoiOr(f[0], -1)
			if len(f) > 1 {
				st.euid = atoiOr(f[1], -1)
			}
		case "NSpid":
			st.nspid = atoiOr(f[len(f)-1], 0)
		}
	}
	if st.name == "" {
		return st, fmt.Errorf("%s has no Name line", filepath.Join(dir, "status"))
	}
	return st, nil
}

func atoiOr(s string, or int) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return or
	}
	return n
}

// LocalJVM is a JVM of this machine that capture --pid may attach to.
type LocalJVM struct {
	PID     int
	Command string // its command line, spaces between the arguments ("" when unreadable)
}

// LocalJVMs lists the JVMs of this machine that prove shows to be JVMs:
// those with an hsperfdata file (every HotSpot JVM run without
// -XX:-UsePerfData) and, on Linux, every process whose maps hold libjvm
// that this user may read. For shell completion of --pid; in pid order.
func LocalJVMs() []LocalJVM {
	p := hostProbe()
	seen := map[int]bool{}
	var out []LocalJVM
	add := func(pid int) {
		if seen[pid] || pid <= 0 {
			return
		}
		seen[pid] = true
		if p.prove(pid, false) != nil {
			return
		}
		j := LocalJVM{PID: pid}
		if p.proc != "" {
			if b, err := os.ReadFile(filepath.Join(p.proc, strconv.Itoa(pid), "cmdline")); err == nil {
				j.Command = inert(strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " ")), 200)
			}
		}
		out = append(out, j)
	}
	files, _ := filepath.Glob(filepath.Join(p.tmp, "hsperfdata_*", "*"))
	for _, f := range files {
		if pid, err := strconv.Atoi(filepath.Base(f)); err == nil {
			add(pid)
		}
	}
	if p.proc != "" {
		entries, _ := os.ReadDir(p.proc)
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || seen[pid] {
				continue
			}
			// Only a readable map that holds libjvm: no other sign is
			// tried on every process of the machine.
			if maps, err := os.ReadFile(filepath.Join(p.proc, e.Name(), "maps")); err == nil && bytes.Contains(maps, []byte("/libjvm.")) {
				add(pid)
			}
		}
	}
	slices.SortFunc(out, func(a, b LocalJVM) int { return a.PID - b.PID })
	return out
}
