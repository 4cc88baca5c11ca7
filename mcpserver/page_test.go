package mcpserver

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPaginateProperty: over generated lists (lengths, item sizes, limits
// and byte bounds drawn at random), the cursors walk the list once in
// order; every page holds at most limit items and at most maxBytes of
// items unless it holds one; a cursor at the end or of another query is
// refused.
func TestPaginateProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 1))
	for trial := 0; trial < 300; trial++ {
		n := r.IntN(200)
		items := make([]string, n)
		for i := range items {
			items[i] = strings.Repeat("x", r.IntN(300))
		}
		limit := r.IntN(60)
		maxBytes := 1 + r.IntN(4000)
		key := queryKey("t", string(rune('a'+trial%26)))
		var got []string
		cursor := ""
		for pages := 0; ; pages++ {
			if pages > n+1 {
				t.Fatalf("trial %d: more pages than items", trial)
			}
			page, p, err := paginate(items, cursor, key, limit, maxBytes)
			if err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			if p.Total != n || p.Offset != len(got) {
				t.Fatalf("trial %d: page at %d of %d, want at %d of %d", trial, p.Offset, p.Total, len(got), n)
			}
			want := limit
			if want == 0 {
				want = DefaultLimit
			}
			if len(page) > want {
				t.Fatalf("trial %d: %d items, limit %d", trial, len(page), want)
			}
			if b, _ := json.Marshal(page); len(page) > 1 && len(b) > maxBytes+len(page)+2 {
				t.Fatalf("trial %d: %d bytes in %d items, bound %d", trial, len(b), len(page), maxBytes)
			}
			if len(page) == 0 && n > 0 {
				t.Fatalf("trial %d: an empty page before the end", trial)
			}
			got = append(got, page...)
			if p.NextCursor == "" {
				break
			}
			if _, _, err := paginate(items, p.NextCursor, queryKey("other"), limit, maxBytes); err == nil {
				t.Fatalf("trial %d: a cursor taken by another query", trial)
			}
			cursor = p.NextCursor
		}
		if len(got) != n {
			t.Fatalf("trial %d: the pages held %d items of %d", trial, len(got), n)
		}
		for i := range got {
			if got[i] != items[i] {
				t.Fatalf("trial %d: item %d out of order", trial, i)
			}
		}
		if _, _, err := paginate(items, encodeCursor(n, key), key, limit, maxBytes); n > 0 && err == nil {
			t.Fatalf("trial %d: a cursor at the end was taken", trial)
		}
	}
}
