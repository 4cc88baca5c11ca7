package parse

import (
	"path/filepath"
	"testing"
)

// TestWaitAddr: goroutines blocked in sync.Mutex.Lock carry the lock's
// address from internal/sync.(*Mutex).lockSlow(0x...) (sync.(*Mutex).Lock is
// inlined, "(...)"), in real Go 1.26.8 and 1.27.3 dumps of 40 waiters on one
// mutex and 2 on another (testdata/verdicts/go-mutex-contention).
func TestWaitAddr(t *testing.T) {
	for _, f := range []string{"go1.26.8.txt", "go1.27.3.txt"} {
		t.Run(f, func(t *testing.T) {
			ds, err := ParseFile(filepath.Join("..", "testdata", "verdicts", "go-mutex-contention", f))
			if err != nil {
				t.Fatal(err)
			}
			by := map[string]int{}
			for _, th := range ds[0].Threads {
				if th.WaitAddr != "" {
					by[th.WaitAddr]++
				}
				if th.State == "sync.Mutex.Lock" && th.WaitAddr == "" {
					t.Errorf("goroutine %d waits in sync.Mutex.Lock with no address", th.ID)
				}
			}
			counts := map[int]int{}
			for _, n := range by {
				counts[n]++
			}
			if counts[40] != 1 || counts[2] != 1 || len(by) != 2 {
				t.Errorf("waiters per address = %v, want one address with 40 and one with 2", by)
			}
		})
	}
	for _, tt := range []struct{ line, want string }{
		{"internal/sync.(*Mutex).lockSlow(0x188978d422a0)", "0x188978d422a0"},
		{"sync.(*RWMutex).Lock(0xc000010108?)", "0xc000010108"},
		{"sync.(*Mutex).Lock(...)", ""},
		{"main.(*store).update(0x188978d422a0, 0x1)", ""},
	} {
		line := []byte(tt.line)
		got := string(syncWaitAddr(line, argsParen(line)))
		if got != tt.want {
			t.Errorf("syncWaitAddr(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}
