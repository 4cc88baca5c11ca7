package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// minJSONDump is the first Java feature release whose
// `jcmd PID Thread.dump_to_file -format=json FILE` lists virtual threads as
// a stable feature (JDK 21, JEP 444; JDK 19 and 20 had virtual threads as a
// preview). Thread.print and jstack list platform threads only: on a
// service whose requests run on virtual threads (Spring Boot 3.2+ with
// spring.threads.virtual.enabled) they show the carriers and the JVM's own
// threads, and hide every request.
const minJSONDump = 21

// targetTmp is where the target writes its JSON dump: its own /tmp, which
// a JVM's attach mechanism needs anyway (HotSpot's attach files live
// there on Linux). Read back through /proc/PID/root, the target's own view
// of the filesystem (another mount namespace for a JVM in a container).
const targetTmp = "/tmp"

// javaVersion is the target JVM's feature version (17, 21, 25), read from
// the target itself, not from the local jcmd (a JDK 17 jcmd attaches to a
// JDK 25 JVM): first its hsperfdata counters
// (java.property.java.vm.specification.version, read without attaching),
// else `jcmd PID VM.version` ("JDK 25.0.3"). 0 when neither tells.
func (r *runner) javaVersion(ctx context.Context, pid int) int {
	if path, err := hsperfFile(pid); err == nil {
		if b, err := os.ReadFile(path); err == nil {
			if v, err := perfString(b, "java.property.java.vm.specification.version"); err == nil {
				if n := featureVersion(v); n > 0 {
					return n
				}
			}
		}
	}
	out, err := runSmall(ctx, r.plan.Timeout, []string{"jcmd", strconv.Itoa(pid), "VM.version"})
	if err != nil {
		return 0
	}
	// 4242:
	// OpenJDK 64-Bit Server VM version 25.0.3+9-LTS
	// JDK 25.0.3
	for line := range strings.Lines(out) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "JDK "); ok {
			return featureVersion(v)
		}
	}
	return 0
}

// featureVersion reads "25", "25.0.3", "21-ea" or "1.8" as 25, 25, 21, 8.
func featureVersion(v string) int {
	v = strings.TrimPrefix(strings.TrimSpace(v), "1.")
	end := 0
	for end < len(v) && isDigit(v[end]) {
		end++
	}
	n, _ := strconv.Atoi(v[:end])
	return n
}

// jsonDump has the target write a JSON thread dump (every thread, virtual
// ones included, under its thread container) into its own /tmp, reads it
// back into a new atomic file in the out folder, and removes it. The name
// is new (this process's pid, the target's, a clock), and the JVM refuses
// a file that exists (dump_to_file without -overwrite), so no file capture
// did not create is ever overwritten or removed.
func (r *runner) jsonDump(ctx context.Context, pid int) (*atomicFile, error) {
	name := fmt.Sprintf("dumpdiff-%d-%d-%d.json", os.Getpid(), pid, time.Now().UnixNano())
	inTarget := targetTmp + "/" + name
	out, err := runSmall(ctx, r.plan.Timeout, []string{"jcmd", strconv.Itoa(pid), "Thread.dump_to_file", "-format=json", inTarget})
	if err != nil {
		return nil, fmt.Errorf("jcmd Thread.dump_to_file: %w", err)
	}
	// jcmd exits 0 after printing the target's error: "Created ..." is
	// the target's word that it wrote the file.
	if !strings.Contains(out, "Created ") {
		return nil, fmt.Errorf("jcmd Thread.dump_to_file: %s", lastLineOf(out))
	}
	path, err := targetFile(pid, inTarget)
	if err != nil {
		return nil, err
	}
	defer os.Remove(path) // ours: created under a new name by the target for us
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	af, err := createAtomic(r.plan.OutDir, r.plan.MaxBytes)
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(af, f); err != nil {
		af.discard()
		if af.over {
			return nil, fmt.Errorf("JSON thread dump %w of %d bytes", errTooLarge, r.plan.MaxBytes)
		}
		return nil, err
	}
	if err := checkJVMJSON(af.head, af.lastBytes(), af.n); err != nil {
		af.discard()
		return nil, err
	}
	return af, nil
}

// targetFile is where this process reads a file the target wrote at
// inTarget: through /proc/PID/root (the target's root, which is ours for a
// process in the same mount namespace), else inTarget itself. It must be
// a regular file, not a link someone put there.
func targetFile(pid int, inTarget string) (string, error) {
	for _, p := range []string{filepath.Join("/proc", strconv.Itoa(pid), "root", inTarget), inTarget} {
		st, err := os.Lstat(p)
		if err != nil {
			continue
		}
		if !st.Mode().IsRegular() {
			return "", fmt.Errorf("%s is not a regular file: not read, not removed", inTarget)
		}
		return p, nil
	}
	return "", fmt.Errorf("the target wrote %s but it cannot be found from here (through /proc/%d/root or directly)", inTarget, pid)
}

// checkJVMJSON: dump_to_file -format=json writes
//
//	{
//	  "threadDump": {
//	    "processId": "30146", "time": "...", "runtimeVersion": "25.0.3+9-LTS",
//	    "threadContainers": [ ... ]
//	  }
//	}
func checkJVMJSON(head, tail []byte, size int64) error {
	if size == 0 {
		return errEmpty
	}
	h := bytes.TrimLeft(head, " \t\r\n")
	if !bytes.HasPrefix(h, []byte("{")) || !bytes.Contains(h, []byte(`"threadDump"`)) {
		return fmt.Errorf("not a JSON thread dump: starts with %s", quoteStart(head))
	}
	if t := bytes.TrimRight(tail, " \t\r\n"); len(t) == 0 || t[len(t)-1] != '}' {
		return fmt.Errorf("truncated JSON thread dump: ends with %s", quoteLastLine(tail))
	}
	return nil
}

// ownableJSONWaiters counts the threads of a JSON dump parked on an
// ownable java.util.concurrent lock whose owner the dump does not name
// (JDK 21-25 print the blocker without its owner):
//
//	"parkBlocker": {
//	  "object": "java.util.concurrent.locks.ReentrantLock$NonfairSync@ea7d7e5"
//	},
//
// One pass over the file, no JSON decoding.
func ownableJSONWaiters(path string) (int, error) {
	n, inBlocker, counted := 0, false, false
	err := eachLine(path, func(line []byte) {
		line = bytes.TrimSpace(line)
		switch {
		case bytes.HasPrefix(line, []byte(`"parkBlocker": {`)):
			inBlocker, counted = true, false
		case inBlocker && bytes.HasPrefix(line, []byte(`"object": "`)):
			for _, l := range ownableJSONLocks {
				if bytes.Contains(line, l) {
					n++
					counted = true
					break
				}
			}
		case inBlocker && bytes.HasPrefix(line, []byte(`"owner": `)):
			if counted { // a JDK that names the owner: nothing to find
				n--
				counted = false
			}
		case inBlocker && bytes.HasPrefix(line, []byte("}")):
			inBlocker = false
		}
	})
	return n, err
}

// ownableJSONLocks are ownableLocks as a JSON dump names them (class@hash).
var ownableJSONLocks = [][]byte{
	[]byte(`"java.util.concurrent.locks.ReentrantLock$`),
	[]byte(`"java.util.concurrent.locks.ReentrantReadWriteLock$`),
	[]byte(`"java.util.concurrent.ThreadPoolExecutor$Worker@`),
}

// runSmall runs a JDK tool whose output is a few lines and returns its
// stdout and stderr (the last 8 KiB), in its own process group, killed on
// timeout or cancel.
func runSmall(ctx context.Context, timeout time.Duration, argv []string) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, argv[0], argv[1:]...)
	out := &tailBuffer{max: 8 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	KillGroupOnCancel(cmd)
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		return "", context.Cause(ctx)
	case cctx.Err() != nil:
		return "", fmt.Errorf("timed out after %v", timeout)
	case errors.Is(err, exec.ErrNotFound):
		return "", err
	case err != nil:
		return "", fmt.Errorf("%v: %s", err, lastLineOf(out.String()))
	}
	return out.String(), nil
}
