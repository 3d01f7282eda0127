package htmltree

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"maps"
	"slices"
	"strconv"
	"testing"
)

// TestBodyNames: the fast path's lists are the names that bodyStartTag
// and bodyEndTag handle by name, read from body.go itself, and each has
// a slot in atomTable (an unknown name takes the fast path).
func TestBodyNames(t *testing.T) {
	f, err := parser.ParseFile(gotoken.NewFileSet(), "body.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for fn, want := range map[string]map[string]bool{"bodyStartTag": bodyStartNames, "bodyEndTag": bodyEndNames} {
		got := map[string]bool{}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name != fn {
				continue
			}
			for _, st := range fd.Body.List {
				sw, ok := st.(*ast.SwitchStmt)
				if !ok {
					continue
				}
				for _, c := range sw.Body.List {
					for _, e := range c.(*ast.CaseClause).List {
						if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == gotoken.STRING {
							s, _ := strconv.Unquote(lit.Value)
							got[s] = true
						}
					}
				}
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s names %v; the fast path's list is %v", fn, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
		if tableEnd[0] {
			t.Error("a name of tableEnd has no slot in atomTable")
		}
		for n := range want {
			if _, slot := atom([]byte(n)); slot == 0 {
				t.Errorf("%q has no slot in atomTable", n)
			}
		}
	}
}
