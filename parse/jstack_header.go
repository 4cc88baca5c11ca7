package parse

import (
	"bytes"
	"time"
)

// parseThreadHeader reads a JVM thread header line; nil if line is not one.
// One pass over the bytes, no regexp: this runs once per thread. Shapes:
//
//	"main" #1 prio=5 os_prio=0 cpu=1124.82ms elapsed=116459.50s tid=0x00007f6aec016800 nid=0xaba runnable  [0x00007f6af4245000]
//	"main" #3 [5891] prio=5 os_prio=31 cpu=508.53ms elapsed=24.44s allocated=103M defined_classes=2343 tid=0x000000013e00d800 nid=5891 runnable  [0x000000016fc69000]
//	"VM Thread" os_prio=0 cpu=5.39ms elapsed=2.31s tid=0x00007fcb3c0f4440 nid=0x22a3 runnable
//	"Thread-1" prio=5 tid=0x0028ea18 nid=0x604 waiting for monitor entry [182ef000..182efd88]
//	"ListenThread" prio=10 tid=0x0003fa38 nid=78 lwp_id=3573240 runnable [0x1f229000..0x1f229500]   (HP-UX)
//	"Thread-1533" cpu=0.00 [reset 0.00] ms allocated=334976 B (327.12 kB) [reset ...] user="J2EE_ADMIN" prio=1 tid=0x... nid=0x996 in Object.wait() [...]   (SAP JVM)
//	"Timer-180" - Thread t@332                         (VisualVM, Spring Boot actuator)
//	"Finalizer"                                        (Spring Boot actuator, no id)
//	"RMI TCP Connection(23)-127.0.1.1" id=3149 in RUNNABLE (running in native)   (JMX ThreadInfo)
//
// Words after tid=/nid= up to the stack range "[...]" are the header state
// ("waiting on condition"), kept in StateDetail until a
// "java.lang.Thread.State:" line gives a better one.
func parseThreadHeader(line []byte, in *interner) *Thread {
	if len(line) < 2 || line[0] != '"' {
		return nil
	}
	end := -1
	for i := 1; i < len(line); i++ {
		if line[i] == '"' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') {
			end = i
			break
		}
	}
	if end < 0 {
		return nil
	}
	rest := line[end+1:]
	if len(bytes.TrimSpace(rest)) == 0 {
		return nil // a name alone is no header (see isNameOnlyHeader)
	}
	th := &Thread{Weight: 1, JVM: &JVM{Name: in.bytes(line[1:end])}}
	sawID := false // tid= or nid= seen: later bare words are the state
	detailStart := -1
	for i := 0; i < len(rest); {
		for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
			i++
		}
		if i == len(rest) {
			break
		}
		j := i
		for j < len(rest) && rest[j] != ' ' && rest[j] != '\t' {
			j++
		}
		tok := rest[i:j]
		start := i
		i = j
		if detailStart >= 0 {
			continue
		}
		eq := bytes.IndexByte(tok, '=')
		switch {
		case tok[0] == '#' && len(tok) > 1 && th.ID == 0:
			th.ID = int64(atoiBytes(tok[1:]))
		case bytes.Equal(tok, []byte("daemon")):
			th.Daemon = true
		case bytes.HasPrefix(tok, []byte("t@")):
			th.ID = int64(atoiBytes(tok[2:]))
		case bytes.Equal(tok, []byte("-")) || bytes.Equal(tok, []byte("Thread")):
			// "- Thread t@N"
		case eq > 0:
			headerField(th, tok[:eq], tok[eq+1:], in)
			if k := string(tok[:eq]); k == "tid" || k == "nid" || k == "lwp_id" {
				sawID = true
			}
			if k := string(tok[:eq]); k == "id" || k == "Id" {
				sawID = true
			}
		case bytes.Equal(tok, []byte("in")) && th.State == "" && sawID && isUpperWord(nextWord(rest[i:])):
			// JMX ThreadInfo: "id=N in STATE (detail)"
			w := nextWord(rest[i:])
			th.State = in.bytes(w)
			i += bytes.Index(rest[i:], w) + len(w)
			if d := bytes.TrimSpace(rest[i:]); len(d) > 0 {
				th.StateDetail = in.bytes(trimParens(d))
			}
			i = len(rest)
		case isUpperWord(tok) && th.State == "" && th.ID != 0 && th.TID == "" && th.NativeID == "":
			// JDK 9+ ThreadInfo: "Id=236 WAITING on java.lang.Object@1b8fcf7"
			th.State = in.bytes(tok)
			if d := bytes.TrimSpace(rest[i:]); len(d) > 0 {
				th.StateDetail = in.bytes(trimParens(d))
			}
			i = len(rest)
		case sawID && th.TID == "" && th.NativeID == "" && len(tok) > 4 && bytes.HasPrefix(tok, []byte("(0x")) && tok[len(tok)-1] == ')':
			// Jenkins's copy of Dropwizard's page: the id again in hex,
			// `id=20 (0x14) state=WAITING` (dropwizard.go).
		case tok[0] == '[' && sawID:
			i = len(rest) // stack range: the end of the header
		case sawID:
			detailStart = start
		}
	}
	if detailStart >= 0 {
		d := rest[detailStart:]
		if k := bytes.LastIndexByte(d, '['); k > 0 && bytes.HasSuffix(bytes.TrimSpace(d), []byte("]")) {
			d = d[:k]
		}
		th.StateDetail = in.bytes(bytes.TrimSpace(d))
	}
	return th
}

// closeQuote returns a HotSpot header whose name lost its closing quote
// (`"worker-2 #13 prio=5 os_prio=0 tid=0x… nid=0x… waiting …`) with the
// quote put back: the name ends where HotSpot's fields begin, the thread
// number (" #13 ", and JDK 21's " [24323]" after it), " daemon" or " prio=". nil when line has its closing
// quote or none of the fields; a copy, on this rare path only.
func closeQuote(line []byte) []byte {
	if len(line) < 3 || line[0] != '"' || bytes.IndexByte(line[1:], '"') >= 0 {
		return nil
	}
	k := bytes.Index(line, []byte(" prio="))
	if k <= 1 {
		return nil
	}
	name := line[1:k]
	name = bytes.TrimSuffix(name, []byte(" daemon"))
	if b := bytes.LastIndex(name, []byte(" [")); b > 0 && name[len(name)-1] == ']' && allDigits(name[b+2:len(name)-1]) {
		name = name[:b] // JDK 21+: the OS thread id after the number ("#14 [24323]")
	}
	if h := bytes.LastIndex(name, []byte(" #")); h > 0 && allDigits(name[h+2:]) {
		name = name[:h]
	}
	if len(name) == 0 {
		return nil
	}
	fixed := make([]byte, 0, len(line)+1)
	fixed = append(fixed, '"')
	fixed = append(fixed, name...)
	fixed = append(fixed, '"')
	return append(fixed, line[1+len(name):]...)
}

func nextWord(b []byte) []byte {
	b = trimIndent(b)
	i := 0
	for i < len(b) && b[i] != ' ' && b[i] != '\t' {
		i++
	}
	return b[:i]
}

func isUpperWord(w []byte) bool {
	if len(w) == 0 {
		return false
	}
	for _, c := range w {
		if (c < 'A' || c > 'Z') && c != '_' {
			return false
		}
	}
	return true
}

func trimParens(b []byte) []byte {
	if len(b) > 1 && b[0] == '(' && b[len(b)-1] == ')' {
		return b[1 : len(b)-1]
	}
	return b
}

// headerField stores one key=value of a thread header.
func headerField(th *Thread, k, v []byte, in *interner) {
	switch string(k) {
	case "prio":
		th.Priority = atoiSigned(v)
	case "os_prio":
		th.OSPriority = atoiSigned(v)
	case "cpu":
		if bytes.HasSuffix(v, []byte("%")) {
			break // Jenkins's "cpu=37%": a share, not the thread's CPU time
		}
		th.CPU = parseDuration(v, time.Millisecond)
	case "elapsed":
		th.Elapsed = parseDuration(v, time.Second)
	case "allocated":
		th.Allocated = parseBytesSize(v)
	case "tid":
		th.TID = string(v) // unique per thread: interning would only grow the table
	case "nid":
		th.NativeID = string(v)
	case "id", "Id":
		th.ID = int64(atoiBytes(v))
	case "state":
		if isUpperWord(v) {
			th.State = in.bytes(v) // a tool's "#12 state=BLOCKED" (jvm_tool_headers.go)
		}
	}
}

// atoiSigned parses an int with an optional minus sign (os_prio=-1).
func atoiSigned(b []byte) int {
	if len(b) > 0 && b[0] == '-' {
		return -atoiBytes(b[1:])
	}
	return atoiBytes(b)
}

// parseDuration reads "1.23ms", "4,56s", "116459.50s", "12us", "5ns" or a
// bare number in unit def (SAP JVM prints "cpu=0.00 [reset 0.00] ms").
// Integer arithmetic, so "1.23ms" is exactly 1.23 ms.
func parseDuration(b []byte, def time.Duration) time.Duration {
	var whole, frac, scale int64 = 0, 0, 1
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		whole = whole*10 + int64(b[i]-'0')
		i++
	}
	if i < len(b) && (b[i] == '.' || b[i] == ',') {
		i++
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			if scale < 1e9 {
				frac = frac*10 + int64(b[i]-'0')
				scale *= 10
			}
			i++
		}
	}
	unit := def
	switch string(b[i:]) {
	case "ms":
		unit = time.Millisecond
	case "s":
		unit = time.Second
	case "us":
		unit = time.Microsecond
	case "ns":
		unit = time.Nanosecond
	case "m":
		unit = time.Minute
	}
	return time.Duration(whole)*unit + time.Duration(frac*int64(unit)/scale)
}

// parseBytesSize reads HotSpot's byte sizes: "0B", "39288B", "107K", "103M",
// "2G" (binary multiples), or a bare number of bytes.
func parseBytesSize(b []byte) int64 {
	var n int64
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		n = n*10 + int64(b[i]-'0')
		i++
	}
	if i < len(b) {
		switch b[i] {
		case 'K', 'k':
			n <<= 10
		case 'M':
			n <<= 20
		case 'G':
			n <<= 30
		}
	}
	return n
}

// parseStateLine splits the text after "java.lang.Thread.State:":
// " WAITING (parking)" gives "WAITING", "parking"; " TIMED_WAITING on
// java.util.TaskQueue@7311acb7" (VisualVM) gives "TIMED_WAITING",
// "on java.util.TaskQueue@7311acb7".
func parseStateLine(b []byte) (state, detail []byte) {
	b = bytes.TrimSpace(b)
	i := bytes.IndexByte(b, ' ')
	if i < 0 {
		return b, nil
	}
	return b[:i], trimParens(bytes.TrimSpace(b[i+1:]))
}
