package capture

import (
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
	if size == 0 {
		return errEmpty
	}
	h := bytes.TrimLeft(head, " \t\r\n")
	if !bytes.HasPrefix(h, goHeader) || len(h) <= len(goHeader) || !isDigit(h[len(goHeader)]) {
		return fmt.Errorf("not a goroutine dump: body starts with %s", quoteStart(head))
	}
	if !bytes.HasSuffix(tail, []byte("\n")) {
		return fmt.Errorf("truncated goroutine dump: last line %s is not complete", quoteLastLine(tail))
	}
	if last := lastLine(tail); !bytes.HasPrefix(last, []byte("\t")) {
		return fmt.Errorf("truncated goroutine dump: ends with %s, not a frame's file line", quoteLastLine(tail))
	}
	return nil
}

// checkGzipFile: a debug=0 body is a gzipped profile.proto. Reading it to the
// end verifies gzip's CRC and length; profiles are small (labels, no text).
func checkGzipFile(head []byte, path string) error {
	if len(head) == 0 {
		return errEmpty
	}
	if !bytes.HasPrefix(head, gzipMagic) {
		return fmt.Errorf("not a gzipped profile: body starts with %s", quoteStart(head))
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
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return fmt.Errorf("truncated or corrupt gzipped profile: %v", err)
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
