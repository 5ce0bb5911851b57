package main

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// solvedColumn is a column of a solved chain as the page holds it.
type solvedColumn struct {
	Name  string   `json:"name"`
	Value *float64 `json:"value"`
}

// TestBrowserMarkov: a reader who picks a markov experiment in the
// explorer meets its chain, not a run: the live run the tab had ends, the
// run's controls, faults, policy form and phase diagram go, and the page
// shows the chain's verdict, its markov_* columns as the committed
// results.csv has them for the experiment's first cell, and the
// stationary distribution of the queue as a chart; picking another cell
// shows that cell's. Picking a policy of
// markov-vs-simulation that the stochastic engine runs brings the live
// run back. The solved page is compared with its golden screenshot.
func TestBrowserMarkov(t *testing.T) {
	ctx, cancel, url := explorer(t, "../../experiments/server-60.toml", "../../experiments/markov-server.toml", "../../experiments/markov-vs-simulation.toml")
	defer cancel()
	poll := func(expr string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(60*time.Second))
	}
	pick := func(experiment, policy string) chromedp.Action[chromedp.Void] {
		return chromedp.Evaluate[chromedp.Void](`(() => {
			const e = document.getElementById('experiment');
			e.value = ` + strconv.Quote(experiment) + `;
			e.dispatchEvent(new Event('change'));
			document.getElementById('policy').value = ` + strconv.Quote(policy) + `;
			document.getElementById('start').click(); })()`)
	}
	shown := func(sel string) bool {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`getComputedStyle(document.querySelector(`+strconv.Quote(sel)+`)).display !== 'none'`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/?experiment=server-60&policy=immediate"),
		poll(`window.stormlab.rows.length > 0`)); err != nil {
		t.Fatalf("opening the page: %v", err)
	}
	if err := chromedp.Do(ctx, pick("markov-server", ""),
		poll(`window.stormlab.solved && window.stormlab.solved.experiment === 'markov-server' && document.querySelector('#chart-solved canvas')`)); err != nil {
		t.Fatalf("picking markov-server: %v", err)
	}
	run, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.stormlab.run === null && window.stormlab.ws === null`))
	if err != nil || !run {
		t.Errorf("the live run is still attached after picking a markov experiment (%v)", err)
	}
	for _, sel := range []string{"#live", "#policy-panel", "#around", "#export"} {
		if shown(sel) {
			t.Errorf("%s is still shown for a solved chain", sel)
		}
	}
	if !shown("#solved") {
		t.Fatal("the solved chain is not shown")
	}
	rows := readCSV(t, "../../reports/markov-server/results.csv")
	// matches checks the page against results.csv's row for the cell it
	// shows (grid order: row i+1 is cell i).
	matches := func(i int) {
		t.Helper()
		want := map[string]string{}
		for j, h := range rows[0] {
			want[h] = rows[i+1][j]
		}
		verdict, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('solved-verdict').textContent`))
		if err != nil || verdict != want["markov_verdict"] {
			t.Errorf("cell %d: the page's verdict is %q (%v); results.csv has %q", i, verdict, err, want["markov_verdict"])
		}
		cols, err := chromedp.Run(ctx, chromedp.Evaluate[[]solvedColumn](`window.stormlab.solved.columns`))
		if err != nil || len(cols) < 8 {
			t.Fatalf("cell %d: columns %v (%v)", i, cols, err)
		}
		for _, c := range cols {
			w, err := strconv.ParseFloat(want[c.Name], 64)
			if err != nil || c.Value == nil || math.Abs(*c.Value-w) > 1e-6*math.Max(1, math.Abs(w)) {
				t.Errorf("cell %d, %s: the page has %v, results.csv %q", i, c.Name, c.Value, want[c.Name])
			}
		}
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#solved-table tbody tr').length`))
		if err != nil || n != len(cols) {
			t.Errorf("cell %d: the table has %d rows (%v), want %d", i, n, err, len(cols))
		}
	}
	matches(0)
	// The reader picks a cell where the chain holds two stable states:
	// 8.3 requests/s without retries (the fourth load, the first attempts).
	const bimodal = 3 * 5
	if err := chromedp.Do(ctx, chromedp.SetValue(`#solved-cell`, strconv.Itoa(bimodal)),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('solved-cell').dispatchEvent(new Event('change'))`),
		poll(`window.stormlab.solved.cell === `+strconv.Itoa(bimodal))); err != nil {
		t.Fatalf("picking a cell: %v", err)
	}
	if label, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.stormlab.solved.cells[window.stormlab.solved.cell]`)); err != nil || label != "load=8.3, layer.0.attempts=1" {
		t.Errorf("the cell picked is %q (%v)", label, err)
	}
	matches(bimodal)
	shot, err := chromedp.Run(ctx, chromedp.Screenshot(`#solved`))
	if err != nil {
		t.Fatal(err)
	}
	checkShot(t, "markov-solved", shot)

	// markov-vs-simulation: the chain's policy is solved, a simulated one
	// runs live again.
	if err := chromedp.Do(ctx, pick("markov-vs-simulation", "chain"),
		poll(`window.stormlab.solved && window.stormlab.solved.experiment === 'markov-vs-simulation'`)); err != nil {
		t.Fatalf("picking the chain of markov-vs-simulation: %v", err)
	}
	if err := chromedp.Do(ctx, pick("markov-vs-simulation", "simulated from empty"),
		poll(`window.stormlab.solved === null && window.stormlab.run && window.stormlab.rows.length > 0`)); err != nil {
		t.Fatalf("picking a simulated policy of markov-vs-simulation: %v", err)
	}
	if shown("#solved") || !shown("#live") {
		t.Error("a simulated policy still shows a solved chain, or not its run")
	}
}
