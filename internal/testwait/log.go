package testwait

import (
	"strings"
	"sync"
)

// Log is a writer (a command's stderr, a Config.Log) that a test waits on:
// Seen is closed once what was written holds the text given to NewLog, so
// the test waits for the event, not for a clock.
type Log struct {
	mu   sync.Mutex
	b    strings.Builder
	want string
	seen chan struct{}
}

// NewLog returns a Log whose Seen closes when want has been written.
func NewLog(want string) *Log { return &Log{want: want, seen: make(chan struct{})} }

// Seen is closed once the log holds want.
func (l *Log) Seen() <-chan struct{} { return l.seen }

func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	had := strings.Contains(l.b.String(), l.want)
	l.b.Write(p)
	if !had && strings.Contains(l.b.String(), l.want) {
		close(l.seen)
	}
	return len(p), nil
}

// String is everything written so far.
func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
