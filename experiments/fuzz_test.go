package experiments

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/model"
)

// FuzzLoad feeds the loader arbitrary files and -set flags. It must never
// panic; every failure must be one *Error line naming the file; every
// success must give cells whose scenarios pass model.Check, each with its
// plan.
//
//	go test ./experiments -run '^$' -fuzz FuzzLoad -fuzztime 1m
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("*.toml")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src), "")
	}
	f.Add(small, "grid.load=90")
	f.Add("[scenario]\ndependency.capacity = -1\n", "")
	f.Add("[grid]\nload = { from = 1, to = 2, step = 0.5 }\n", "scenario.layers=3")
	f.Add("[[policy]]\nname = \"a\"\nlayer.0.attempts = 3\n", "policy.0.attempts=2")
	f.Fuzz(func(t *testing.T, src, set string) {
		if strings.Contains(src+set, "max_cells") {
			t.Skip("a raised max_cells legitimately expands grids too large to fuzz quickly")
		}
		var sets []string
		if set != "" {
			sets = []string{set}
		}
		e, err := Parse("fuzz.toml", []byte(src), sets)
		if err != nil {
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "fuzz.toml") || strings.Contains(msg, "\n") {
				t.Fatalf("badly formed message: %q", msg)
			}
			return
		}
		cells := e.Grid.Cells()
		if len(cells) < e.Grid.Size() || len(cells) > e.MaxCells {
			t.Fatalf("%d cells for a grid of %d (max %d)", len(cells), e.Grid.Size(), e.MaxCells)
		}
		for _, c := range cells {
			sc := c.Scenario
			if err := model.Check(&sc); err != nil {
				t.Fatalf("cell %s passed loading but not model.Check: %v", c.Label(), err)
			}
			if c.Plan == nil {
				t.Fatalf("cell %s has no plan", c.Label())
			}
		}
	})
}
