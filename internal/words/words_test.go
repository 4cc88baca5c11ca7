package words

import (
	"sort"
	"strings"
	"testing"
)

func TestPlural(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "0 moments"}, {1, "1 moment"}, {2, "2 moments"}} {
		if got := Plural(tt.n, "moment"); got != tt.want {
			t.Errorf("Plural(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestNatural(t *testing.T) {
	in := []string{"exec-10", "exec-2", "during-10", "during-2", "after", "exec-002", "exec-1", "x99999999999999999999999", "x100000000000000000000000"}
	sort.Slice(in, func(i, j int) bool { return NaturalLess(in[i], in[j]) })
	want := "after during-2 during-10 exec-1 exec-002 exec-2 exec-10 x99999999999999999999999 x100000000000000000000000"
	if got := strings.Join(in, " "); got != want {
		t.Errorf("order %s\nwant  %s", got, want)
	}
}
