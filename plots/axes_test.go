package plots

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// Every metric has a human label of its own, not its results.csv column;
// a metric without one is named by its description.
func TestMetricLabels(t *testing.T) {
	for _, m := range model.MetricList() {
		l, ok := metricLabels[m.Name]
		if !ok {
			t.Errorf("metric %s has no entry in metricLabels", m.Name)
			continue
		}
		if got := metricLabel(m); got != l || got == m.Name || strings.Contains(got, "_") {
			t.Errorf("metric %s is labelled %q; want a label in words that differs from the column name", m.Name, got)
		}
	}
	unknown := model.Metric{Name: "new_metric", Doc: "something new per second; empty when none", Kind: "ratio"}
	if got := metricLabel(unknown); got != "something new per second" {
		t.Errorf("unknown metric labelled %q, want its description", got)
	}
	if got := metricLabel(model.Metric{Name: "bare_metric"}); got != "bare metric" {
		t.Errorf("metric without a description labelled %q, want %q", got, "bare metric")
	}
	// Captions put the columns a description names in words.
	m, _ := model.LookupMetric("window_rate_x")
	if doc := metricDoc(m); strings.Contains(doc, "_") {
		t.Errorf("window_rate_x is described as %q, with a column name", doc)
	}
}

func TestUneven(t *testing.T) {
	steps := func(from, to, step float64) []float64 {
		var out []float64
		for i := 0; from+float64(i)*step <= to+1e-9; i++ {
			out = append(out, from+float64(i)*step)
		}
		return out
	}
	for _, c := range []struct {
		name string
		xs   []float64
		want bool
	}{
		{"backoff base", []float64{0.01, 0.1, 0.25, 0.5, 1, 2, 4}, true},
		{"backoff cap", []float64{0.5, 2, 5, 10, 30}, true},
		{"attempts 1, 3, 9, 27", []float64{1, 3, 9, 27}, true},
		{"load 50..95 step 1", steps(50, 95, 1), false},
		{"blip 0..60 step 1", steps(0, 60, 1), false},
		{"budget 0..0.3 step 0.05", steps(0, 0.3, 0.05), false},
		{"load 60, 80, 95", []float64{60, 80, 95}, false},
		{"a value missing", []float64{50, 55, 65, 70}, false},
		{"two values", []float64{1, 100}, false},
	} {
		if got := uneven(c.xs); got != c.want {
			t.Errorf("%s: uneven = %v, want %v", c.name, got, c.want)
		}
	}
}

// An axis placed by index puts its values at 0, 1, 2, …, the cells' edges
// halfway between, and anything else where it falls between its
// neighbours; a linear axis leaves values as they are.
func TestPlacement(t *testing.T) {
	xs := []float64{0.01, 0.1, 0.25, 0.5, 1, 2, 4}
	p := placement{index: true, nums: xs}
	for i, x := range xs {
		if got := p.at(x); math.Abs(got-float64(i)) > 1e-12 {
			t.Errorf("at(%v) = %v, want %v", x, got, i)
		}
	}
	e := edges(xs)
	for i, x := range e {
		if got, want := p.at(x), float64(i)-0.5; math.Abs(got-want) > 1e-12 {
			t.Errorf("edge at(%v) = %v, want %v", x, got, want)
		}
	}
	if got := edges(p.positions()); !slices.Equal(got, []float64{-0.5, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5}) {
		t.Errorf("index edges = %v", got)
	}
	if got := p.at(3); math.Abs(got-5.5) > 1e-12 {
		t.Errorf("at(3) = %v, want 5.5 (halfway from 2 to 4)", got)
	}
	if got := p.at(8); math.Abs(got-8) > 1e-12 {
		t.Errorf("at(8) = %v, want 8 (the last gap extended)", got)
	}
	lin := placement{nums: []float64{50, 60, 70}}
	if got := lin.at(63.5); got != 63.5 || !slices.Equal(lin.positions(), lin.nums) {
		t.Errorf("linear at(63.5) = %v, positions %v", got, lin.positions())
	}
	// The rule of thumb over an index axis passes through the same
	// placement: drawn at a cell's centre in data units, it lands on the
	// cell's index.
	c := placeCurve(plotter.XYs{{X: 0.25, Y: 2}, {X: 1, Y: 0.5}}, p, p)
	if len(c) != 2 || c[0].X != 2 || c[0].Y != 5 || c[1].X != 4 || c[1].Y != 3 {
		t.Errorf("placed curve = %v", c)
	}
	if c := placeCurve(plotter.XYs{{X: 1, Y: math.Inf(1)}}, p, p); c != nil {
		t.Errorf("a curve of infinite points placed as %v, want nil", c)
	}
}

// Tick labels never overlap: an index axis staggers them on two lines when
// that is enough, and otherwise (or on other axes) keeps every k-th.
func TestFitTicks(t *testing.T) {
	sty := textStyle(tickSize)
	labels := []string{"10ms", "100ms", "250ms", "500ms", "1s", "2s", "4s"}
	var ticks axisTicks
	for i, l := range labels {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: l})
	}
	shown := func(ts []plot.Tick) (all []string, second int) {
		for _, tk := range ts {
			if tk.Label != "" {
				all = append(all, strings.TrimPrefix(tk.Label, "\n"))
				if strings.HasPrefix(tk.Label, "\n") {
					second++
				}
			}
		}
		return all, second
	}
	// Wide: as they are.
	got := fitTicks{Ticker: ticks, sty: sty, length: 8 * vg.Inch}.Ticks(-0.5, 6.5)
	if all, second := shown(got); len(all) != 7 || second != 0 {
		t.Errorf("wide axis: %q, %d on a second line", all, second)
	}
	// Narrow: staggered, every label kept.
	got = fitTicks{Ticker: ticks, sty: sty, length: 2.6 * vg.Inch, stagger: true}.Ticks(-0.5, 6.5)
	if all, second := shown(got); len(all) != 7 || second != 3 {
		t.Errorf("narrow index axis: %q, %d on a second line; want all 7, 3 staggered", all, second)
	}
	// Narrow without staggering, or too narrow for it: thinned.
	for _, f := range []fitTicks{
		{Ticker: ticks, sty: sty, length: 2.6 * vg.Inch},
		{Ticker: ticks, sty: sty, length: 1.2 * vg.Inch, stagger: true},
	} {
		got = f.Ticks(-0.5, 6.5)
		all, second := shown(got)
		if len(all) >= 7 || len(all) < 2 || second != 0 || all[0] != "10ms" {
			t.Errorf("length %v: %q, %d on a second line; want fewer labels from the first", f.length, all, second)
		}
		// No two kept labels closer than their half widths and the gap.
		var prev *plot.Tick
		for i := range got {
			tk := &got[i]
			if tk.Label == "" {
				continue
			}
			if prev != nil {
				d := vg.Length((tk.Value-prev.Value)/7) * f.length
				if need := (sty.Width(tk.Label)+sty.Width(prev.Label))/2 + tickGap; d < need {
					t.Errorf("length %v: %q and %q are %v apart, need %v", f.length, prev.Label, tk.Label, d, need)
				}
			}
			prev = tk
		}
	}
	// The bars' category names are not thinned; round numbers are.
	var a plot.Axis
	a.Tick.Marker = plot.ConstantTicks{}
	if fitAxis(&a, vg.Inch, false) {
		t.Error("fitAxis wraps the bars' category ticks")
	}
	a.Tick.Marker = niceTicks{}
	if !fitAxis(&a, vg.Inch, false) {
		t.Error("fitAxis leaves nice ticks alone")
	}
	if !fitAxis(&a, vg.Inch, false) {
		t.Error("fitAxis does not refit its own ticker")
	} else if f, ok := a.Tick.Marker.(fitTicks); !ok || f.Ticker != (niceTicks{}) {
		t.Errorf("refitted ticker %#v wraps a fitted one", a.Tick.Marker)
	}
}

// unevenTOML sweeps an uneven backoff over an open and a closed loop.
const unevenTOML = `
engine = "stochastic"
seed = 7

[scenario]
tick = "10ms"
duration = "30s"
layer = [{ attempts = 3, timeout = "500ms", backoff = { kind = "exponential", factor = 2 } }]
fault = [{ kind = "outage", start = "5s", length = "2s" }]
dependency.capacity = 60

[[grid.loop]]
name = "open"
load = 40
arrivals = "poisson"

[[grid.loop]]
name = "closed"
arrivals = "closed"
clients = 50
think = "1250ms"
load = 0

[grid]
"backoff.base" = ["10ms", "100ms", "250ms", "1s", "4s"]
"backoff.cap" = ["500ms", "2s", "10s"]

[[figure]]
kind = "phase"
name = "phase"
x = "backoff.base"
y = "backoff.cap"
panel = "loop"
metric = "window_rate_x"

[[figure]]
kind = "lines"
name = "lines"
x = "backoff.base"
line = "loop"
metric = "window_rate_x"
only = { "backoff.cap" = "2s" }
`

// Uneven axes are placed by index and the captions say so; the facts tell
// open from closed loops.
func TestRenderUneven(t *testing.T) {
	e := parse(t, unevenTOML)
	figs, err := Render(e.Grid, run(t, e, 4), e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 2 {
		t.Fatalf("got %d figures", len(figs))
	}
	for _, f := range figs {
		if !strings.Contains(f.Caption, "load 40 requests/s (open) or 50 clients thinking 1.25s (closed)") {
			t.Errorf("%s: caption %q does not tell the loops apart", f.Name, f.Caption)
		}
	}
	if c := figs[0].Caption; !strings.Contains(c, "Backoff base and backoff cap: values evenly spaced, not to scale.") {
		t.Errorf("phase caption %q does not say its axes are not to scale", c)
	}
	if c := figs[1].Caption; !strings.Contains(c, "Backoff base: values evenly spaced, not to scale.") {
		t.Errorf("lines caption %q does not say its x axis is not to scale", c)
	}
	if *outDir != "" {
		writeFigures(t, *outDir+"/uneven", figs)
	}
}

func TestFacts(t *testing.T) {
	cell := func(f func(sc *model.Scenario)) sweep.Cell {
		sc := model.Default()
		sc.Engine = "stochastic" // it models a closed loop
		f(&sc)
		p, err := sc.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		return sweep.Cell{Scenario: sc, Plan: p}
	}
	open := func(sc *model.Scenario) { sc.Load = 40 }
	closed := func(sc *model.Scenario) {
		// The think time the run pauses: five ticks of 250 ms.
		sc.Arrivals, sc.Load, sc.Clients, sc.Think, sc.Tick = "closed", 0, 50, model.Duration(1250e6), model.Duration(250e6)
	}
	burst := func(sc *model.Scenario) { sc.Arrivals, sc.Clients = "burst", 50 }
	find := func(fs []string, prefix string) string {
		for _, f := range fs {
			if strings.Contains(f, prefix) {
				return f
			}
		}
		return ""
	}
	for _, c := range []struct {
		cells []sweep.Cell
		want  string
	}{
		{[]sweep.Cell{cell(open)}, "load 40 requests/s"},
		{[]sweep.Cell{cell(closed)}, "50 clients thinking 1.25s (closed loop)"},
		{[]sweep.Cell{cell(open), cell(closed)}, "load 40 requests/s (open) or 50 clients thinking 1.25s (closed)"},
		{[]sweep.Cell{cell(burst)}, "a burst of 50 requests at the start"},
	} {
		fs := facts(rowsOf(c.cells, nil))
		if got := fs[2]; got != c.want {
			t.Errorf("arrivals: %q, want %q", got, c.want)
		}
		if strings.Contains(strings.Join(fs, " · "), "load 0") {
			t.Errorf("facts %q give a closed loop's load", fs)
		}
	}

	none := cell(func(sc *model.Scenario) { sc.Fault = nil })
	outage := cell(func(sc *model.Scenario) {
		sc.Fault = []model.Fault{{Kind: "outage", Start: model.Seconds(5), Length: model.Seconds(1)}}
	})
	degradation := cell(func(sc *model.Scenario) {
		sc.Fault = []model.Fault{{Kind: "degradation", Start: model.Seconds(5), Length: model.Seconds(10), Capacity: 100}}
	})
	outage30 := cell(func(sc *model.Scenario) {
		sc.Fault = []model.Fault{{Kind: "outage", Start: model.Seconds(5), Length: model.Seconds(30)}}
	})
	for _, c := range []struct {
		cells []sweep.Cell
		want  string
	}{
		{[]sweep.Cell{none}, "no fault"},
		{[]sweep.Cell{outage, outage30}, "outage at 5s for 1s or 30s"},
		{[]sweep.Cell{outage, degradation}, "outage at 5s for 1s or degradation to 100 calls/s at 5s for 10s"},
		{[]sweep.Cell{none, outage, degradation, outage30}, "no fault, outage at 5s for 1s or 30s, or degradation to 100 calls/s at 5s for 10s"},
	} {
		if got := find(facts(rowsOf(c.cells, nil)), c.want); got != c.want {
			t.Errorf("faults: %q, want %q", facts(rowsOf(c.cells, nil)), c.want)
		}
	}
}

// When several lines reach the "never" band, each has a row of its own.
func TestLinesBandRows(t *testing.T) {
	e := parse(t, `
seed = 1

[scenario]
engine = "queue"
duration = "10m"
dependency.capacity = 100
layer = [{ timeout = "1s", attempts = 27 }]
fault = [{ kind = "outage", start = "60s", length = "30s" }]
budget.kind = "per_tick"

[grid]
load = [70, 80, 90, 95]
budget = [0, 0.1, 0.3]

[[figure]]
kind = "lines"
x = "load"
line = "budget"
`)
	figs, err := Render(e.Grid, run(t, e, 4), e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	if c := figs[0].Caption; !strings.Contains(c, "a row for each line") {
		t.Errorf("caption %q does not say the never band has rows", c)
	}
}

// The rule of thumb over uneven load and blip axes follows the cells'
// placement by index.
func TestPhaseRuleUneven(t *testing.T) {
	e := parse(t, `
seed = 1

[scenario]
engine = "queue"
duration = "5m"
dependency.capacity = 100
layer = [{ timeout = "1s", attempts = 27 }]
fault = [{ kind = "outage", start = "60s", length = "30s" }]

[grid]
load = [50, 60, 90, 95]
blip = ["0s", "1s", "2s", "5s", "20s", "60s"]

[[figure]]
kind = "phase"
name = "rule"
x = "load"
y = "blip"
rule_of_thumb = true
`)
	figs, err := Render(e.Grid, run(t, e, 4), e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	if c := figs[0].Caption; !strings.Contains(c, "Dashed: the rule of thumb") || !strings.Contains(c, "Load and blip length: values evenly spaced, not to scale.") {
		t.Errorf("caption %q", c)
	}
	if *outDir != "" {
		writeFigures(t, *outDir+"/uneven", figs)
	}
}
