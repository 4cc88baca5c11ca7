package parse

import "bytes"

// excerptFramesRefusal is the reason a file of Java frames alone is
// refused: true of every such file (nothing in it tells a thread's stack
// from an exception's), whatever it is.
const excerptFramesRefusal = "java stack frames without a thread header, state line or lock line: " +
	"too little to tell a thread dump from an exception's stack trace"

// jvmRefusals name the JVM dump formats dumpdiff does not read, so that a
// file of only such a dump is refused with what it looks like.
var jvmRefusals = []refusal{
	{
		// IBM javacore (javacore.go) without one thread: a javacore cut
		// before its THREADS section, or its other sections alone. (A
		// 3XMTHREADINFO line starts a javacore excerpt, read as one: it
		// is never this.)
		matches: func(line []byte) bool {
			return bytes.HasPrefix(line, []byte("0SECTION ")) || bytes.HasPrefix(line, []byte("1XMTHDINFO")) ||
				bytes.HasPrefix(line, []byte("2XMFULLTHDDUMP"))
		},
		looks: "ibm javacore without a thread (no 3XMTHREADINFO line)",
	},
	{
		// Java frames with nothing of a thread dump about them: a paste of
		// a thread's frames carries a lock line, a state line or a thread
		// header after them, and is read as an excerpt (startsJVMBody).
		// Frames without any of these are an exception's trace.
		matches: func(line []byte) bool {
			t := trimIndent(line)
			return len(t) < len(line) && bytes.HasPrefix(t, []byte("at ")) && bytes.HasSuffix(bytes.TrimRight(t, " "), []byte(")"))
		},
		looks: excerptFramesRefusal,
	},
}
