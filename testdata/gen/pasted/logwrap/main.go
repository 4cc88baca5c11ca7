// Command logwrap runs a program the way a container runtime runs it and writes its output as
// log collectors store it, each line stamped with the time logwrap read it:
//
//	NAME.docker.log    docker's json-file log driver: {"log":"...\n","stream":"stderr","time":"..."},
//	                   written as moby's jsonlog.JSONLogs does (its escaping: \u0009 for a TAB,
//	                   \u003c for '<'; lines cut into 16 KiB pieces, all but the last without "\n")
//	NAME.cri.log       the CRI log file containerd and CRI-O write (/var/log/pods/...):
//	                   "TIME STREAM F|P TEXT", 16 KiB pieces tagged P
//	NAME.kubectl.log   what `kubectl logs --timestamps` prints of it: "TIME TEXT", both streams
//	NAME.stdout.txt    the program's stdout as it wrote it
//	NAME.stderr.txt    its stderr
//
// These are the documented shapes written by hand: no docker daemon or kubelet runs here. Times
// are RFC 3339 with nanoseconds in UTC, as both write them.
//
// When the program prints the line -ready on stdout, logwrap waits -delay, sends it -signal
// (QUIT: a Go program prints its goroutines and exits, a JVM prints a thread dump), waits
// -stop more and then ends it with SIGTERM if it still runs.
//
// Usage: logwrap -out DIR -name NAME [-ready ready] [-signal QUIT] [-delay 200ms] [-stop 1s] -- CMD ARGS...
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
)

// pieceMax is the size docker and containerd cut long lines at.
const pieceMax = 16 << 10

func main() {
	out := flag.String("out", ".", "output folder")
	name := flag.String("name", "app", "output file name prefix")
	ready := flag.String("ready", "ready", "stdout line after which the signal is sent")
	sig := flag.String("signal", "QUIT", "signal to send: QUIT")
	delay := flag.Duration("delay", 200*time.Millisecond, "wait after the ready line before the signal")
	stop := flag.Duration("stop", time.Second, "wait after the signal before SIGTERM")
	flag.Parse()
	if flag.NArg() == 0 || *sig != "QUIT" {
		log.Fatal("usage: logwrap -out DIR -name NAME [-signal QUIT] -- CMD ARGS...")
	}
	w, err := newWriters(filepath.Join(*out, *name))
	if err != nil {
		log.Fatal(err)
	}
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	readyCh := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); w.copy("stdout", stdout, []byte(*ready), readyCh) }()
	go func() { defer wg.Done(); w.copy("stderr", stderr, nil, nil) }()
	done := make(chan error, 1)
	go func() { wg.Wait(); done <- cmd.Wait() }()
	select {
	case <-readyCh:
	case err := <-done:
		log.Fatalf("%s ended before %q: %v", flag.Arg(0), *ready, err)
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		log.Fatalf("%s never printed %q", flag.Arg(0), *ready)
	}
	time.Sleep(*delay)
	cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case err := <-done:
		report(err)
	case <-time.After(*stop):
		cmd.Process.Signal(syscall.SIGTERM)
		report(<-done)
	}
	if err := w.close(); err != nil {
		log.Fatal(err)
	}
}

func report(err error) {
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		log.Fatal(err)
	}
	if ee != nil {
		fmt.Fprintf(os.Stderr, "logwrap: program ended: %v\n", ee)
	}
}

// writers are the output files; one mutex orders the lines of both streams.
type writers struct {
	mu                   sync.Mutex
	docker, cri, kubectl *bufio.Writer
	raw                  map[string]*bufio.Writer
	files                []*os.File
}

func newWriters(prefix string) (*writers, error) {
	w := &writers{raw: map[string]*bufio.Writer{}}
	open := func(suffix string) (*bufio.Writer, error) {
		f, err := os.Create(prefix + suffix)
		if err != nil {
			return nil, err
		}
		w.files = append(w.files, f)
		return bufio.NewWriter(f), nil
	}
	var err error
	for _, p := range []struct {
		dst    **bufio.Writer
		suffix string
	}{{&w.docker, ".docker.log"}, {&w.cri, ".cri.log"}, {&w.kubectl, ".kubectl.log"}} {
		if *p.dst, err = open(p.suffix); err != nil {
			return nil, err
		}
	}
	for _, s := range []string{"stdout", "stderr"} {
		if w.raw[s], err = open("." + s + ".txt"); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// copy reads one stream in pieces of at most pieceMax bytes and writes each piece to every
// output as it arrives. A line equal to ready closes readyCh once.
func (w *writers) copy(stream string, r io.Reader, ready []byte, readyCh chan struct{}) {
	br := bufio.NewReaderSize(r, pieceMax)
	var line []byte // the whole line, for kubectl and the ready check
	for {
		piece, err := br.ReadSlice('\n')
		if len(piece) > 0 {
			now := time.Now().UTC()
			full := piece[len(piece)-1] == '\n'
			w.mu.Lock()
			w.raw[stream].Write(piece)
			w.writeDocker(stream, piece, now)
			w.writeCRI(stream, piece, full, now)
			line = append(line, piece...)
			if full {
				fmt.Fprintf(w.kubectl, "%s %s", now.Format(time.RFC3339Nano), line)
				if readyCh != nil && bytes.Equal(bytes.TrimRight(line, "\r\n"), ready) {
					close(readyCh)
					readyCh = nil
				}
				line = line[:0]
			}
			w.mu.Unlock()
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if len(line) > 0 { // a last line without "\n"
				w.mu.Lock()
				fmt.Fprintf(w.kubectl, "%s %s\n", time.Now().UTC().Format(time.RFC3339Nano), line)
				w.mu.Unlock()
			}
			return
		}
	}
}

func (w *writers) writeCRI(stream string, piece []byte, full bool, now time.Time) {
	tag := "P"
	if full {
		tag = "F"
		piece = piece[:len(piece)-1]
	}
	fmt.Fprintf(w.cri, "%s %s %s %s\n", now.Format(time.RFC3339Nano), stream, tag, piece)
}

func (w *writers) writeDocker(stream string, piece []byte, now time.Time) {
	b := w.docker
	b.WriteString(`{"log":`)
	writeJSONString(b, piece)
	b.WriteString(`,"stream":`)
	writeJSONString(b, []byte(stream))
	b.WriteString(`,"time":"`)
	b.WriteString(now.Format(time.RFC3339Nano))
	b.WriteString("\"}\n")
}

// writeJSONString escapes s as moby's jsonlog does.
func writeJSONString(b *bufio.Writer, s []byte) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\\' || c == '"':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xF])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			b.WriteString(`\u202`)
			b.WriteByte(hex[r&0xF])
		default:
			b.Write(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}

func (w *writers) close() error {
	var first error
	for _, b := range append([]*bufio.Writer{w.docker, w.cri, w.kubectl}, w.raw["stdout"], w.raw["stderr"]) {
		if err := b.Flush(); err != nil && first == nil {
			first = err
		}
	}
	for _, f := range w.files {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
