package analyze

import (
	"os"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// corpusJVM is where the shared corpus's JVM dumps are, beside the repository.
const corpusJVM = "../../shared/corpus/jvm/"

// corpusInputs parses a dump file of the shared corpus (every dump in it a
// moment, in order), and skips the test when the corpus is not there.
func corpusInputs(t *testing.T, path string) []Input {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("corpus not here (%v): run with ../shared beside the repository", err)
	}
	ds, err := parse.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	in := make([]Input, len(ds))
	for i, d := range ds {
		in[i] = Input{Dump: d}
	}
	return in
}
