package mcpserver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dumpdiff/dumpdiff/analyze"
)

func completeServer(t *testing.T, roots ...string) *Server {
	t.Helper()
	s, err := New(Config{Roots: roots, Analyze: func([]string, AnalyzeOptions) ([]*analyze.Result, []string, error) { return nil, nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func completeOf(t *testing.T, s *Server, ref *mcp.CompleteReference, arg, value string) mcp.CompletionResultDetails {
	t.Helper()
	res, err := s.complete(context.Background(), &mcp.CompleteRequest{Params: &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Completion
}

// TestCompletePathProperty: over random trees (folders, files, dot files,
// links that stay in the root and links that leave it), every path typed
// as a prefix of an entry's path completes to exactly the entries of its
// folder whose names begin with it and that resolve under the root —
// never an entry a link takes outside, never a name without the prefix —
// folders with a trailing slash; a typed path outside the root gets
// nothing, and one on the way to the root the root itself.
func TestCompletePathProperty(t *testing.T) {
	for seed := range 10 {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		base := t.TempDir()
		base, _ = filepath.EvalSymlinks(base)
		root := filepath.Join(base, "root")
		outside := filepath.Join(base, "outside")
		os.MkdirAll(outside, 0o755)
		os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("x"), 0o644)
		var dirs = []string{root}
		os.MkdirAll(root, 0o755)
		names := []string{"a", "ab", "abc", "b", "dump", "dump-1.txt", "dump-2.txt", ".hidden", "x y", "é"}
		for range 12 + rng.IntN(12) {
			d := dirs[rng.IntN(len(dirs))]
			n := names[rng.IntN(len(names))] + fmt.Sprint(rng.IntN(3))
			p := filepath.Join(d, n)
			switch rng.IntN(4) {
			case 0:
				if os.Mkdir(p, 0o755) == nil {
					dirs = append(dirs, p)
				}
			case 1:
				os.Symlink(outside, p) // leaves the root
			case 2:
				os.Symlink(dirs[rng.IntN(len(dirs))], p) // stays in it
			default:
				os.WriteFile(p, []byte("goroutine 1 [running]:\n"), 0o644)
			}
		}
		s := completeServer(t, root)
		// Every prefix of every folder's entries, typed absolute.
		for _, d := range dirs {
			ents, _ := os.ReadDir(d)
			for _, e := range ents {
				for cut := 0; cut <= len(e.Name()); cut++ {
					typed := d + "/" + e.Name()[:cut] // not Join: it cleans "d/." to "d"
					got := s.completePath(typed)
					var want []string
					for _, f := range ents {
						if !strings.HasPrefix(f.Name(), e.Name()[:cut]) || strings.HasPrefix(f.Name(), ".") && !strings.HasPrefix(e.Name()[:cut], ".") {
							continue
						}
						p := filepath.Join(d, f.Name())
						real, err := filepath.EvalSymlinks(p)
						if err != nil || real != root && !strings.HasPrefix(real, root+"/") {
							continue
						}
						st, _ := os.Stat(real)
						if st.IsDir() {
							p += "/"
						}
						want = append(want, p)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("seed %d: %q completes to %q, want %q", seed, typed, got, want)
					}
				}
			}
		}
		for _, typed := range []string{base + "/", base + "/ro", "/"} {
			got := s.completePath(typed)
			if len(got) != 1 || got[0] != root+"/" {
				t.Fatalf("seed %d: %q on the way to the root completes to %q, want only the root", seed, typed, got)
			}
		}
		for _, typed := range []string{outside + "/", outside + "/se", base + "/ou"} {
			if got := s.completePath(typed); len(got) != 0 {
				t.Fatalf("seed %d: %q outside the root completes to %q", seed, typed, got)
			}
		}
		if got := s.completePath(root + "/../outside/"); len(got) != 0 {
			t.Fatalf("seed %d: a path up and out completes to %q", seed, got)
		}
	}
}

// TestCompleteArguments: the prompt's paths (the last of a list, relative
// to the root), the file template's path (without its leading slash), the
// report template's id and report, and arguments that complete to nothing.
func TestCompleteArguments(t *testing.T) {
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	os.MkdirAll(filepath.Join(root, "incident-1"), 0o755)
	os.WriteFile(filepath.Join(root, "before.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(root, "during.txt"), nil, 0o644)
	s := completeServer(t, root)
	prompt := &mcp.CompleteReference{Type: "ref/prompt", Name: "investigate_incident"}
	if got := completeOf(t, s, prompt, "paths", "").Values; !slices.Equal(got, []string{"before.txt", "during.txt", "incident-1/"}) {
		t.Errorf("paths from nothing: %q", got)
	}
	if got := completeOf(t, s, prompt, "paths", "before.txt, du").Values; !slices.Equal(got, []string{"before.txt, during.txt"}) {
		t.Errorf("the last of a list: %q", got)
	}
	if got := completeOf(t, s, prompt, "service", "ap").Values; len(got) != 0 {
		t.Errorf("service completes to %q", got)
	}
	file := &mcp.CompleteReference{Type: "ref/resource", URI: "file:///{+path}"}
	if got := completeOf(t, s, file, "path", strings.TrimPrefix(root, "/")+"/inc").Values; !slices.Equal(got, []string{strings.TrimPrefix(root, "/") + "/incident-1/"}) {
		t.Errorf("the file template: %q", got)
	}
	s.mu.Lock()
	s.order = []string{"a1", "a2", "b3"}
	s.mu.Unlock()
	rep := &mcp.CompleteReference{Type: "ref/resource", URI: "dumpdiff://analysis/{id}/{report}"}
	if got := completeOf(t, s, rep, "id", "a").Values; !slices.Equal(got, []string{"a2", "a1"}) {
		t.Errorf("ids, newest first: %q", got)
	}
	if got := completeOf(t, s, rep, "report", "report.h").Values; !slices.Equal(got, []string{"report.html"}) {
		t.Errorf("report: %q", got)
	}
	if got := completeOf(t, s, &mcp.CompleteReference{Type: "ref/prompt", Name: "nope"}, "paths", ""); len(got.Values) != 0 || got.Values == nil {
		t.Errorf("an unknown prompt: %+v, want an empty list", got)
	}
	// More than the protocol's 100: the first 100, the total, hasMore.
	many := filepath.Join(root, "many")
	os.Mkdir(many, 0o755)
	for i := range 150 {
		os.WriteFile(filepath.Join(many, fmt.Sprintf("m%03d.txt", i)), nil, 0o644)
	}
	if got := completeOf(t, s, prompt, "paths", "many/m"); len(got.Values) != completeMax || got.Total != 150 || !got.HasMore {
		t.Errorf("150 entries: %d values, total %d, hasMore %v", len(got.Values), got.Total, got.HasMore)
	}
}
