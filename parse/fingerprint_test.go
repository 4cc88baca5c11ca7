package parse

import (
	"hash/maphash"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFingerprintProperty, over every committed Go and JVM text dump: a
// dump read again, indented, or inside a log with lines around it has the
// fingerprint of the original; the same dump with one thread changed at
// random (its state, one frame's line, its name) has another.
func TestFingerprintProperty(t *testing.T) {
	seed := maphash.MakeSeed()
	inputs := pasteInputs(t)
	if len(inputs) == 0 {
		t.Fatal("no text dump found in testdata/")
	}
	fp := func(name, text string) uint64 {
		t.Helper()
		dumps, err := Parse(name, strings.NewReader(text))
		if err != nil || len(dumps) == 0 {
			t.Fatalf("%s: %d dumps, %v", name, len(dumps), err)
		}
		return dumps[0].Fingerprint(seed)
	}
	changed := 0
	for i, in := range inputs {
		want := fp(in.name, in.text)
		if got := fp(in.name, in.text); got != want {
			t.Errorf("%s: read twice, two fingerprints", in.name)
		}
		if !in.prefixed {
			logged := "INFO starting\nWARN something else\n\n" + in.text + "\nINFO done\n"
			if got := fp(in.name, logged); got != want {
				t.Errorf("%s: inside a log, another fingerprint", in.name)
			}
		}
		dumps, _ := Parse(in.name, strings.NewReader(in.text))
		d := dumps[0]
		if len(d.Threads) == 0 {
			continue
		}
		rng := rand.New(rand.NewPCG(uint64(i), 31))
		th := d.Threads[rng.IntN(len(d.Threads))]
		switch rng.IntN(3) {
		case 0:
			th.State += "x"
		case 1:
			if len(th.Frames) == 0 {
				th.State += "x"
				break
			}
			k := rng.IntN(len(th.Frames))
			f := *th.Frames[k]
			f.Line++
			th.Frames[k] = &f
		case 2:
			th.ID++
		}
		if d.Fingerprint(seed) == want {
			t.Errorf("%s: a changed thread kept the fingerprint", in.name)
		}
		changed++
	}
	t.Logf("%d dumps, %d changed at random", len(inputs), changed)
}
