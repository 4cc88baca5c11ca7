package parse

import (
	"errors"
	"fmt"
)

// errUnrecognized is returned by a format's claim when the input is not of
// that format; the detection chain then tries the next one.
var errUnrecognized = errors.New("unrecognized format")

// SyntaxError is a position in an input and what was wrong there.
type SyntaxError struct {
	File string
	Line int // 1-based; 0 when the error is about the whole file
	Msg  string
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// NoDumpError says that a file holds no dump dumpdiff can read. Looks, when
// not empty, names what the file looks like instead ("ibm javacore is not
// supported yet").
type NoDumpError struct {
	File  string
	Looks string
	// LongLines is the number of lines skipped for being longer than
	// MaxLine bytes; 0 if none.
	LongLines int
	MaxLine   int
}

func (e *NoDumpError) Error() string {
	msg := "expected a Go goroutine dump (debug=2, panic, SIGQUIT), a goroutine profile (debug=1 text or proto), " +
		"or a JVM thread dump (jstack, jcmd Thread.print, kill -3, jcmd JSON, Spring Boot Actuator, JFR, IBM or OpenJ9 javacore, a HotSpot heap dump)"
	if e.Looks != "" {
		msg = e.Looks
	}
	if e.LongLines > 0 {
		msg += fmt.Sprintf(" (%d line(s) longer than %s skipped unread)", e.LongLines, byteSize(int64(e.MaxLine)))
	}
	return fmt.Sprintf("%s: no dump found: %s", e.File, msg)
}
