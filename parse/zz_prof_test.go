package parse

import (
	"os"
	"testing"
)

func TestZZProfTrace(t *testing.T) {
	p := os.Getenv("ZZTRACE")
	if p == "" {
		t.Skip()
	}
	for i := 0; i < 3; i++ {
		f, _ := os.Open(p)
		if _, err := (Options{}).Parse("flight.trace", f); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}
