package plots_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"log"
	"strings"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/plots"
)

// A small blip experiment: two policies, three loads, three blip lengths,
// five simulated minutes. The examples below add their figure to it.
const small = `
title = "A small blip grid"
seed = 1

[scenario]
engine = "queue"
tick = "1s"
duration = "5m"
dependency.capacity = 100
layer = [{ timeout = "1s" }]
fault = [{ kind = "outage", start = "60s", length = "30s" }]

[[policy]]
name = "no retries"
attempts = 1

[[policy]]
name = "27 attempts"
attempts = 27
`

// render parses the experiment, runs it and renders its figures.
func render(src string, sets ...string) (*experiments.Experiment, []plots.Figure) {
	e, _, figs := renderResults(src, sets...)
	return e, figs
}

// renderResults is render, with the results the figures were drawn from.
func renderResults(src string, sets ...string) (*experiments.Experiment, []model.Result, []plots.Figure) {
	e, err := experiments.Parse("small.toml", []byte(src), sets)
	if err != nil {
		log.Fatal(err)
	}
	results, err := sweep.Run(context.Background(), e.Grid.Cells(), sweep.Options{Workers: 4})
	if err != nil {
		log.Fatal(err)
	}
	figs, err := plots.Render(e.Grid, results, e.Figures)
	if err != nil {
		log.Fatal(err)
	}
	return e, results, figs
}

// panels is the number of panels a figure has: one per value of its panel
// axis.
func panels(e *experiments.Experiment, f spec.Figure) int {
	if ax, ok := e.Grid.Axis(f.Panel); ok {
		return len(ax.Values)
	}
	return 1
}

// describe prints what a report needs of a figure.
func describe(f plots.Figure) {
	cfg, err := png.DecodeConfig(bytes.NewReader(f.PNG))
	if err != nil {
		log.Fatal(err)
	}
	params, _, _ := strings.Cut(f.Caption, ". ")
	fmt.Printf("%s: %q\n", f.Name, f.Title)
	fmt.Printf("PNG %d×%d, SVG %t\n", cfg.Width, cfg.Height, bytes.HasPrefix(f.SVG, []byte("<?xml")))
	fmt.Println(params)
}

// A phase diagram: load × blip length, one panel per policy.
func ExampleRender_phase() {
	e, figs := render(small + `
[grid]
policy = ["no retries", "27 attempts"]
load = [60, 80, 95]
blip = ["5s", "20s", "40s"]

[[figure]]
kind = "phase"
name = "phase"
title = "Which blips does the system survive?"
x = "load"
y = "blip"
panel = "policy"
rule_of_thumb = true
`)
	for i, f := range figs {
		describe(f)
		fmt.Println("panels:", panels(e, e.Figures[i]))
	}
	// Output:
	// phase: "Which blips does the system survive?"
	// PNG 1600×900, SVG true
	// Queue engine, capacity 100 calls/s, load 60, 80 or 95 requests/s, timeout 1s, 1 or 27 attempts per request, outage at 60s for 5s, 20s or 40s, 1s ticks over 5m
	// panels: 2
}

// Recovery time against load, one line per policy; the policy that never
// recovers is drawn in a band above the top.
func ExampleRender_lines() {
	e, figs := render(small + `
[grid]
policy = ["no retries", "27 attempts"]
load = [60, 70, 80, 90]

[[figure]]
kind = "lines"
name = "recovery-by-load"
title = "Recovery time against load"
x = "load"
line = "policy"
`)
	for i, f := range figs {
		describe(f)
		fmt.Println("panels:", panels(e, e.Figures[i]))
	}
	// Output:
	// recovery-by-load: "Recovery time against load"
	// PNG 1600×900, SVG true
	// Queue engine, capacity 100 calls/s, load 60, 70, 80 or 90 requests/s, timeout 1s, 1 or 27 attempts per request, outage at 60s for 30s, 1s ticks over 5m
	// panels: 1
}

// Time series of offered load and queue, one line per policy.
func ExampleRender_series() {
	e, figs := render(small+`
[[figure]]
kind = "series"
name = "timeseries"
title = "Queue and offered load through a 30-second blip"
`, "series=true")
	series := 0
	for _, c := range e.Grid.Cells() {
		if c.Series {
			series++
		}
	}
	for _, f := range figs {
		describe(f)
		fmt.Println("cells drawn:", series)
	}
	// Output:
	// timeseries: "Queue and offered load through a 30-second blip"
	// PNG 1600×900, SVG true
	// Queue engine, capacity 100 calls/s, load 70 requests/s, timeout 1s, 1 or 27 attempts per request, outage at 60s for 30s, 1s ticks over 5m
	// cells drawn: 2
}

// Amplification by retry policy, one bar per blip length: bars suit a
// configuration axis whose values are names. A 10-second outage multiplies
// the calls of the policies that retry; with no blip every policy sends one
// call per request.
func ExampleRender_bars() {
	e, err := experiments.Parse("bars.toml", []byte(`
title = "Amplification by policy"
seed = 1

[scenario]
engine = "queue"
duration = "5m"
dependency.capacity = 100
layer = [{ timeout = "1s" }]
fault = [{ kind = "outage", start = "60s", length = "30s" }]

[[policy]]
name = "no retries"
attempts = 1

[[policy]]
name = "3 attempts"
attempts = 3

[[policy]]
name = "9 attempts"
attempts = 9

[grid]
blip = ["0s", "10s"]

[[figure]]
kind = "bars"
name = "amplification"
x = "policy"
line = "blip"
metric = "amplification"
`), nil)
	if err != nil {
		log.Fatal(err)
	}
	results, err := sweep.Run(context.Background(), e.Grid.Cells(), sweep.Options{Workers: 4})
	if err != nil {
		log.Fatal(err)
	}
	figs, err := plots.Render(e.Grid, results, e.Figures)
	if err != nil {
		log.Fatal(err)
	}
	describe(figs[0])
	_, more, _ := strings.Cut(figs[0].Caption, ". ")
	fmt.Println(more)
	for i, c := range e.Grid.Cells() {
		fmt.Printf("%s: %.2f\n", c.Label(), results[i].Amplification())
	}
	// Output:
	// amplification: "Amplification (calls per request) by policy and blip length"
	// PNG 1600×900, SVG true
	// Queue engine, capacity 100 calls/s, load 70 requests/s, timeout 1s, 1, 3 or 9 attempts per request, outage at 60s for 0s or 10s, 1s ticks over 5m
	// One group of bars per policy, one bar per blip length; bar height: calls / requests.
	// policy=no retries, blip=0s: 1.00
	// policy=no retries, blip=10s: 1.00
	// policy=3 attempts, blip=0s: 1.00
	// policy=3 attempts, blip=10s: 2.58
	// policy=9 attempts, blip=0s: 1.00
	// policy=9 attempts, blip=10s: 7.16
}
