package reports

import (
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
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

// A cell's sentence counts its peak queue in calls, one call in the
// singular: a queue of 1 (a mean over replicates, rounded) is "1 call".
func TestCellSentenceQueue(t *testing.T) {
	e, err := experiments.Parse("graph.toml", []byte(graphCells), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := e.Grid.Cells()[2] // the chain
	for _, q := range []struct {
		peak float64
		want string
	}{{1.2, "its queue at 1 call,"}, {2.8, "its queue at 3 calls,"}} {
		r := model.Result{Metrics: model.Metrics{PeakQueue: q.peak, Verdict: model.Recovered}, Replicates: 1}
		if got := cellSentence(&c, &r); !strings.Contains(got, q.want) {
			t.Errorf("peak queue %v: %q lacks %q", q.peak, got, q.want)
		}
	}
}
