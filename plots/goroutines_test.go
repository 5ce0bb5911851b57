package plots

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestNoGoroutines: make test runs this package's tests without the race
// detector, which finds races only between goroutines and slowed them
// twentyfold: the package starts none and its tests run one at a time (its
// code runs under the detector in the command's tests, where the pipeline
// draws the figures). This fails when a go statement or a parallel test
// appears here, for the Makefile to run the package under the detector
// again.
func TestNoGoroutines(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				t.Errorf("%v: a go statement: run plots under the race detector (Makefile)", fset.Position(n.Pos()))
			case *ast.SelectorExpr:
				if n.Sel.Name == "Parallel" {
					t.Errorf("%v: a parallel test: run plots under the race detector (Makefile)", fset.Position(n.Pos()))
				}
			}
			return true
		})
	}
}
