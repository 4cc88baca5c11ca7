package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestWriteDumpsJSONAsEncoder: the dump-at-a-time writer gives the very
// bytes json.Encoder with a two-space indent gives for the whole slice:
// nil, empty, and random selections of the committed dumps (JVM and Go
// text, a trace's moments; names with <, > and & that the encoder escapes).
func TestWriteDumpsJSONAsEncoder(t *testing.T) {
	var pool []*parse.Dump
	for _, glob := range []string{"../../testdata/scenarios/hikari-pool-exhausted/*.txt", "../../testdata/go/*.txt", "../../testdata/gotrace/mutex-go1.26/flight.trace"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			ds, err := parse.ParseFile(f)
			if err != nil {
				continue // not every file in a folder is a dump
			}
			pool = append(pool, ds...)
		}
	}
	if len(pool) < 5 {
		t.Fatalf("%d dumps read from testdata", len(pool))
	}
	pool[0].Headline = "<&> a name the encoder escapes"
	want := func(ds []*parse.Dump) []byte {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		if err := enc.Encode(ds); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	cases := [][]*parse.Dump{nil, {}}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20 {
		var ds []*parse.Dump
		for range 1 + rng.IntN(4) {
			ds = append(ds, pool[rng.IntN(len(pool))])
		}
		cases = append(cases, ds)
	}
	for i, ds := range cases {
		var got bytes.Buffer
		if err := writeDumpsJSON(&got, ds); err != nil {
			t.Fatal(err)
		}
		if w := want(ds); !bytes.Equal(got.Bytes(), w) {
			t.Fatalf("case %d (%d dumps): %d bytes, the encoder's %d", i, len(ds), got.Len(), len(w))
		}
	}
}
