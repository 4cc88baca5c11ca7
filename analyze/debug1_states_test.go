package analyze

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestDebug1StatesFromPCs: a debug=1 profile given with a proto of the
// same binary takes its hidden runtime frames from the proto's locations
// (parse.ResolveHiddenFrames): each pool is in one state in both encodings
// (it read "unknown" in debug=1 and chan-receive or select in the proto).
func TestDebug1StatesFromPCs(t *testing.T) {
	tests := []struct {
		dir     string
		moments []string
		pool    string
		state   string
		counts  string
	}{
		{"libs/go-generics", []string{"1-debug1.txt", "1.pb.gz"}, "main.worker[...]", "chan-receive", "[20 20]"},
		{"libs/go-generics", []string{"1-debug1.txt", "1.pb.gz"}, "main.(*batcher[...]).loop", "select", "[2 2]"},
		{"libs/go-grpc", []string{"1-debug1.txt", "1.pb.gz"}, "google.golang.org/grpc.(*Server).serveStreams.func2.1", "chan-receive", "[16 16]"},
		{"verdicts/go113-select-leak", []string{"1-debug1.txt", "2.pb.gz"}, "main.(*hub).watch", "select", "[200 300]"},
		{"verdicts/go113-select-leak", []string{"1.pb.gz", "2-debug1.txt"}, "main.serve.func1", "select", "[12 12]"},
	}
	for _, tt := range tests {
		t.Run(tt.dir+"/"+tt.pool, func(t *testing.T) {
			r := Analyze(loadMoments(t, filepath.Join("..", "testdata", tt.dir), tt.moments), Options{})
			for _, pl := range r.Pools {
				if pl.Name != tt.pool {
					continue
				}
				if len(pl.States) != 1 {
					for _, g := range pl.States {
						t.Logf("%s %v", g.State, g.Counts)
					}
					t.Fatalf("%s in %d states, want 1", tt.pool, len(pl.States))
				}
				g := pl.States[0]
				eq(t, "state", g.State, tt.state)
				eq(t, "counts", fmt.Sprint(g.Counts), tt.counts)
				return
			}
			t.Fatalf("no pool %s", tt.pool)
		})
	}
}
