package parse

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"
)

func utf16Bytes(s string, big bool) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		if big {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

func TestDecodeText(t *testing.T) {
	const text = "2026-12-01 10:38:34\n\"http-nio-8080-exec-1\" café 🙂\r\n"
	tests := []struct {
		name string
		in   []byte
		enc  string
		want string
	}{
		{"utf-8", []byte(text), encUTF8, text},
		{"utf-8 bom", append([]byte{0xEF, 0xBB, 0xBF}, text...), encUTF8BOM, text},
		{"utf-16le bom", append([]byte{0xFF, 0xFE}, utf16Bytes(text, false)...), encUTF16LE, text},
		{"utf-16be bom", append([]byte{0xFE, 0xFF}, utf16Bytes(text, true)...), encUTF16BE, text},
		{"utf-16le without bom", utf16Bytes(text, false), encUTF16LE, text},
		{"utf-16be without bom", utf16Bytes(text, true), encUTF16BE, text},
		{"unpaired surrogate", append([]byte{0xFF, 0xFE}, 'a', 0, 0x00, 0xD8, 'b', 0), encUTF16LE, "a\uFFFDb"},
		{"lone low surrogate", append([]byte{0xFF, 0xFE}, 0x00, 0xDC, 'b', 0), encUTF16LE, "\uFFFDb"},
		{"odd last byte", append([]byte{0xFF, 0xFE}, 'a', 0, 'b'), encUTF16LE, "a\uFFFD"},
		{"short", []byte("ab"), encUTF8, "ab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []struct {
				name string
				r    io.Reader
			}{{"whole", bytes.NewReader(tt.in)}, {"one byte at a time", iotest.OneByteReader(bytes.NewReader(tt.in))}} {
				br, enc := decodeText(bufio.NewReader(r.r))
				got, err := io.ReadAll(br)
				if err != nil || enc != tt.enc || string(got) != tt.want {
					t.Errorf("%s: got %q, %s, %v; want %q, %s", r.name, got, enc, err, tt.want, tt.enc)
				}
			}
		})
	}
}

// TestPowerShellDump: a jstack saved by Windows PowerShell's redirect
// (UTF-16LE, BOM, CRLF) parses like the UTF-8 original.
func TestPowerShellDump(t *testing.T) {
	const dump = "2026-12-01 10:38:34\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):\n\n" +
		"\"main\" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 waiting on condition  [0x3]\n" +
		"   java.lang.Thread.State: TIMED_WAITING (sleeping)\n" +
		"\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n\nJNI global refs: 1, weak refs: 0\n"
	ps := append([]byte{0xFF, 0xFE}, utf16Bytes(strings.ReplaceAll(dump, "\n", "\r\n"), false)...)
	want, err := Parse("a.txt", strings.NewReader(dump))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse("a.txt", bytes.NewReader(ps))
	if err != nil {
		t.Fatal(err)
	}
	var w, g bytes.Buffer
	WriteCanonical(&w, want)
	WriteCanonical(&g, got)
	if w.String() != g.String() {
		t.Errorf("UTF-16LE dump:\n%s\nwant:\n%s", g.String(), w.String())
	}
}
