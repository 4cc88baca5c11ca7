package report

import (
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

func TestShortFunc(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"java method", "sun.nio.ch.Net.poll", "Net.poll"},
		{"java inner class", "java.util.concurrent.ThreadPoolExecutor$Worker.run", "ThreadPoolExecutor$Worker.run"},
		{"java lambda", "com.example.App.lambda$main$0", "App.lambda$main$0"},
		{"class and method only", "Foo.bar", "Foo.bar"},
		{"go with import path", "net/http.(*conn).serve", "http.(*conn).serve"},
		{"go internal", "internal/poll.runtime_pollWait", "poll.runtime_pollWait"},
		{"go std method", "sync.(*Mutex).Lock", "sync.(*Mutex).Lock"},
		{"go func", "runtime.gopark", "runtime.gopark"},
		{"go module path with dots", "github.com/jackc/pgx/v5/pgxpool.(*Pool).Acquire", "pgxpool.(*Pool).Acquire"},
		{"no dot", "main", "main"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ShortFunc(tt.in); got != tt.want {
				t.Errorf("ShortFunc(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestShortFrame(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"java with line", "com.example.shop.UpstreamClient.fetch(UpstreamClient.java:42)", "UpstreamClient.fetch:42"},
		{"java native", "sun.nio.ch.Net.poll(Native Method)", "Net.poll"},
		{"java module location", "java.lang.Thread.run(java.base@17/Thread.java:833)", "Thread.run:833"},
		{"bare function", "jdk.internal.misc.Unsafe.park", "Unsafe.park"},
		{"go receiver is not a location", "net/http.(*conn).serve", "http.(*conn).serve"},
		{"go with location", "main.handler(/app/main.go:42)", "main.handler:42"},
		{"go receiver and location", "net/http.(*conn).serve (/usr/lib/go/src/net/http/server.go:1995)", "http.(*conn).serve:1995"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ShortFrame(tt.in); got != tt.want {
				t.Errorf("ShortFrame(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestFrameLine(t *testing.T) {
	tests := []struct {
		name string
		f    parse.Frame
		rt   parse.Runtime
		want string
	}{
		{"jvm file", parse.Frame{Func: "java.lang.Thread.run", File: "Thread.java", Line: 833}, parse.RuntimeJVM, "java.lang.Thread.run(Thread.java:833)"},
		{"jvm native", parse.Frame{Func: "sun.nio.ch.Net.poll", Note: "Native Method"}, parse.RuntimeJVM, "sun.nio.ch.Net.poll(Native Method)"},
		{"jvm nothing", parse.Frame{Func: "a.B.c"}, parse.RuntimeJVM, "a.B.c(Unknown Source)"},
		{"go", parse.Frame{Func: "main.main", File: "/app/main.go", Line: 7}, parse.RuntimeGo, "main.main /app/main.go:7"},
		{"go no file", parse.Frame{Func: "runtime.goexit"}, parse.RuntimeGo, "runtime.goexit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := frameLine(&tt.f, tt.rt); got != tt.want {
				t.Errorf("frameLine = %q, want %q", got, tt.want)
			}
		})
	}
}
