package plots_test

import (
	"fmt"

	"github.com/stormlab/stormlab/plots"
)

// renderWithFindings renders an experiment and says what its figures find.
func renderWithFindings(src string) ([]plots.Figure, []string) {
	e, results, figs := renderResults(src)
	return figs, plots.Findings(e.Grid, results, e.Figures)
}

// Goodput on a load ramp up through capacity and back down, with and
// without retries: without them the way down retraces the way up; with
// 27 attempts the system stays down long after the load is back under
// capacity.
func ExampleRender_hysteresis() {
	figs, said := renderWithFindings(`
seed = 1
series = true
[scenario]
engine = "queue"
duration = "10m"
dependency.capacity = 100
layer = [{ timeout = "1s" }]
shape = [{ at = "0s", load = 50 }, { at = "5m", load = 110 }, { at = "10m", load = 0 }]

[[policy]]
name = "no retries"
attempts = 1

[[policy]]
name = "27 attempts"
attempts = 27

[[figure]]
kind = "hysteresis"
`)
	describe(figs[0])
	for _, s := range said {
		fmt.Println(s)
	}
	// Output:
	// hysteresis: "Goodput on a load ramp up and back down"
	// PNG 1600×900, SVG true
	// Queue engine, capacity 100 calls/s, load 50→110→0 requests/s at 0s, 300s, 10m, timeout 1s, 1 or 27 attempts per request, no fault, 1s ticks over 10m
	// With no retries the system first turns unhealthy at 106 requests/s on the way up and is healthy for good again at 85 requests/s on the way down, 20% lower. In between, at 96 requests/s, it answers 96 requests/s with a success on the way up and 0 on the way down.
	// With 27 attempts the system first turns unhealthy at 106 requests/s on the way up and has not come back by the end of the run, at 0 requests/s.
}

// Time to collapse without a fault against the load, on the FIG. 1 server
// with immediate retries: the closer the load to capacity, the sooner it
// collapses.
func ExampleRender_collapse() {
	figs, said := renderWithFindings(`
engine = "stochastic"
seed = 2
[scenario]
tick = "10ms"
duration = "2m"
arrivals = "poisson"
replicates = 6
layer = [{ attempts = 6, timeout = "500ms" }]
health = { rule = "goodput", goodput = 0.5, window = "10s" }
dependency = { capacity = 60, drop_expired = true, collapse = { demand = "offered", window = "2s", slope = 0.5, floor = 0.1 } }

[grid]
load = [50, 57, 59]

[[figure]]
kind = "collapse"
x = "load"
`)
	describe(figs[0])
	for _, s := range said {
		fmt.Println(s)
	}
	// Output:
	// collapse-load: "Time to collapse against load"
	// PNG 1600×900, SVG true
	// Stochastic engine, capacity 60 calls/s, load 50, 57 or 59 requests/s, timeout 500ms, 6 attempts per request, no fault, 10ms ticks over 2m, 6 seeded replicates per cell
	// The system collapses without any fault: its mean time to collapse falls from about 54 s at load 57 to 25 s at load 59, 2-fold shorter; no replicate collapsed at load 50. The mean time to collapse counts every replicate, the time they ran healthy ÷ their collapses (the estimate for a constant risk of collapse); where few collapsed it rests on few events.
	// | load | collapsed within the run | mean time to collapse of those (s) | 10th–90th percentile (s) | mean time to collapse, every replicate (s) |
	// |---|---|---|---|---|
	// | 57 | 6 of 6 | 54 | 26–80 | 54 |
	// | 59 | 6 of 6 | 25 | 15–44 | 25 |
}
