package reports

import (
	"testing"

	"github.com/stormlab/stormlab/experiments/sweep"
)

// An axis's values are listed with commas, or with semicolons when a value
// holds a comma itself, so that "p95, cap 2%" reads as one value.
func TestSummarizeValues(t *testing.T) {
	vals := func(texts ...string) []sweep.Value {
		var out []sweep.Value
		for _, s := range texts {
			out = append(out, sweep.Value{Text: s})
		}
		return out
	}
	for _, c := range []struct {
		vs   []sweep.Value
		want string
	}{
		{vals("1", "3", "9"), "1, 3, 9"},
		{vals("none", "p95, cap 2%", "p90, cap 10%"), "none; p95, cap 2%; p90, cap 10%"},
		{vals("a", "b", "c", "d", "e", "f", "g", "h", "i, j"), "a; b; c; …; i, j (9 values)"},
		{vals("1", "2", "3", "4", "5", "6", "7", "8", "9"), "1, 2, 3, …, 9 (9 values)"},
	} {
		if got := summarizeValues(c.vs); got != c.want {
			t.Errorf("summarizeValues = %q, want %q", got, c.want)
		}
	}
}
