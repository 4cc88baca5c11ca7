package parse

import "bytes"

// SAP JVM's thread dump (SAP Java Server VM, its own HotSpot; jvmmon's or
// jcmd's Thread.print, "Full thread dump SAP Java Server VM (8.1.108
// 11.0.30+000 …)") prints each thread's header on three lines, each value
// with its "[reset …]" since the last reset of the counters, and frames
// with their method signatures (read by parseFrame):
//
//	"main" #1 prio=5 os_prio=0 cpu=62.50 [reset 62.50] ms elapsed=396.66 [reset 396.66] s allocated=659712 B (644.25 KB) [reset …] defined_classes=548
//	io= file i/o: 1130204/0 B, net i/o: 0/0 B, files opened:5, socks opened:0  [reset …]
//	tid=0x0000019255649000 nid=0x81f4 / 33268 runnable   [_thread_in_native (_at_safepoint), stack(0x…,0x…)] [0x00000014bb8fe000]
//	   java.lang.Thread.State: RUNNABLE
//	\tat java.io.FileInputStream.readBytes([BII)I(Native Method)
//
// The three are read as HotSpot's one header: the first line without its
// "[reset …]" groups and with each value's unit joined to it ("cpu=62.50ms",
// "elapsed=396.66s", "allocated=659712B" without its "(644.25 KB)"), the
// io= line passed over, the third without the
// decimal nid after " / " and without the thread's VM state and stack
// range in brackets. Read from a real dump (parttimenerd/jthreaddump's
// test resources, SAP JVM 8.1.108 on Windows; testdata/formats/README.md).
//
// States: from: a first line (isSAPHeadStart) held in sapHead; to: its io=
// line (passed over), its tid= line (the joined header, read as any
// header), any other line (the held line read as it was: foreign).

// isSAPHeadStart reports the first line of SAP JVM's header: a quoted
// name with HotSpot's fields up to elapsed= and a "[reset " value, and no
// tid= (which its third line holds).
func isSAPHeadStart(t []byte) bool {
	return len(t) > 0 && t[0] == '"' && bytes.Contains(t, []byte(" [reset ")) &&
		bytes.Contains(t, []byte("elapsed=")) && !bytes.Contains(t, []byte("tid="))
}

// sapHeader takes line t of a SAP header: it holds a first line (nil,
// true), passes over its io= line (nil, true) and gives the joined header
// at its tid= line (header, true). A held first line followed by any other
// line is given back to the scanner as it was, then t is read (false).
func (s *jstackScanner) sapHeader(t []byte) ([]byte, bool) {
	switch {
	case s.sapHead == nil:
		s.sapHead = append([]byte(nil), t...)
		return nil, true
	case bytes.HasPrefix(t, []byte("io= ")):
		return nil, true
	case bytes.HasPrefix(t, []byte("tid=")):
		h := sapJoin(s.sapHead, t)
		s.sapHead = nil
		return h, true
	}
	held := s.sapHead
	s.sapHead = nil
	s.foreign(held)
	return nil, false
}

// sapJoin makes HotSpot's one-line header of SAP's first and third lines.
func sapJoin(first, tidLine []byte) []byte {
	var out []byte
	// The first line: "[reset …]" groups dropped, a unit word joined to
	// the value before it.
	rest := first
	for len(rest) > 0 {
		i := bytes.Index(rest, []byte(" [reset "))
		if i < 0 {
			out = append(out, rest...)
			break
		}
		out = append(out, rest[:i]...)
		j := bytes.IndexByte(rest[i:], ']')
		if j < 0 {
			break
		}
		rest = rest[i+j+1:]
	}
	out = bytes.ReplaceAll(out, []byte(" ms "), []byte("ms "))
	out = bytes.ReplaceAll(out, []byte(" s "), []byte("s "))
	// "allocated=659712 B (644.25 KB)": HotSpot's "allocated=659712B".
	if k := bytes.Index(out, []byte("allocated=")); k >= 0 {
		e := k + len("allocated=")
		for e < len(out) && isDigit(out[e]) {
			e++
		}
		if bytes.HasPrefix(out[e:], []byte(" B")) {
			tail := out[e+2:]
			if bytes.HasPrefix(tail, []byte(" (")) {
				if c := bytes.IndexByte(tail, ')'); c > 0 {
					tail = tail[c+1:]
				}
			}
			out = append(append(append([]byte(nil), out[:e]...), 'B'), tail...)
		}
	}
	out = append(out, ' ')
	// The third line: " / N" after the nid and the bracketed VM state cut.
	t := tidLine
	if k := bytes.Index(t, []byte(" [_thread")); k > 0 {
		t = t[:k]
	}
	if k := bytes.Index(t, []byte(" / ")); k > 0 {
		e := k + 3
		for e < len(t) && isDigit(t[e]) {
			e++
		}
		t = append(append([]byte(nil), t[:k]...), t[e:]...)
	}
	return append(out, bytes.TrimRight(t, " ")...)
}
