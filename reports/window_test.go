package reports

import (
	"bytes"
	"context"
	"strconv"
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// TestWindowColumnsInResults: a window's columns follow the metrics in
// results.csv, with their spread over replicates among the _sd columns,
// and hold what the engines measured; a finding quotes them.
func TestWindowColumnsInResults(t *testing.T) {
	src := `
engine = "stochastic"
seed = 3
findings = ["Goodput after the blip: {successes_per_s_after[3s]%.1f} requests/s."]
[scenario]
tick = "10ms"
duration = "40s"
load = 40
arrivals = "poisson"
replicates = 3
layer = [{ attempts = 6, timeout = "500ms" }]
fault = [{ kind = "outage", start = "10s", length = "3s" }]
dependency = { capacity = 60, drop_expired = true, collapse = { demand = "offered", window = "2s", slope = 0.5, floor = 0.1 } }
[[window]]
name = "after"
from = "20s"
to = "40s"
columns = ["successes", "healthy"]
[grid]
blip = ["1s", "3s"]
`
	e, results := runSource(t, src)
	var buf bytes.Buffer
	if err := WriteResults(&buf, e.Grid, results, nil); err != nil {
		t.Fatal(err)
	}
	tab := tableOf(t, &buf)
	for _, name := range []string{"successes_per_s_after", "healthy_share_after", "successes_per_s_after_sd", "healthy_share_after_sd"} {
		if _, ok := tab.col[name]; !ok {
			t.Fatalf("results.csv has no %s column: %v", name, tab.col)
		}
	}
	if tab.col["successes_per_s_after"] < tab.col["recovered_share"] || tab.col["successes_per_s_after_sd"] < tab.col["retries_refused_sd"] {
		t.Errorf("window columns out of place: %v", tab.col)
	}
	for i, r := range results {
		if got, want := tab.row(i).text("successes_per_s_after"), formatNumber(r.Windows[0].Mean); got != want || r.Windows[0].Mean <= 0 {
			t.Errorf("row %d: %s, the engine measured %s", i, got, want)
		}
	}
	// After the 1 s blip the server is healthy and serves the load; after
	// the 3 s blip it has collapsed.
	one, three := results[0].Windows, results[1].Windows
	if one[1].Mean != 1 || three[1].Mean != 0 || one[0].Mean < 35 || three[0].Mean > 10 {
		t.Errorf("after the 1 s blip %+v, after the 3 s blip %+v", one, three)
	}
	got := findings(&e.Report, e.Grid, results)[0]
	if want := "Goodput after the blip: " + strconv.FormatFloat(three[0].Mean, 'f', 1, 64) + " requests/s."; got != want {
		t.Errorf("finding %q, want %q", got, want)
	}
}

// runSource parses an experiment written in src and runs it.
func runSource(t *testing.T, src string) (*experiments.Experiment, []model.Result) {
	t.Helper()
	e, err := experiments.Parse("x.toml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	results, err := sweep.Run(context.Background(), e.Grid.Cells(), sweep.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return e, results
}
