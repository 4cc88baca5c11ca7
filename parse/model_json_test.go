package parse

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestThreadJSONFlat: a goroutine and a JVM thread print as flat objects
// with every field of the model, whatever sits behind a pointer, with
// their values.
func TestThreadJSONFlat(t *testing.T) {
	for _, tc := range []struct {
		file string
		want map[string]string // a few fields and their JSON values
	}{
		{"../testdata/go/go1.26.8-debug2.txt", map[string]string{"NativeID": `""`, "Daemon": "false", "Weight": "1"}},
		{"../testdata/jvm/jstack-l.txt", map[string]string{"NativeID": `"0x5ce0"`, "Priority": "5", "Bubble": "0"}},
	} {
		f, err := os.Open(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := Parse(tc.file, f)
		f.Close()
		if err != nil || len(ds) == 0 || len(ds[0].Threads) == 0 {
			t.Fatalf("%s: %v", tc.file, err)
		}
		b, err := json.Marshal(ds[0].Threads[0])
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if len(m) != 30 {
			t.Errorf("%s: %d keys, want the model's 30: %s", tc.file, len(m), b)
		}
		if _, ok := m["JVM"]; ok || strings.Contains(string(b), `"GoExtra"`) {
			t.Errorf("%s: the pointers show: %s", tc.file, b)
		}
		for k, v := range tc.want {
			if string(m[k]) != v {
				t.Errorf("%s: %s = %s, want %s", tc.file, k, m[k], v)
			}
		}
	}
}
