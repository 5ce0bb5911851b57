package reports

import (
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/model"
)

// TestTallyNeverHealthy: without a fault, a stuck cell that was unhealthy
// from its first health window on is "never healthy", not "collapsed",
// and one that was healthy for a while and then tipped for good is
// "collapsed with no fault".
func TestTallyNeverHealthy(t *testing.T) {
	const src = `engine = "stochastic"
[scenario]
load = 100
duration = "60s"
tick = "100ms"
dependency = { capacity = 200, queue = "none" }
health = { window = "1s" }
[grid]
"dependency.failure_probability" = [0, 0.3, 0.01]
`
	e, err := experiments.Parse("tally.toml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	cells := e.Grid.Cells()
	if len(cells) != 3 || cells[0].Plan.Triggered() {
		t.Fatalf("%d cells, the first triggered: %v", len(cells), cells[0].Plan.Triggered())
	}
	stuck := func(collapse float64) model.Result {
		r := model.Result{Replicates: 1}
		r.Verdict, r.CollapseS, r.Spread.Collapsed = model.Stuck, collapse, 1
		return r
	}
	healthy := model.Result{Replicates: 1, RecoveredShare: 1}
	healthy.Verdict = model.Recovered
	results := []model.Result{healthy, stuck(0.9), stuck(31)}
	got := tally(e.Grid, results)
	for _, want := range []string{
		"1 of 3 cells, none with a fault, were healthy at the end of the 1m run",
		"1 unhealthy at the end, collapsed with no fault",
		"1 never healthy: with no fault, below the health rule from their first window to the end",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("tally says %q, want %q in it", got, want)
		}
	}
	// A collapse after the first window is a collapse.
	results[1] = stuck(1.1)
	if got := tally(e.Grid, results); strings.Contains(got, "never healthy") {
		t.Errorf("a collapse at 1.1 s with a 1 s window counted as never healthy: %q", got)
	}
}
