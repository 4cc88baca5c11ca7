package parse

import "bytes"

// jvmRefusals name the JVM dump formats dumpdiff does not read, so that a
// file of only such a dump is refused with what it looks like.
var jvmRefusals = []refusal{
	{
		// IBM javacore: "0SECTION       THREADS subcomponent dump routine",
		// "2XMFULLTHDDUMP Full thread dump Classic VM (...)", "3XMTHREADINFO ...".
		matches: func(line []byte) bool {
			return bytes.HasPrefix(line, []byte("0SECTION ")) || bytes.HasPrefix(line, []byte("1XMTHDINFO")) ||
				bytes.HasPrefix(line, []byte("2XMFULLTHDDUMP")) || bytes.HasPrefix(line, []byte("3XMTHREADINFO"))
		},
		looks: "ibm javacore is not supported yet",
	},
	{
		// JRockit: "===== FULL THREAD DUMP ===============".
		matches: func(line []byte) bool {
			return bytes.HasPrefix(trimIndent(line), []byte("===== FULL THREAD DUMP"))
		},
		looks: "jrockit thread dump is not supported yet",
	},
}
