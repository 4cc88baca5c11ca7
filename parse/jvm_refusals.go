package parse

import "bytes"

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
		// JRockit: "===== FULL THREAD DUMP ===============".
		matches: func(line []byte) bool {
			return bytes.HasPrefix(trimIndent(line), []byte("===== FULL THREAD DUMP"))
		},
		looks: "jrockit thread dump is not supported yet",
	},
}
