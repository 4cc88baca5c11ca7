package capture

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
)

// Cheap byte checks that a body is the dump it claims to be. Capture cannot
// import parse; these look only at the first headBytes and last tailBytes
// (and, for gzip, decompress once to verify the CRC, which also catches a
// cut-off stream). Each returns nil or an error saying what is wrong.

var (
	errEmpty   = errors.New("empty body")
	gzipMagic  = []byte{0x1f, 0x8b}
	goHeader   = []byte("goroutine ")
	jvmHeader  = []byte("Full thread dump")
	jvmTrailer = []byte("JNI global ref") // "JNI global refs: 4, weak refs: 0" (17+), "JNI global references: 4" (8)
)

// checkGoroutineText: a pprof debug=2 body starts with "goroutine N [" and,
// when complete, ends with a frame's file line:
//
//	goroutine 5 [running]:
//	...
//		/usr/local/go/src/net/http/server.go:698 +0xb6
func checkGoroutineText(head, tail []byte, size int64) error {
	if err := goTextStart(head); err != nil {
		return err
	}
	if !bytes.HasSuffix(tail, []byte("\n")) {
		return fmt.Errorf("truncated goroutine dump: last line %s is not complete", quoteLastLine(tail))
	}
	if last := lastLine(tail); !bytes.HasPrefix(last, []byte("\t")) {
		return fmt.Errorf("truncated goroutine dump: ends with %s, not a frame's file line", quoteLastLine(tail))
	}
	return nil
}

// goTextStart is checkGoroutineText's test of the first bytes alone, run
// before anything is written (a sniffFunc).
func goTextStart(head []byte) error {
	if len(head) == 0 {
		return errEmpty
	}
	h := bytes.TrimLeft(head, " \t\r\n")
	if !bytes.HasPrefix(h, goHeader) || len(h) <= len(goHeader) || !isDigit(h[len(goHeader)]) {
		return fmt.Errorf("not a goroutine dump: body starts with %s", quoteStart(head))
	}
	return nil
}

// traceStart tells a Go execution trace by its header ("go 1.26 trace"),
// run before anything is written (a sniffFunc).
func traceStart(head []byte) error {
	if len(head) == 0 {
		return errEmpty
	}
	if !bytes.HasPrefix(head, []byte("go 1.")) || !bytes.Contains(head[:min(len(head), 16)], []byte(" trace")) {
		return fmt.Errorf("not a Go execution trace: body starts with %s", quoteStart(head))
	}
	return nil
}

// gzipStart is checkGzipFile's test of the first bytes (a sniffFunc).
func gzipStart(head []byte) error {
	if len(head) == 0 {
		return errEmpty
	}
	if !bytes.HasPrefix(head, gzipMagic) {
		return fmt.Errorf("not a gzipped profile: body starts with %s", quoteStart(head))
	}
	return nil
}

// debug1Start is checkDebug1's test of the first bytes (a sniffFunc).
func debug1Start(head []byte) error {
	_, err := debug1Total(head)
	return err
}

// maxProfileExpansion bounds what checkGzipFile decompresses: a goroutine
// profile of a million goroutines expands to tens of MiB, so a body that
// expands past this is a gzip bomb, refused after bounded work (the same
// bound as the reader's, parse's maxExpanded).
const maxProfileExpansion = 2 << 30

// checkGzipFile: a debug=0 body is a gzipped profile.proto. Reading it to the
// end verifies gzip's CRC and length; profiles are small (labels, no text).
func checkGzipFile(head []byte, path string) error {
	if err := gzipStart(head); err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("corrupt gzipped profile: %v", err)
	}
	n, err := io.Copy(io.Discard, io.LimitReader(zr, maxProfileExpansion+1))
	if err != nil {
		return fmt.Errorf("truncated or corrupt gzipped profile: %v", err)
	}
	if n > maxProfileExpansion {
		return fmt.Errorf("gzipped profile expands past %s: not a goroutine profile", HumanBytes(maxProfileExpansion))
	}
	return nil
}

// checkJVM: jcmd prints "PID:" then the date, jstack the date, then
//
//	Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode, sharing):
//
// and a complete dump ends with "JNI global refs: 4, weak refs: 0".
func checkJVM(head, tail []byte, size int64) error {
	if size == 0 {
		return errEmpty
	}
	if !bytes.Contains(head, jvmHeader) {
		return fmt.Errorf("not a JVM thread dump: no %q near the start, which is %s", jvmHeader, quoteStart(head))
	}
	if !bytes.Contains(tail, jvmTrailer) {
		return fmt.Errorf("truncated JVM thread dump: no %q line at the end", "JNI global refs")
	}
	return nil
}

// detectCommandOutput classifies a command's stdout and checks it. Commands
// print what they like (kubectl may add lines, a log may hold a panic), so
// the Go text check is looser than for pprof: a goroutine header near the start.
func detectCommandOutput(head, tail []byte, size int64, path string) (FileKind, error) {
	switch {
	case size == 0:
		return FileUnknown, errors.New("no output")
	case bytes.HasPrefix(head, gzipMagic):
		return FileGoroutineProto, checkGzipFile(head, path)
	case bytes.Contains(head, jvmHeader):
		return FileJVM, checkJVM(head, tail, size)
	case hasGoroutineHeader(head):
		if !bytes.HasSuffix(tail, []byte("\n")) {
			return FileGoroutine, fmt.Errorf("truncated goroutine dump: last line %s is not complete", quoteLastLine(tail))
		}
		return FileGoroutine, nil
	}
	return FileUnknown, fmt.Errorf("not a goroutine or JVM thread dump: output starts with %s", quoteStart(head))
}

// hasGoroutineHeader looks for "goroutine N [" at the start of a line.
func hasGoroutineHeader(b []byte) bool {
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		rest, ok := bytes.CutPrefix(line, goHeader)
		if !ok || len(rest) == 0 || !isDigit(rest[0]) {
			continue
		}
		if i := bytes.IndexByte(rest, ' '); i > 0 && i+1 < len(rest) && rest[i+1] == '[' {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// lastLine is the last non-empty line of b, without its newline.
func lastLine(b []byte) []byte {
	b = bytes.TrimRight(b, "\r\n")
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return b[i+1:]
	}
	return b
}

// quoteStart quotes the first line (at most 60 bytes) for an error message.
func quoteStart(b []byte) string {
	b = bytes.TrimLeft(b, " \t\r\n")
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	if len(b) > 60 {
		return fmt.Sprintf("%q...", b[:60])
	}
	return fmt.Sprintf("%q", b)
}

func quoteLastLine(tail []byte) string {
	l := lastLine(tail)
	if len(l) > 60 {
		return fmt.Sprintf("...%q", l[len(l)-60:])
	}
	return fmt.Sprintf("%q", l)
}

// debug1Header starts a pprof goroutine?debug=1 body:
//
//	goroutine profile: total 100004
var debug1Header = []byte("goroutine profile: total ")

// checkDebug1 checks a goroutine?debug=1 body and returns its "total N".
func checkDebug1(head, tail []byte, size int64) (int, error) {
	n, err := debug1Total(head)
	if err != nil {
		return 0, err
	}
	if !bytes.HasSuffix(tail, []byte("\n")) {
		return 0, fmt.Errorf("truncated goroutine profile (debug=1): last line %s is not complete", quoteLastLine(tail))
	}
	return n, nil
}

// debug1Total reads the "total N" a debug=1 body starts with.
func debug1Total(head []byte) (int, error) {
	if len(head) == 0 {
		return 0, errEmpty
	}
	rest, ok := bytes.CutPrefix(head, debug1Header)
	n, digits := 0, 0
	for ok && digits < len(rest) && isDigit(rest[digits]) {
		n = n*10 + int(rest[digits]-'0')
		digits++
	}
	if !ok || digits == 0 {
		return 0, fmt.Errorf("not a goroutine profile (debug=1): body starts with %s", quoteStart(head))
	}
	return n, nil
}

// debug1Shape is what a debug=1 profile tells about the debug=2 dump of
// the same goroutines, for the pause estimate.
type debug1Shape struct {
	total  int   // "total N"
	bytes  int64 // estimated size of the debug=2 text
	frames int   // frames summed over every goroutine (runtime frames included)
	labels bool  // some goroutine carries pprof labels
}

// shapeDebug1 reads a debug=1 file once, without keeping it: records
//
//	3 @ 0x448cb1 0x48899d 0x692091 0x4912c1
//	# labels: {"route":"/api/items"}
//	#	0x692090	runtime/pprof.writeRuntimeProfile+0xb0	/usr/local/go/src/runtime/pprof/pprof.go:851
//
// give, per record, its count, its stack depth (the PCs, runtime frames
// included, which the stop-the-world walk visits but neither text prints)
// and the length of its frame lines. A debug=2 goroutine prints a header
// (~32 bytes), each frame as "func(args)\n\tfile:line +0xNN\n" (about a
// debug=1 frame line plus a few bytes of arguments), and its creator (two
// lines, ~100 bytes). One pass, no regexp.
func shapeDebug1(path string, total int) (debug1Shape, error) {
	const header, creator, argBytes = 32, 100, 8
	s := debug1Shape{total: total}
	f, err := os.Open(path)
	if err != nil {
		return s, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	count, pcs, lines, lineBytes := 0, 0, 0, 0
	flush := func() {
		if count == 0 {
			return
		}
		s.frames += count * max(pcs, lines)
		s.bytes += int64(count) * int64(header+creator+lineBytes+lines*argBytes)
		count, pcs, lines, lineBytes = 0, 0, 0, 0
	}
	first := true
	for sc.Scan() {
		line := sc.Bytes()
		if first {
			first = false
			continue // "goroutine profile: total N"
		}
		switch {
		case len(line) == 0:
			flush()
		case bytes.HasPrefix(line, []byte("# labels:")):
			s.labels = true
		case bytes.HasPrefix(line, []byte("#\t")):
			lines++
			lineBytes += len(line)
		case len(line) > 0 && isDigit(line[0]):
			flush()
			n := 0
			for _, c := range line {
				if !isDigit(c) {
					break
				}
				n = n*10 + int(c-'0')
			}
			count, pcs = n, bytes.Count(line, []byte(" 0x"))
		}
	}
	flush()
	return s, sc.Err()
}

// countGoroutines counts the goroutine headers ("goroutine N [") at the
// start of lines in a debug=2 file: how much of a cut dump was kept.
func countGoroutines(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	n, atStart := 0, true
	for {
		line, err := br.ReadSlice('\n')
		if atStart && hasGoroutineHeader(line) {
			n++
		}
		atStart = err == nil // a line longer than the buffer goes on in the next slice
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// checkActuatorJSON: Spring Boot 2 and later answer {"threads":[...]}
// (serialized java.lang.management.ThreadInfo), Boot 1.x a top-level
// array of the same objects. A complete body ends with "}" or "]".
func checkActuatorJSON(head, tail []byte, size int64) error {
	if err := actuatorStart(head); err != nil {
		return err
	}
	t := bytes.TrimRight(tail, " \t\r\n")
	if len(t) == 0 || (t[len(t)-1] != '}' && t[len(t)-1] != ']') {
		return fmt.Errorf("truncated Actuator thread dump: JSON ends with %s", quoteLastLine(tail))
	}
	return nil
}

// actuatorStart is checkActuatorJSON's test of the first bytes (a
// sniffFunc). Spring writes "threads" (Boot 2+) or "threadName" (Boot 1.x)
// first, well within headBytes.
func actuatorStart(head []byte) error {
	if len(head) == 0 {
		return errEmpty
	}
	h := bytes.TrimLeft(head, " \t\r\n\ufeff")
	switch {
	case bytes.HasPrefix(h, []byte("{")):
		if !bytes.Contains(h, []byte(`"threads"`)) {
			return fmt.Errorf("not an Actuator thread dump: a JSON object without \"threads\", starting %s", quoteStart(head))
		}
	case bytes.HasPrefix(h, []byte("[")):
		if len(bytes.TrimSpace(h)) > 2 && !bytes.Contains(h, []byte(`"threadName"`)) {
			return fmt.Errorf("not an Actuator thread dump: a JSON array without \"threadName\", starting %s", quoteStart(head))
		}
	default:
		return fmt.Errorf("not an Actuator JSON thread dump: body starts with %s", quoteStart(head))
	}
	return nil
}
