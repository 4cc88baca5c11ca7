package parse

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The HPROF record reader: big-endian numbers and ids of the dump's id
// size read from a buffer of its own over the file, with the offset of
// every byte known (for where a cut file stops) and skips that seek over
// what threads do not need when the input is a file (a byte[] of a
// megabyte is never copied) and read it away when it is a stream.
//
// The buffer is the only memory the reader holds: hprofBuf bytes, whatever
// the dump's size. A length read from the file is never trusted to size
// anything: a body is read only up to what it says and what the caller
// asked for, and skipped otherwise.

// hprofBuf is the reader's buffer: large enough that a read is rarely a
// syscall for the small records (an instance dump is 30-100 bytes), small
// against any heap dump.
const hprofBuf = 1 << 20

// errHPROFCut is a dump that ends inside a record: the JVM died, or the
// disk filled, while it wrote the file.
var errHPROFCut = errors.New("the file ends inside a record")

type hprofReader struct {
	r    io.Reader
	seek io.Seeker // nil when r is a stream
	buf  []byte
	pos  int   // next byte of buf to read
	end  int   // bytes of buf holding data
	base int64 // file offset of buf[0]
	eof  bool  // r said io.EOF
	err  error // a read error other than EOF
	id   int   // id size: 4 or 8
}

func newHPROFReader(r io.Reader) *hprofReader {
	h := &hprofReader{r: r, buf: make([]byte, hprofBuf)}
	if s, ok := r.(io.Seeker); ok {
		h.seek = s
	}
	return h
}

// offset is the file offset of the next byte.
func (h *hprofReader) offset() int64 { return h.base + int64(h.pos) }

// fill makes n bytes (n <= hprofBuf) available at pos; false at the end of
// the input (or a read error, kept in err) before n.
func (h *hprofReader) fill(n int) bool {
	if h.end-h.pos >= n {
		return true
	}
	if h.pos > 0 {
		copy(h.buf, h.buf[h.pos:h.end])
		h.base += int64(h.pos)
		h.end -= h.pos
		h.pos = 0
	}
	for h.end < n && !h.eof && h.err == nil {
		m, err := h.r.Read(h.buf[h.end:])
		h.end += m
		if err == io.EOF {
			h.eof = true
		} else if err != nil {
			h.err = err
		}
	}
	return h.end-h.pos >= n
}

// atEnd reports whether the input has no byte left.
func (h *hprofReader) atEnd() bool { return !h.fill(1) }

// cutErr is the error for an input that ends (or fails) before n more bytes.
func (h *hprofReader) cutErr() error {
	if h.err != nil {
		return h.err
	}
	return errHPROFCut
}

func (h *hprofReader) u1() (byte, error) {
	if !h.fill(1) {
		return 0, h.cutErr()
	}
	h.pos++
	return h.buf[h.pos-1], nil
}

func (h *hprofReader) u2() (uint16, error) {
	if !h.fill(2) {
		return 0, h.cutErr()
	}
	h.pos += 2
	return binary.BigEndian.Uint16(h.buf[h.pos-2:]), nil
}

func (h *hprofReader) u4() (uint32, error) {
	if !h.fill(4) {
		return 0, h.cutErr()
	}
	h.pos += 4
	return binary.BigEndian.Uint32(h.buf[h.pos-4:]), nil
}

func (h *hprofReader) u8() (uint64, error) {
	if !h.fill(8) {
		return 0, h.cutErr()
	}
	h.pos += 8
	return binary.BigEndian.Uint64(h.buf[h.pos-8:]), nil
}

// ident reads an id of the dump's id size.
func (h *hprofReader) ident() (uint64, error) {
	if h.id == 4 {
		v, err := h.u4()
		return uint64(v), err
	}
	return h.u8()
}

// bytes returns the next n bytes (n <= hprofBuf), valid until the next read.
func (h *hprofReader) bytes(n int) ([]byte, error) {
	if !h.fill(n) {
		return nil, h.cutErr()
	}
	h.pos += n
	return h.buf[h.pos-n : h.pos], nil
}

// skip passes over n bytes: from the buffer, then by seeking in a file (its
// size checked, so a length past the end is a cut, not a jump into
// nothing), else by reading them away.
func (h *hprofReader) skip(n int64) error {
	if n < 0 {
		return fmt.Errorf("negative length %d", n)
	}
	if in := int64(h.end - h.pos); n <= in {
		h.pos += int(n)
		return nil
	}
	n -= int64(h.end - h.pos)
	h.base += int64(h.end)
	h.pos, h.end = 0, 0
	if h.seek != nil && n > hprofBuf && !h.eof {
		size, err := h.seek.Seek(0, io.SeekEnd)
		if err == nil && h.base+n <= size {
			if _, err = h.seek.Seek(h.base+n, io.SeekStart); err == nil {
				h.base += n
				return nil
			}
		}
		if err == nil {
			// Past the end: read what is there, to say where it stops.
			_, err = h.seek.Seek(h.base, io.SeekStart)
		}
		if err != nil {
			h.err = err
			return err
		}
	}
	for n > 0 {
		if !h.fill(1) {
			return h.cutErr()
		}
		k := min(n, int64(h.end))
		h.pos = int(k)
		n -= k
		if n > 0 {
			h.base += int64(h.end)
			h.pos, h.end = 0, 0
		}
	}
	return nil
}
