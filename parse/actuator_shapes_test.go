package parse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestActuatorJSONShapesKeepOwners (issue 33, "the holder first"): the
// program's own Actuator-shaped dumps of a j.u.c lock cycle
// (testdata/verdicts/juc-cycle-stuck-json, Java 17), rewritten as two
// other real shapes a service serves, read to the very same threads,
// waits, owners and held locks:
//
//   - snake_case keys (a Jackson naming strategy: spring-boot-admin#235
//     pastes {"thread_name", "lock_info", "lock_owner_id", "class_name"});
//   - no lockInfo object, its "lockName" string only ("class@hash").
func TestActuatorJSONShapesKeepOwners(t *testing.T) {
	snakeKey := regexp.MustCompile(`"([a-z]+)([A-Z][A-Za-z]*)":`)
	toSnake := func(b []byte) []byte {
		return snakeKey.ReplaceAllFunc(b, func(m []byte) []byte {
			var out strings.Builder
			for _, r := range string(m) {
				if r >= 'A' && r <= 'Z' {
					out.WriteByte('_')
					out.WriteRune(r + ('a' - 'A'))
				} else {
					out.WriteRune(r)
				}
			}
			return []byte(out.String())
		})
	}
	dropLockInfo := func(b []byte) []byte {
		var doc map[string][]map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		for _, th := range doc["threads"] {
			delete(th, "lockInfo")
		}
		out, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	dir := filepath.Join("..", "testdata", "verdicts", "juc-cycle-stuck-json")
	for _, f := range []string{"1.json", "2.json", "3.json"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		want := summarizeLocks(t, f, data)
		if !strings.Contains(want, "owner=posting-2") {
			t.Fatalf("%s: the original names no owner: %s", f, want)
		}
		for name, shape := range map[string][]byte{"snake_case": toSnake(data), "lockName only": dropLockInfo(data)} {
			if name == "snake_case" && !bytes.Contains(shape, []byte(`"lock_owner_name"`)) {
				t.Fatalf("%s: not rewritten", f)
			}
			if got := summarizeLocks(t, f, shape); got != want {
				t.Errorf("%s as %s:\n got %s\nwant %s", f, name, got, want)
			}
		}
	}
}

// summarizeLocks parses data and says each thread's name, state, frames
// and locks (kind, class, address, owner).
func summarizeLocks(t *testing.T, name string, data []byte) string {
	t.Helper()
	ds, err := Parse(name, bytes.NewReader(data))
	if err != nil || len(ds) != 1 {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, th := range ds[0].Threads {
		b.WriteString(th.Name() + " " + th.State)
		if len(th.Frames) > 0 {
			b.WriteString(" " + th.Frames[0].Func)
		}
		for _, l := range th.Locks() {
			b.WriteString(" [" + fmt.Sprint(l.Kind) + " " + l.Class + " " + l.Address + " owner=" + l.Owner + "]")
		}
		b.WriteString("; ")
	}
	return b.String()
}
