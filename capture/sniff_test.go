package capture

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckGoroutineText(t *testing.T) {
	t.Parallel()
	real, err := os.ReadFile(writeProfile(t, 2))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		body []byte
		want string // error substring; empty: accepted
	}{
		{"real dump", real, ""},
		{"empty", nil, "empty body"},
		{"html", []byte("<html>\n"), `not a goroutine dump: body starts with "<html>"`},
		{"debug=1 text", []byte("goroutine profile: total 4\n"), "not a goroutine dump"},
		{"cut mid-line", real[:len(real)-2], "is not complete"},
		{"cut after created-by", real[:bytes.LastIndex(real, []byte("\n\t"))+1], "not a frame's file line"},
		{"running elsewhere", []byte("goroutine 7 [running]:\n\tgoroutine running on other thread; stack unavailable\n"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tail := tt.body[max(0, len(tt.body)-tailBytes):]
			err := checkGoroutineText(tt.body[:min(len(tt.body), headBytes)], tail, int64(len(tt.body)))
			checkErr(t, err, tt.want)
		})
	}
}

func TestDetectCommandOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("x"))
	zw.Close()
	jvm := "1234:\n2026-11-29 17:27:51\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode, sharing):\n\n\"main\" #1 prio=5\n\nJNI global refs: 4, weak refs: 0\n\n"
	tests := []struct {
		name string
		body string
		kind FileKind
		want string
	}{
		{"jvm", jvm, FileJVM, ""},
		{"jvm cut", jvm[:60], FileJVM, "truncated JVM thread dump"},
		{"gzip", gz.String(), FileGoroutineProto, ""},
		{"gzip cut", gz.String()[:gz.Len()-4], FileGoroutineProto, "truncated or corrupt gzipped profile"},
		{"panic log", "panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/x/main.go:5 +0x1d\nexit status 2\n", FileGoroutine, ""},
		{"goroutine word only", "the goroutine 12 is fine\n", FileUnknown, "not a goroutine or JVM thread dump"},
		{"empty", "", FileUnknown, "no output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_"))
			if err := os.WriteFile(path, []byte(tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			b := []byte(tt.body)
			kind, err := detectCommandOutput(b[:min(len(b), headBytes)], b[max(0, len(b)-tailBytes):], int64(len(b)), path)
			if kind != tt.kind {
				t.Errorf("kind %s, want %s", kind, tt.kind)
			}
			checkErr(t, err, tt.want)
		})
	}
}

func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("error %v, want none", err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("error %v, want %q", err, want)
	}
}
