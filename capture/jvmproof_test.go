//go:build linux

package capture

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// procTree is a made-up /proc and /tmp for jvmProbe: one process, pid
// procPID, started at procStart, owned by this test's uid.
type procTree struct {
	t         *testing.T
	root      string
	probe     jvmProbe
	pidDir    string
	startedAt time.Time
}

const procPID = 4242

var procBoot = time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)

func newProcTree(t *testing.T) *procTree {
	t.Helper()
	root := t.TempDir()
	p := &procTree{t: t, root: root, probe: jvmProbe{proc: filepath.Join(root, "proc"), tmp: filepath.Join(root, "tmp")}}
	p.pidDir = filepath.Join(p.probe.proc, strconv.Itoa(procPID))
	const startTicks = 123456 // 1234.56 s after boot
	p.startedAt = procBoot.Add(startTicks * time.Second / userHZ)
	p.write("proc/stat", "cpu  1 2 3 4\nbtime "+strconv.FormatInt(procBoot.Unix(), 10)+"\nprocesses 99\n")
	// A command name with a space and a parenthesis, as a process may
	// name itself: the fields are counted after the last ')'.
	fields := []string{"S", "1", "4242", "4242", "0", "-1", "4194560", "100", "0", "0", "0", "5", "3", "0", "0", "20", "0", "12", "0", strconv.Itoa(startTicks), "123"}
	p.write("proc/4242/stat", "4242 (a (b) c) "+strings.Join(fields, " ")+"\n")
	p.status("sleep", "S (sleeping)", os.Geteuid(), "4242")
	return p
}

func (p *procTree) write(rel, content string) string {
	p.t.Helper()
	path := filepath.Join(p.root, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
	return path
}

func (p *procTree) status(name, state string, euid int, nspid string) {
	p.write("proc/4242/status", "Name:\t"+name+"\nUmask:\t0022\nState:\t"+state+"\nTgid:\t4242\n"+
		"Uid:\t"+strconv.Itoa(euid)+"\t"+strconv.Itoa(euid)+"\t"+strconv.Itoa(euid)+"\t"+strconv.Itoa(euid)+"\nNSpid:\t"+nspid+"\n")
}

// perfData writes an hsperfdata file at rel, last written at mod.
func (p *procTree) perfData(rel string, mod time.Time) {
	p.t.Helper()
	path := p.write(rel, "\xca\xfe\xc0\xc0")
	if err := os.Chtimes(path, mod, mod); err != nil {
		p.t.Fatal(err)
	}
}

// Each sign alone proves a JVM, and a sign that could be another's (a
// stale hsperfdata file, one of another user, a launcher named like java)
// does not; what cannot be proven is refused with what to check.
func TestProveJVM(t *testing.T) {
	t.Parallel()
	libjvm := "7f0000000000-7f0000100000 r-xp 00000000 fe:00 42 /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so\n"
	libc := "7f0000000000-7f0000100000 r-xp 00000000 fe:00 43 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
	unproven := []string{"pid 4242 (sleep, uid " + strconv.Itoa(os.Geteuid()) + ") not attached: nothing shows it is a JVM",
		"its memory map is unreadable", "the attach sends SIGQUIT", "ps -o user,args -p 4242", "force-attach"}
	tests := []struct {
		name  string
		setup func(p *procTree)
		force bool
		want  []string // substrings of the error; none: proven
	}{
		{"libjvm mapped", func(p *procTree) { p.write("proc/4242/maps", libc+libjvm) }, false, nil},
		{"maps without libjvm", func(p *procTree) { p.write("proc/4242/maps", libc) }, false,
			[]string{"pid 4242 (sleep) is not a JVM: no libjvm loaded"}},
		{"maps without libjvm, forced", func(p *procTree) { p.write("proc/4242/maps", libc) }, true, nil},
		{"empty maps", func(p *procTree) { p.write("proc/4242/maps", "") }, false,
			[]string{"pid 4242 (sleep) has no memory map: it has exited, or is a kernel thread"}},
		{"zombie", func(p *procTree) { p.status("java", "Z (zombie)", os.Geteuid(), "4242") }, true,
			[]string{"pid 4242 (java) has exited"}},
		{"no such pid", func(p *procTree) { os.RemoveAll(p.pidDir) }, false, []string{"no process with pid 4242 (it has exited?)"}},
		{"no such pid, forced", func(p *procTree) { os.RemoveAll(p.pidDir) }, true, nil},
		{"nothing readable", func(p *procTree) {}, false, append(unproven, "its command line is unreadable")},
		{"nothing readable, forced", func(p *procTree) {}, true, nil},
		{"hsperfdata of its user since it started", func(p *procTree) {
			p.perfData("tmp/hsperfdata_app/4242", p.startedAt.Add(20*time.Millisecond))
		}, false, nil},
		{"hsperfdata within btime's second", func(p *procTree) {
			p.perfData("tmp/hsperfdata_app/4242", p.startedAt.Add(-900*time.Millisecond))
		}, false, nil},
		{"stale hsperfdata of an earlier process", func(p *procTree) {
			p.perfData("tmp/hsperfdata_app/4242", p.startedAt.Add(-time.Hour))
		}, false, unproven},
		{"hsperfdata of another user", func(p *procTree) {
			p.perfData("tmp/hsperfdata_app/4242", p.startedAt.Add(time.Second))
			p.status("sleep", "S (sleeping)", os.Geteuid()+1, "4242")
		}, false, []string{"not attached: nothing shows it is a JVM"}},
		{"hsperfdata of another pid", func(p *procTree) {
			p.perfData("tmp/hsperfdata_app/42420", p.startedAt.Add(time.Second))
		}, false, unproven},
		{"hsperfdata in its container's /tmp under its pid there", func(p *procTree) {
			p.status("java", "S (sleeping)", os.Geteuid(), "4242\t1")
			p.perfData("proc/4242/root/tmp/hsperfdata_app/1", p.startedAt.Add(time.Second))
		}, false, nil},
		{"hsperfdata in its container's /tmp under our pid", func(p *procTree) {
			p.status("sleep", "S (sleeping)", os.Geteuid(), "4242\t1")
			p.perfData("proc/4242/root/tmp/hsperfdata_app/4242", p.startedAt.Add(time.Second))
		}, false, unproven},
		{"exe is java", func(p *procTree) {
			os.Symlink("/usr/lib/jvm/java-17-openjdk-amd64/bin/java", filepath.Join(p.pidDir, "exe"))
		}, false, nil},
		{"exe is sleep", func(p *procTree) {
			os.Symlink("/usr/bin/sleep", filepath.Join(p.pidDir, "exe"))
		}, false, append(unproven, "its command line is unreadable")},
		{"command line is java", func(p *procTree) {
			p.write("proc/4242/cmdline", "java\x00-Xmx64m\x00-jar\x00app.jar\x00")
		}, false, nil},
		{"command line is a path to java", func(p *procTree) {
			p.write("proc/4242/cmdline", "/opt/jdk/bin/java\x00Main\x00")
		}, false, nil},
		{"command line is sleep", func(p *procTree) { p.write("proc/4242/cmdline", "sleep\x0030\x00") }, false,
			append(unproven, `its command "sleep" is no java launcher`)},
		{"command line names java later", func(p *procTree) { p.write("proc/4242/cmdline", "sh\x00-c\x00java -jar app.jar\x00") }, false,
			append(unproven, `its command "sh" is no java launcher`)},
		{"command line is javac", func(p *procTree) { p.write("proc/4242/cmdline", "/opt/jdk/bin/javac\x00X.java\x00") }, false, unproven},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := newProcTree(t)
			tt.setup(p)
			err := p.probe.prove(procPID, tt.force)
			switch {
			case len(tt.want) == 0 && err != nil:
				t.Errorf("prove: %v, want proven", err)
			case len(tt.want) > 0 && err == nil:
				t.Errorf("prove: proven, want %q", tt.want)
			case len(tt.want) > 0 && !containsAll(err.Error(), tt.want...):
				t.Errorf("prove: %v\nwant %q", err, tt.want)
			}
		})
	}
}

// Without a proc file system (outside Linux) only an hsperfdata file shows
// a JVM.
func TestProveJVMWithoutProc(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	probe := jvmProbe{tmp: tmp}
	err := probe.prove(procPID, false)
	if err == nil || !containsAll(err.Error(), "pid 4242 not attached: nothing shows it is a JVM", "no hsperfdata file of it in "+filepath.Join(tmp, "hsperfdata_*"), "force-attach") {
		t.Errorf("prove without a sign: %v", err)
	}
	if err := probe.prove(procPID, true); err != nil {
		t.Errorf("forced: %v", err)
	}
	os.MkdirAll(filepath.Join(tmp, "hsperfdata_app"), 0o755)
	os.WriteFile(filepath.Join(tmp, "hsperfdata_app", "4242"), nil, 0o600)
	if err := probe.prove(procPID, false); err != nil {
		t.Errorf("prove with an hsperfdata file: %v", err)
	}
}

// The host's own processes: this test process is no JVM (its maps are
// readable: refused for what they show), and a real JVM is one.
func TestProveJVMHost(t *testing.T) {
	t.Parallel()
	err := hostProbe().prove(os.Getpid(), false)
	if err == nil || !strings.Contains(err.Error(), "is not a JVM: no libjvm loaded") {
		t.Errorf("this test process: %v, want not a JVM", err)
	}
	pid := startJVM(t)
	if err := hostProbe().prove(pid, false); err != nil {
		t.Errorf("a real JVM: %v", err)
	}
}
