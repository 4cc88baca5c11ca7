package parse

import "bytes"

// parseFrame reads the text after "at " of a JVM frame line (also the
// elements of jcmd JSON "stack" arrays, which have no "at "). Shapes:
//
//	java.lang.Object.wait(Native Method)
//	java.util.TimerThread.mainLoop(Timer.java:509)
//	java.io.FileInputStream.readBytes(java.base@25/Native Method)
//	java.lang.invoke.LambdaForm$DMH/0x0000380001228000.invokeVirtual(java.base@25/LambdaForm$DMH)
//	java.base@17/java.lang.ref.Reference.processPendingReferences(Reference.java:253)   (StackTraceElement.toString)
//	app//org.example.Main.run(Main.java:12)                                            (class loader "app")
//	java.lang.Thread.sleep(J)V(Native Method)                                         (SAP JVM: method signature)
//	java.lang.Object.wait0(Object.java:-1)                                            (IntelliJ's debugger: no line known)
//	Foo$$Lambda/0x0000000301042210.run(Unknown Source:-1)                              (IntelliJ's debugger)
//	com.foo.Bar.baz(Ljava/lang/String;)V(Bar.java:12)                                 (method descriptor, then location)
//	com.foo.Bar.baz(Ljava/lang/String;)V                                              (descriptor, no location)
//	com.foo.Bar.baz(java.lang.String, int)                                            (parameter types, no location: async-profiler, JFR-like)
//	com.foo.Bar.baz(String, int) line: 12                                             (jfr print)
//
// A signature is not part of the function: the frame of a method printed
// with its signature is the frame printed without it (frameforms_test.go).
//
// It returns nil when text is not a frame (no "(location)" or signature at
// its end).
func parseFrame(text []byte, in *interner) *Frame {
	text = bytes.TrimRight(text, " \t")
	line := 0
	descriptor := false
	if n := len(text); n > 0 && text[n-1] != ')' {
		// Not the ")" a frame ends with (the common case, which this
		// per-frame path leaves at one byte's test): jfr print's line
		// after the parameters, "Main.main(String[]) line: 5", or a
		// descriptor's return type after them, "(J)V", "(I)[Ljava/lang/Object;".
		if k := bytes.LastIndex(text, []byte(") line: ")); k > 0 && allDigits(text[k+len(") line: "):]) {
			line = atoiBytes(text[k+len(") line: "):])
			text = text[:k+1]
		} else if rp := bytes.LastIndexByte(text, ')'); rp > 0 && isDescriptorType(text[rp+1:]) {
			text, descriptor = text[:rp+1], true
		}
	}
	if len(text) < 3 || text[len(text)-1] != ')' {
		return nil
	}
	lp := bytes.LastIndexByte(text, '(')
	if lp <= 0 {
		return nil
	}
	fn := text[:lp]
	loc := text[lp+1 : len(text)-1]
	if k := bytes.IndexByte(fn, '('); k > 0 {
		fn = fn[:k] // SAP/JRockit method signature "(J)V"
	} else if descriptor || isParamList(loc) {
		loc = nil // the one group is the signature: no location printed
	}
	var module []byte
	fn, module = splitModulePrefix(fn)
	// Location: "[loader/][module/]File.java:123", "Native Method", ...
	var file, note []byte
	if k := bytes.LastIndexByte(loc, '/'); k >= 0 {
		mod := loc[:k]
		if s := bytes.LastIndexByte(mod, '/'); s >= 0 {
			mod = mod[s+1:] // drop the class loader name
		}
		if len(mod) > 0 {
			module = mod
		}
		loc = loc[k+1:]
	}
	if n := len(loc); n > 3 && loc[n-3] == ':' && loc[n-2] == '-' && loc[n-1] == '1' {
		loc = loc[:n-3] // IntelliJ's debugger writes -1 for "no line" (a native method, a class without line numbers)
	}
	if c := bytes.LastIndexByte(loc, ':'); c > 0 && c+1 < len(loc) && allDigits(loc[c+1:]) {
		file = loc[:c]
		line = atoiBytes(loc[c+1:])
	} else if isFrameNote(loc) {
		note = loc
	} else {
		file = loc
	}
	return in.frame(in.bytes(fn), in.bytes(file), line, in.bytes(module), in.bytes(note))
}

// splitModulePrefix splits StackTraceElement.toString's
// "[loader/][module[@version]/]" prefix off a function name:
// "java.base@17/java.lang.Thread.run" gives "java.lang.Thread.run",
// "java.base@17"; "app//org.example.Main.run" gives "org.example.Main.run", "".
// JRockit writes classes with '/' ("java/lang/Object.wait") and hidden
// classes carry "/0x..." ("Foo$$Lambda/0x0000380001236000.run"): both are
// kept whole.
func splitModulePrefix(fn []byte) (rest, module []byte) {
	s1 := bytes.IndexByte(fn, '/')
	if s1 <= 0 {
		if s1 == 0 {
			return fn[1:], nil
		}
		return fn, nil
	}
	seg1, after := fn[:s1], fn[s1+1:]
	switch {
	case len(after) > 0 && after[0] == '/': // "app//class"
		return after[1:], nil
	case bytes.IndexByte(seg1, '@') >= 0:
		return after, seg1
	case bytes.IndexByte(seg1, '.') >= 0 && !bytes.HasPrefix(after, []byte("0x")):
		return after, seg1
	}
	if s2 := bytes.IndexByte(after, '/'); s2 > 0 && bytes.IndexByte(after[:s2], '@') >= 0 {
		return after[s2+1:], after[:s2] // "loader/module@version/class"
	}
	return fn, nil
}

// isDescriptorType reports whether b is one JVM field descriptor: a
// primitive ("V", "J"), a class ("Ljava/lang/String;") or an array of one
// ("[[I").
func isDescriptorType(b []byte) bool {
	for len(b) > 0 && b[0] == '[' {
		b = b[1:]
	}
	switch {
	case len(b) == 1:
		return bytes.IndexByte([]byte("VZBCSIJFD"), b[0]) >= 0
	case len(b) > 2 && b[0] == 'L' && b[len(b)-1] == ';':
		return !bytes.ContainsAny(b[1:len(b)-1], "; ()")
	}
	return false
}

// isParamList reports whether loc, the only parenthesised group of a frame,
// is a method's parameters rather than its location: a descriptor
// ("Ljava/lang/String;I"), a list ("java.lang.String, int"), an array
// ("String[]"), one type ("java.lang.String": a class's last segment is
// capitalised where a file's extension is not, "Bar.java"; "long": a
// primitive, where a word alone is a file, ProGuard's "SourceFile").
// Locations are "Bar.java:12", "Bar.java", "SourceFile", "<generated>",
// "Native Method", "Unknown Source", "java.base@17/...": none of those is
// read as parameters.
func isParamList(loc []byte) bool {
	if len(loc) == 0 || isFrameNote(loc) && bytes.IndexByte(loc, ',') < 0 {
		return false
	}
	if bytes.ContainsAny(loc, ";,[") {
		return true
	}
	if bytes.ContainsAny(loc, ":/@ ") {
		return false
	}
	d := bytes.LastIndexByte(loc, '.')
	if d < 0 {
		switch string(loc) {
		case "boolean", "byte", "char", "short", "int", "long", "float", "double":
			return true
		}
		return false
	}
	return d+1 < len(loc) && loc[d+1] >= 'A' && loc[d+1] <= 'Z'
}

func allDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isFrameNote reports whether a frame location is a note rather than a file.
func isFrameNote(loc []byte) bool {
	switch string(loc) {
	case "Native Method", "Unknown Source", "Compiled Code", "Compiled frame", "Interpreted frame", "Inlined Compiled Code":
		return true
	}
	return bytes.IndexByte(loc, ' ') >= 0 || len(loc) == 0
}

// lockPrefixes are the leading words of the lock lines, in matching order.
var lockPrefixes = []struct {
	prefix string
	kind   LockKind
}{
	{"locked synchronizer ", LockOwnable}, // Apache Geode's ExecutorServiceRule: "- locked synchronizer <0x153f5a29> (a …$Worker)"
	{"locked ", LockHeld},
	{"Locked ", LockHeld}, // the Spring Boot actuator's ownable synchronizer line
	{"waiting to lock ", LockWaitingTo},
	{"waiting on the Class initialization monitor for ", LockClassInit},
	{"waiting on ", LockWaitingOn},
	{"parking to wait for ", LockParking},
	{"eliminated ", LockEliminated},
	{"waiting to re-lock in wait() ", LockReLocking},
	{"blocked on ", LockWaitingTo}, // ThreadInfo.toString: "-  blocked on java.lang.Object@279f2327"
}

// parseLockLine reads the text after "- " of a lock line. ownable is true
// inside "Locked ownable synchronizers:". Shapes:
//
//	locked <0x000000076ab62208> (a java.lang.Object)
//	waiting to lock <0x100309e0> (a java.lang.Object)
//	waiting on <0x10010498> (a java.lang.ref.ReferenceQueue$Lock)
//	waiting on <no object reference available>
//	parking to wait for  <0x000000069ec1bdd0> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)
//	eliminated <owner is scalar replaced> (a java.lang.Object)
//	waiting to re-lock in wait() <0x000000076ab62208> (a java.lang.Object)
//	waiting on the Class initialization monitor for com.example.TaxRules   (JDK 17+)
//	locked java.io.BufferedInputStream@5284339c                  (VisualVM)
//	<0x000000069ec1bda0> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)   (ownable)
//	java.util.concurrent.locks.ReentrantLock$NonfairSync@166fba  (JMX ownable)
//	None                                                         (ownable: Kind "" and ok)
func parseLockLine(b []byte, in *interner, ownable bool) (Lock, bool) {
	b = bytes.TrimSpace(b)
	var l Lock
	matched := false
	for _, p := range lockPrefixes {
		if rest, ok := bytes.CutPrefix(b, []byte(p.prefix)); ok {
			l.Kind, b, matched = p.kind, rest, true
			break
		}
	}
	if !matched {
		switch {
		case bytes.Equal(b, []byte("lock is eliminated")):
			l.Kind = LockEliminated
			return l, true
		case ownable && bytes.Equal(b, []byte("None")):
			return l, true
		case ownable:
			l.Kind = LockOwnable
		default:
			return l, false
		}
	}
	if l.Kind == LockClassInit {
		// "waiting on the Class initialization monitor for com.example.TaxRules"
		l.Class = in.bytes(bytes.TrimSpace(b))
		return l, len(l.Class) > 0
	}
	if ownable && l.Kind == LockHeld {
		l.Kind = LockOwnable // VisualVM: "- locked X@hash" under ownable synchronizers
	}
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '<' {
		k := bytes.IndexByte(b, '>')
		if k < 0 {
			return l, false
		}
		obj := b[1:k]
		if at := bytes.LastIndexByte(obj, '@'); at > 0 && !bytes.Contains(obj, []byte(" ")) {
			// jcmd plain text (JDK 25): "<java.lang.Object@1b6d3586>"
			l.Class = in.bytes(obj[:at])
			l.Address = in.bytes(obj[at+1:])
			return l, true
		}
		if isHexWord(obj) {
			l.Address = in.bytes(obj)
		}
		// The class is in the last "(a X)", which ends the line. Text before
		// it is kept out of the class (a shell prompt echoed into the middle
		// of a line, as in tda's jstack.log); a line that does not end with
		// ")" was cut in the middle ("(a java.util.concurrent") and is no lock.
		rest := bytes.TrimSpace(b[k+1:])
		if len(rest) > 0 {
			a := bytes.LastIndex(rest, []byte("(a "))
			if a < 0 || rest[len(rest)-1] != ')' {
				return l, false
			}
			l.Class = in.bytes(rest[a+3 : len(rest)-1])
		}
		return l, true
	}
	if at := bytes.LastIndexByte(b, '@'); at > 0 && bytes.IndexByte(b, ' ') < 0 {
		l.Class = in.bytes(b[:at])
		l.Address = in.bytes(b[at+1:])
		return l, true
	}
	return l, false
}

// isHexWord reports whether b is "0x1f2e" or "228a944d" (hex digits, with or
// without 0x).
func isHexWord(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("0x"))
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// CutNote is the Note of a frame read from a line cut before its
// location (cutFrame): its function may be cut too.
const CutNote = "cut"

// cutFrame reads the text after "at " of a frame line that lost its
// "(location)": a paste or an excerpt cut in the middle of the line ("at
// com.notnoop.apns.internal.Utilities.parseF", java-apns#120 as an issue
// index serves it). It is a frame when the text is one dotted name (no
// space, no parenthesis: a word of prose after "at " has neither a dot
// between names nor is it one token), read as a frame of that function
// with no file; the caller records it in Dump.Partial. nil otherwise.
func cutFrame(text []byte, in *interner) *Frame {
	text = bytes.TrimRight(text, " \t\r")
	dot := bytes.IndexByte(text, '.')
	if dot <= 0 || dot == len(text)-1 {
		return nil
	}
	for _, c := range text {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '$', c == '_', c == '/', c == '@', c == '<', c == '>', c == '-':
		default:
			return nil
		}
	}
	if c := text[0]; c >= '0' && c <= '9' || c == '.' {
		return nil // "at 10.0.0.1", "at .5": no class starts so
	}
	fn, module := splitModulePrefix(text)
	return in.frame(in.bytes(fn), "", 0, in.bytes(module), CutNote)
}
