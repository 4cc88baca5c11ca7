// Package javatest starts the real JVMs that tests capture and parse: a
// Java source compiled into the test's temporary folder and run until it
// prints "ready", stopped when the test ends. Tests only import it; the
// tests that need a JVM skip, with the reason, on a machine without one.
package javatest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// JDK is where a test's java and javac are.
type JDK struct {
	Java, Javac string
}

// OnPath is the java and javac on PATH (Java 17 on our machines); the test
// is skipped without them.
func OnPath(t testing.TB) JDK {
	t.Helper()
	javac, err := exec.LookPath("javac")
	if err != nil {
		t.Skip("javac not on PATH: this is tested against a real JVM only")
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("java not on PATH: this is tested against a real JVM only")
	}
	return JDK{Java: java, Javac: javac}
}

// JDK25Bin is the bin folder of a JDK 25: JDK25_HOME, else the Temurin 25
// installed beside Java 17; the test is skipped without one.
func JDK25Bin(t testing.TB) string {
	t.Helper()
	home := os.Getenv("JDK25_HOME")
	if home == "" {
		home = "/usr/lib/jvm/temurin-25-jdk-amd64"
	}
	bin := filepath.Join(home, "bin")
	if _, err := os.Stat(filepath.Join(bin, "java")); err != nil {
		t.Skipf("no JDK 25 at %s (set JDK25_HOME): this is tested on a real JDK 25 only", home)
	}
	return bin
}

// InBin is the java and javac of a JDK's bin folder.
func InBin(bin string) JDK {
	return JDK{Java: filepath.Join(bin, "java"), Javac: filepath.Join(bin, "javac")}
}

// readyWithin bounds the wait for "ready": a JVM that hangs before its
// main prints fails the test instead of holding it until go test's own
// timeout.
const readyWithin = 30 * time.Second

// Start compiles the Java file src (its class is the file's name) and runs
// it with the JVM options opts and the program arguments args; it returns
// the pid once the program printed "ready". Closing its stdin and killing
// it is the test's cleanup.
func (j JDK) Start(t testing.TB, src string, opts []string, args ...string) int {
	t.Helper()
	dir, class := j.Compile(t, src)
	argv := append(append(append([]string{}, opts...), "-cp", dir, class), args...)
	cmd := exec.Command(j.Java, argv...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	ready := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		ready <- line
	}()
	select {
	case line := <-ready:
		if strings.TrimSpace(line) != "ready" {
			t.Fatalf("java %s: %q before ready", class, line)
		}
	case <-time.After(readyWithin):
		t.Fatalf("java %s: not ready within %v", class, readyWithin)
	}
	return cmd.Process.Pid
}

// Compile compiles the Java file src into a temporary folder and returns
// the folder (the class path) and the class, the file's name, under the
// package the file declares (its "package a.b;" line) if any.
func (j JDK) Compile(t testing.TB, src string) (dir, class string) {
	t.Helper()
	dir = t.TempDir()
	abs, err := filepath.Abs(src)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(j.Javac, "-d", dir, abs).CombinedOutput(); err != nil {
		t.Fatalf("javac %s: %v\n%s", src, err, out)
	}
	class = strings.TrimSuffix(filepath.Base(src), ".java")
	b, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if pkg, ok := strings.CutPrefix(strings.TrimSpace(line), "package "); ok {
			return dir, strings.TrimSuffix(strings.TrimSpace(pkg), ";") + "." + class
		}
	}
	return dir, class
}

// StartSource is Start for a source held in the test: it is written to
// class.java in a temporary folder first.
func (j JDK) StartSource(t testing.TB, class, source string, opts []string, args ...string) int {
	t.Helper()
	path := filepath.Join(t.TempDir(), class+".java")
	if err := os.WriteFile(path, []byte(source), 0o644); err != nil {
		t.Fatal(err)
	}
	return j.Start(t, path, opts, args...)
}
