package parse

import (
	"bufio"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// Text encodings other than plain UTF-8, as Windows tools and editors save
// dumps:
//
//	EF BB BF    UTF-8 with a byte order mark (Notepad, PowerShell 7 Out-File -Encoding utf8BOM)
//	FF FE       UTF-16LE with a BOM (Windows PowerShell 5.1 `jstack 1234 > dump.txt`)
//	FE FF       UTF-16BE with a BOM
//	x 00 x 00   UTF-16LE without a BOM; 00 x 00 x: UTF-16BE (ASCII text, told by
//	            its NUL bytes: UTF-8 text never holds NUL at every other byte)
//
// The BOM is dropped and UTF-16 is transcoded to UTF-8 as it streams, so
// every format after it sees UTF-8.

// Encoding names of decodeText, for error messages and tests.
const (
	encUTF8    = "utf-8"
	encUTF8BOM = "utf-8 with BOM"
	encUTF16LE = "utf-16le"
	encUTF16BE = "utf-16be"
)

// decodeText returns a reader of br's content as UTF-8 and the encoding
// it found.
func decodeText(br *bufio.Reader) (*bufio.Reader, string) {
	head, _ := br.Peek(8)
	switch {
	case len(head) >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF:
		br.Discard(3)
		return br, encUTF8BOM
	case len(head) >= 2 && head[0] == 0xFF && head[1] == 0xFE:
		br.Discard(2)
		return bufio.NewReaderSize(&utf16Reader{r: br}, 1<<20), encUTF16LE
	case len(head) >= 2 && head[0] == 0xFE && head[1] == 0xFF:
		br.Discard(2)
		return bufio.NewReaderSize(&utf16Reader{r: br, big: true}, 1<<20), encUTF16BE
	case len(head) == 8 && isASCIIUTF16(head, 0):
		return bufio.NewReaderSize(&utf16Reader{r: br}, 1<<20), encUTF16LE
	case len(head) == 8 && isASCIIUTF16(head, 1):
		return bufio.NewReaderSize(&utf16Reader{r: br, big: true}, 1<<20), encUTF16BE
	}
	return br, encUTF8
}

// isASCIIUTF16 reports whether head is printable ASCII in UTF-16 whose
// low byte is at index lo of each pair.
func isASCIIUTF16(head []byte, lo int) bool {
	for i := 0; i+1 < len(head); i += 2 {
		c, z := head[i+lo], head[i+1-lo]
		if z != 0 || c == 0 || c >= 0x80 || c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			return false
		}
	}
	return true
}

// utf16Reader transcodes UTF-16 to UTF-8. An unpaired surrogate becomes
// U+FFFD, as does an odd byte at the end of the input.
//
// Cost: one pass over 32 KiB blocks, no allocation after the first.
type utf16Reader struct {
	r    io.Reader
	big  bool
	in   []byte // input block; the odd byte of a unit split across reads is kept at its start
	keep int    // bytes kept at the start of in from the last read
	out  []byte // transcoded bytes not yet returned
	obuf []byte // backing array of out
	hi   rune   // a high surrogate waiting for its pair; 0 if none
	err  error
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.err != nil {
			return 0, u.err
		}
		u.fill()
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}

// fill reads one block and transcodes it into u.out.
func (u *utf16Reader) fill() {
	if u.in == nil {
		u.in = make([]byte, 32<<10)
	}
	n, err := u.r.Read(u.in[u.keep:])
	n += u.keep
	if u.obuf == nil {
		u.obuf = make([]byte, 0, 3*len(u.in)/2+8)
	}
	buf := u.obuf[:0]
	i := 0
	for ; i+1 < n; i += 2 {
		var c rune
		if u.big {
			c = rune(u.in[i])<<8 | rune(u.in[i+1])
		} else {
			c = rune(u.in[i+1])<<8 | rune(u.in[i])
		}
		switch {
		case u.hi != 0 && c >= 0xDC00 && c <= 0xDFFF:
			buf = utf8.AppendRune(buf, utf16.DecodeRune(u.hi, c))
			u.hi = 0
			continue
		case u.hi != 0:
			buf = utf8.AppendRune(buf, utf8.RuneError)
			u.hi = 0
		}
		switch {
		case c >= 0xD800 && c <= 0xDBFF:
			u.hi = c
		case c >= 0xDC00 && c <= 0xDFFF:
			buf = utf8.AppendRune(buf, utf8.RuneError)
		case c < utf8.RuneSelf:
			buf = append(buf, byte(c))
		default:
			buf = utf8.AppendRune(buf, c)
		}
	}
	u.keep = copy(u.in, u.in[i:n])
	if err != nil {
		if u.keep > 0 || u.hi != 0 {
			buf = utf8.AppendRune(buf, utf8.RuneError)
			u.keep, u.hi = 0, 0
		}
		u.err = err
	}
	u.obuf = buf
	u.out = buf
}
