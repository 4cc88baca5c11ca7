package capture

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
)

// TestReasonsListsEveryReason: Reasons (watch's zero series) holds every
// Reason constant reason.go declares, once: a reason added to the
// constants and not to the list would have no zero series.
func TestReasonsListsEveryReason(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "reason.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			for i, n := range s.(*ast.ValueSpec).Names {
				if strings.HasPrefix(n.Name, "Reason") {
					lit := s.(*ast.ValueSpec).Values[i].(*ast.BasicLit).Value
					declared = append(declared, strings.Trim(lit, `"`))
				}
			}
		}
	}
	if len(declared) < 10 {
		t.Fatalf("found %d Reason constants in reason.go", len(declared))
	}
	got := slices.Clone(Reasons)
	slices.Sort(got)
	slices.Sort(declared)
	if !slices.Equal(got, slices.Compact(slices.Clone(got))) || !slices.Equal(got, declared) {
		t.Errorf("Reasons %v, the constants %v", got, declared)
	}
}
