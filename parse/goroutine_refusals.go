package parse

import "bytes"

// goRefusals name the Go outputs that look like dumps but are not: the
// parse fails with a *NoDumpError that says what the file is.
var goRefusals = []refusal{
	{
		// threadcreate profile: total 7
		matches: func(line []byte) bool { return bytes.HasPrefix(line, []byte("threadcreate profile: total ")) },
		looks:   "a threadcreate profile is not a goroutine dump",
	},
	{
		// WARNING: DATA RACE
		matches: func(line []byte) bool { return bytes.Equal(line, []byte("WARNING: DATA RACE")) },
		looks:   "a Go race detector report is not a goroutine dump",
	},
	{
		// {"Time":"2025-04-01T08:56:08.393430984-03:00","Action":"run","Package":"..."}
		matches: func(line []byte) bool {
			return bytes.HasPrefix(line, []byte(`{"Time":"`)) && bytes.Contains(line, []byte(`"Action":"`)) ||
				bytes.HasPrefix(line, []byte(`{"Action":"`))
		},
		looks: "go test -json output without a goroutine dump in its Output lines",
	},
	{
		//     "Stack0": [
		matches: func(line []byte) bool { return bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte(`"Stack0":`)) },
		looks:   "runtime.GoroutineProfile records as JSON (raw program counters, no function names) are not a goroutine dump",
	},
}
