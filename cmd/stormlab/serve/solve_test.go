package serve

import (
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/model"
)

// markovServer is Metafor's single server, solved by the markov engine.
const markovServer = "../../../experiments/markov-server.toml"

// TestSolve: a markov experiment has no run to stream: POST /api/runs
// refuses it, saying where its results are, and POST /api/solve answers
// with its first cell's chain, the columns stormlab run writes for that
// cell and a stationary distribution of the queue that sums to 1 with the
// chain's mean; the experiment list names it solved, and a setup another
// engine runs is refused by /api/solve.
func TestSolve(t *testing.T) {
	_, hs := testServer(t, Options{Files: []string{fig1, markovServer}})
	code, text := call(t, "POST", hs.URL+"/api/runs", map[string]any{"experiment": "markov-server"})
	if code != http.StatusBadRequest || !strings.Contains(text, "POST /api/solve") || !strings.Contains(text, "stormlab run "+markovServer) {
		t.Errorf("a live run of markov-server: %d %s; want 400 naming POST /api/solve and stormlab run", code, text)
	}
	code, text = call(t, "POST", hs.URL+"/api/solve", map[string]any{"experiment": "server-60", "policy": "immediate"})
	if code != http.StatusBadRequest || !strings.Contains(text, "start a run of it") {
		t.Errorf("solving server-60: %d %s; want 400 saying to start a run", code, text)
	}
	code, text = call(t, "GET", hs.URL+"/api/experiments", nil)
	var list []experimentView
	if err := json.Unmarshal([]byte(text), &list); code != http.StatusOK || err != nil || len(list) != 2 {
		t.Fatalf("the list: %d %v %s", code, err, text)
	}
	if len(list[0].Solved) != 0 || len(list[1].Solved) != 1 || list[1].Solved[0] != "" {
		t.Errorf("solved setups: server-60 %q, markov-server %q; want none, and its scenario", list[0].Solved, list[1].Solved)
	}

	code, text = call(t, "POST", hs.URL+"/api/solve", map[string]any{"experiment": "markov-server"})
	var got solved
	if err := json.Unmarshal([]byte(text), &got); code != http.StatusOK || err != nil {
		t.Fatalf("solving markov-server: %d %v %s", code, err, text)
	}
	e, err := experiments.Load(markovServer, nil)
	if err != nil {
		t.Fatal(err)
	}
	cells := e.Grid.Cells()
	cell := cells[0]
	want, err := model.RunPlan(t.Context(), cell.Plan, e.Grid.Seed, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Cells) != len(cells) || got.Cell != 0 || got.Cells[0] != cell.Label() || got.Verdict != want.Markov.Phase.String() || got.High != 30 || got.Run != "stormlab run "+markovServer {
		t.Errorf("solved cell %d of %d (%q): verdict %s, high mode beyond %g, %q; want 0 of %d (%q), %s, 30, stormlab run",
			got.Cell, len(got.Cells), got.Cells, got.Verdict, got.High, got.Run, len(cells), cell.Label(), want.Markov.Phase)
	}
	seen := map[string]bool{}
	for _, c := range got.Columns {
		m, ok := model.LookupMetric(c.Name)
		if !ok || c.Value == nil || *c.Value != m.Value(&want) || c.Doc == "" {
			t.Errorf("column %s = %v (%q); stormlab run writes %v", c.Name, c.Value, c.Doc, m.Value(&want))
		}
		seen[c.Name] = true
	}
	for _, name := range []string{"markov_queue_mean", "markov_high_p", "markov_fill_s", "markov_drain_s", "markov_mixing_s"} {
		if !seen[name] {
			t.Errorf("no column %s", name)
		}
	}
	// Another cell: Metafor's README point, 9.5 requests/s and four
	// retries, the chain's verdict as stormlab run has it.
	i := len(cells) - 1 - 3*5 // load 9.5, attempts 5
	code, text = call(t, "POST", hs.URL+"/api/solve", map[string]any{"experiment": "markov-server", "cell": i})
	var other solved
	if err := json.Unmarshal([]byte(text), &other); code != http.StatusOK || err != nil {
		t.Fatalf("solving cell %d: %d %v %s", i, code, err, text)
	}
	ow, err := model.RunPlan(t.Context(), cells[i].Plan, e.Grid.Seed, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if other.Cells[other.Cell] != "load=9.5, layer.0.attempts=5" || other.Verdict != ow.Markov.Phase.String() {
		t.Errorf("cell %d: %q %s; want load=9.5, layer.0.attempts=5, %s", i, other.Cells[other.Cell], other.Verdict, ow.Markov.Phase)
	}
	code, text = call(t, "POST", hs.URL+"/api/solve", map[string]any{"experiment": "markov-server", "cell": len(cells)})
	if code != http.StatusBadRequest || !strings.Contains(text, "cell: must be from 0 to 94") {
		t.Errorf("cell %d: %d %s; want 400 naming the cells", len(cells), code, text)
	}
	sum, mean := 0.0, 0.0
	for n, p := range got.Queue {
		sum += p
		mean += float64(n) * p
	}
	if len(got.Queue) != 100 || math.Abs(sum-1) > 1e-9 || math.Abs(mean-want.Markov.QueueMean) > 1e-9 {
		t.Errorf("the queue's distribution: %d values summing to %v with mean %v; want 100, 1 and %v", len(got.Queue), sum, mean, want.Markov.QueueMean)
	}
}
