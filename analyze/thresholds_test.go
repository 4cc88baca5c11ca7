package analyze

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// TestThresholdsBeside: each threshold is a constant of its detector's
// file (detect_*.go), listed in that detector's Thresholds under its own
// name, and every constant of a detector's file is one of its thresholds:
// a threshold is described once, beside the detector that uses it, and
// README.md's table is made from the lists (TestREADMETables).
func TestThresholdsBeside(t *testing.T) {
	files, err := filepath.Glob("detect_*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no detector files: %v", err)
	}
	var listedAll []string
	fset := token.NewFileSet()
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		var consts, listed []string
		detectors := 0
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST && gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if gd.Tok == token.CONST {
					for _, n := range vs.Names {
						consts = append(consts, n.Name)
					}
					continue
				}
				for _, v := range vs.Values {
					if lit := detectorLiteral(v); lit != nil {
						detectors++
						listed = append(listed, thresholdNames(t, fset, lit)...)
					}
				}
			}
		}
		if detectors != 1 {
			t.Errorf("%s declares %d detectors, want one a file", file, detectors)
		}
		slices.Sort(consts)
		slices.Sort(listed)
		if !slices.Equal(consts, listed) {
			t.Errorf("%s: constants %v, its detector's Thresholds %v: each constant of a detector's file is one of its thresholds", file, consts, listed)
		}
		listedAll = append(listedAll, listed...)
	}
	var inTable []string
	for _, d := range Detectors() {
		for _, th := range d.Thresholds {
			inTable = append(inTable, th.Name)
		}
	}
	slices.Sort(listedAll)
	slices.Sort(inTable)
	if !slices.Equal(listedAll, inTable) {
		t.Errorf("thresholds in the detector files %v, in the table %v", listedAll, inTable)
	}
}

// detectorLiteral returns the &Detector{...} literal v is, or nil.
func detectorLiteral(v ast.Expr) *ast.CompositeLit {
	u, ok := v.(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil
	}
	lit, ok := u.X.(*ast.CompositeLit)
	if id, isID := lit.Type.(*ast.Ident); !ok || !isID || id.Name != "Detector" {
		return nil
	}
	return lit
}

// thresholdNames returns the constants a detector literal's Thresholds
// list, checking that each row is {"Name", Name, doc}.
func thresholdNames(t *testing.T, fset *token.FileSet, lit *ast.CompositeLit) []string {
	var out []string
	for _, e := range lit.Elts {
		kv := e.(*ast.KeyValueExpr)
		if kv.Key.(*ast.Ident).Name != "Thresholds" {
			continue
		}
		for _, row := range kv.Value.(*ast.CompositeLit).Elts {
			r, ok := row.(*ast.CompositeLit)
			if !ok || len(r.Elts) != 3 {
				t.Errorf("%s: a threshold row is {\"Name\", Name, doc}", fset.Position(row.Pos()))
				continue
			}
			name, _ := r.Elts[0].(*ast.BasicLit)
			id, _ := r.Elts[1].(*ast.Ident)
			s := ""
			if name != nil {
				s, _ = strconv.Unquote(name.Value)
			}
			if id == nil || s != id.Name {
				t.Errorf("%s: threshold row names %q for another constant", fset.Position(r.Pos()), s)
				continue
			}
			out = append(out, id.Name)
		}
	}
	return out
}
