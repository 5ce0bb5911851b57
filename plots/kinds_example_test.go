package plots

import (
	"fmt"
	"log"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/model"
)

// The examples below draw each kind of figure from a table written by hand,
// numbers and all, without running a simulation: a Table is what a figure
// is drawn from. TestGoldenImages draws the same tables and compares them
// with the golden images in testdata.

// exampleTables are the tables and figures of the examples, by kind.
func exampleTables() map[string]func() (*Table, spec.Figure) {
	return map[string]func() (*Table, spec.Figure){
		"phase":      phaseExample,
		"lines":      linesExample,
		"bars":       barsExample,
		"series":     seriesExample,
		"hysteresis": hysteresisExample,
		"collapse":   collapseExample,
		"graph":      graphExample,
	}
}

// nums are numeric axis values.
func nums(xs ...float64) []Value {
	out := make([]Value, len(xs))
	for i, x := range xs {
		out[i] = Value{Text: strconv.FormatFloat(x, 'f', -1, 64), Num: x, IsNum: true}
	}
	return out
}

// durs are axis values of durations, as a grid writes them: "20s".
func durs(texts ...string) []Value {
	out := make([]Value, len(texts))
	for i, s := range texts {
		d, err := time.ParseDuration(s)
		if err != nil {
			log.Fatal(err)
		}
		out[i] = Value{Text: s, Num: d.Seconds(), IsNum: true}
	}
	return out
}

// names are axis values that name configurations.
func names(ns ...string) []Value {
	out := make([]Value, len(ns))
	for i, n := range ns {
		out[i] = Value{Text: n}
	}
	return out
}

// blipFacts are a cell's facts in the small blip grid: capacity 100
// calls/s, a user who waits 1 s, an outage of blip seconds at 60 s, five
// minutes of 1 s ticks; the healthy backlog is capacity × timeout = 100
// calls, so the rule of thumb is 100 / load seconds.
func blipFacts(load float64, attempts int, blip float64) Facts {
	return Facts{
		Engine: "queue", Capacity: 100, Arrivals: "open", Load: load, StartLoad: load,
		Timeout: model.Seconds(1), Attempts: attempts, Server: "fifo",
		Faults: []Fault{{Kind: "outage", Start: model.Seconds(60), Length: model.Seconds(blip)}},
		Tick:   model.Seconds(1), Run: model.Seconds(300), Replicates: 1,
		QueueLimit: 100, FaultEnd: 60 + blip,
		RuleOfThumb: func(load float64) (float64, bool) { return 100 / load, load > 0 },
	}
}

// Results of single runs: recovered after s seconds, stuck, or still
// draining a backlog at a rate, with seconds left.
func recovered(s float64) model.Result {
	return model.Result{Metrics: model.Metrics{Verdict: model.Recovered, RecoveryS: s}, Replicates: 1, RecoveredShare: 1}
}

func stuck() model.Result {
	return model.Result{Metrics: model.Metrics{Verdict: model.Stuck, RecoveryS: math.NaN()}, Replicates: 1}
}

func draining(backlog, rate, left float64) model.Result {
	return model.Result{Metrics: model.Metrics{Verdict: model.Draining, RecoveryS: math.NaN(), EndBacklog: backlog, DrainRate: rate, DrainLeftS: left}, Replicates: 1}
}

// phaseExample: without retries the system recovers from every blip, in
// load × blip / (capacity − load) seconds, but at load 95 a 20 s blip
// leaves a backlog still draining when the run ends; with 27 attempts it
// recovers only from the 1 s blip, below the rule of thumb.
func phaseExample() (*Table, spec.Figure) {
	t := &Table{Axes: []Axis{
		{Name: "policy", Values: names("no retries", "27 attempts")},
		{Name: "load", Path: "load", Unit: "requests/s", Values: nums(60, 80, 95)},
		{Name: "blip", Path: "fault.0.length", Unit: "s", Values: durs("1s", "2s", "5s", "20s")},
	}}
	for _, policy := range t.Axes[0].Values {
		attempts := 1
		if policy.Text == "27 attempts" {
			attempts = 27
		}
		for _, load := range t.Axes[1].Values {
			for _, blip := range t.Axes[2].Values {
				r := recovered(math.Round(load.Num * blip.Num / (100 - load.Num)))
				switch {
				case attempts == 27 && blip.Num > 1:
					r = stuck()
				case load.Num == 95 && blip.Num == 20:
					r = draining(800, 5, 140)
				}
				t.Rows = append(t.Rows, Row{
					Params: []Param{{"policy", policy}, {"load", load}, {"blip", blip}},
					Result: r, Facts: blipFacts(load.Num, attempts, blip.Num),
				})
			}
		}
	}
	return t, spec.Figure{Kind: "phase", Name: "phase", X: "load", Y: "blip", Panel: "policy", RuleOfThumb: true}
}

// linesExample: recovery time after a 30 s blip against load; 27 attempts
// recover at load 60 only.
func linesExample() (*Table, spec.Figure) {
	t := &Table{Axes: []Axis{
		{Name: "policy", Values: names("no retries", "27 attempts")},
		{Name: "load", Path: "load", Unit: "requests/s", Values: nums(60, 70, 80, 90)},
	}}
	for _, policy := range t.Axes[0].Values {
		attempts := 1
		if policy.Text == "27 attempts" {
			attempts = 27
		}
		for _, load := range t.Axes[1].Values {
			r := recovered(load.Num * 30 / (100 - load.Num))
			if attempts == 27 {
				r = stuck()
				if load.Num == 60 {
					r = recovered(80)
				}
			}
			t.Rows = append(t.Rows, Row{Params: []Param{{"policy", policy}, {"load", load}}, Result: r, Facts: blipFacts(load.Num, attempts, 30)})
		}
	}
	return t, spec.Figure{Kind: "lines", Name: "lines", X: "load", Line: "policy"}
}

// barsExample: amplification, calls per user request, by policy, without
// a blip and after a 10 s one.
func barsExample() (*Table, spec.Figure) {
	t := &Table{Axes: []Axis{
		{Name: "policy", Values: names("no retries", "3 attempts", "9 attempts")},
		{Name: "blip", Path: "fault.0.length", Unit: "s", Values: durs("0s", "10s")},
	}}
	amplification := [][]float64{{1, 1}, {1, 2.58}, {1, 7.16}}
	for p, policy := range t.Axes[0].Values {
		attempts := []int{1, 3, 9}[p]
		for b, blip := range t.Axes[1].Values {
			r := recovered(0)
			r.Requests = 21000
			r.Calls = math.Round(amplification[p][b] * r.Requests)
			t.Rows = append(t.Rows, Row{Params: []Param{{"policy", policy}, {"blip", blip}}, Result: r, Facts: blipFacts(70, attempts, blip.Num)})
		}
	}
	return t, spec.Figure{Kind: "bars", Name: "bars", X: "policy", Line: "blip", Metric: "amplification"}
}

// seriesExample: calls per second and the queue through a 30 s outage at
// load 70, second by second. Without retries the queue the outage leaves
// drains at 30 calls a second; with 27 attempts every request waiting
// retries each second, and the calls never fall back under capacity.
func seriesExample() (*Table, spec.Figure) {
	t := &Table{Axes: []Axis{{Name: "policy", Values: names("no retries", "27 attempts")}}}
	for _, policy := range t.Axes[0].Values {
		retries := policy.Text == "27 attempts"
		s := &model.Series{Step: 1}
		queue := 0.0
		for sec := range 300 {
			capacity := 100.0
			if sec >= 60 && sec < 90 {
				capacity = 0
			}
			calls := 70.0
			if retries && sec >= 60 {
				calls = 70 * math.Min(27, float64(sec-59))
			}
			served := math.Min(queue+calls, capacity)
			queue += calls - served
			s.Rows = append(s.Rows, model.SeriesRow{T: float64(sec), Calls: calls, Queue: queue, Capacity: capacity})
		}
		r := recovered(math.Ceil(30 * 70 / 30.0))
		attempts := 1
		if retries {
			r, attempts = stuck(), 27
		}
		r.Series = s
		t.Rows = append(t.Rows, Row{Params: []Param{{"policy", policy}}, Result: r, Facts: blipFacts(70, attempts, 30)})
	}
	return t, spec.Figure{Kind: "series", Name: "series"}
}

// hysteresisExample: a load ramp from 50 up to 110 requests/s over five
// minutes and down to 0 over five more, at capacity 100. Both policies
// tip at 106 requests/s on the way up; without retries the backlog is gone
// once the load falls to 85, while with 27 attempts nothing is answered
// until the end.
func hysteresisExample() (*Table, spec.Figure) {
	t := &Table{Axes: []Axis{{Name: "policy", Values: names("no retries", "27 attempts")}}}
	for _, policy := range t.Axes[0].Values {
		retries := policy.Text == "27 attempts"
		f := blipFacts(50, 1, 0)
		f.Faults, f.FaultEnd, f.Run = nil, math.NaN(), model.Seconds(600)
		f.Shape = []ShapePoint{{At: 0, Load: 50}, {At: model.Seconds(300), Load: 110}, {At: model.Seconds(600), Load: 0}}
		row := Row{Params: []Param{{"policy", policy}}, Facts: f}
		s := &model.Series{Step: 1}
		down := false
		for sec := range 600 {
			mid := float64(sec) + 0.5
			load := 50 + 60*mid/300
			if sec >= 300 {
				load = 110 - 110*(mid-300)/300
			}
			row.Offered = append(row.Offered, load)
			down = down || load > 106
			ok := !down || sec >= 300 && load < 85 && !retries
			sr := model.SeriesRow{T: float64(sec), Requests: load, Unhealthy: !ok}
			if ok {
				sr.Successes = math.Min(load, 100)
			}
			s.Rows = append(s.Rows, sr)
		}
		row.Result = model.Result{Metrics: model.Metrics{Verdict: model.Recovered, CollapseLoad: 106, RecoveryLoad: 85}, Replicates: 1, RecoveredShare: 1, Series: s}
		if retries {
			row.Result.Verdict, row.Result.RecoveryLoad, row.Result.RecoveredShare = model.Stuck, math.NaN(), 0
			row.Facts.Attempts = 27
		}
		t.Rows = append(t.Rows, row)
	}
	return t, spec.Figure{Kind: "hysteresis", Name: "hysteresis"}
}

// collapseExample: six replicates per load of a server at 60 calls/s with
// six attempts and no fault; none collapses at load 50, all at 57 and 59,
// sooner at 59.
func collapseExample() (*Table, spec.Figure) {
	t := &Table{Axes: []Axis{{Name: "load", Path: "load", Unit: "requests/s", Values: nums(50, 57, 59)}}}
	for i, load := range t.Axes[0].Values {
		r := model.Result{Replicates: 6, Metrics: model.Metrics{Verdict: model.Stuck, CollapseS: []float64{math.NaN(), 54, 25}[i]}}
		r.Spread.Collapsed = []float64{0, 1, 1}[i]
		r.Spread.CollapseP10 = []float64{math.NaN(), 26, 15}[i]
		r.Spread.CollapseP90 = []float64{math.NaN(), 80, 44}[i]
		if i == 0 {
			r.Verdict, r.RecoveredShare = model.Recovered, 1
		}
		t.Rows = append(t.Rows, Row{Params: []Param{{"load", load}}, Result: r, Facts: Facts{
			Engine: "stochastic", Capacity: 60, Arrivals: "open", Load: load.Num, StartLoad: load.Num,
			Timeout: model.Seconds(0.5), Attempts: 6, Server: "fifo", Tick: model.Seconds(0.01), Run: model.Seconds(120),
			Replicates: 6, QueueLimit: 30, FaultEnd: math.NaN(),
		}})
	}
	return t, spec.Figure{Kind: "collapse", Name: "collapse", X: "load"}
}

// show draws an example's figure and prints its title, its caption and
// what it finds.
func show(t *Table, f spec.Figure) {
	fig, err := t.Draw(&f)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(fig.Title)
	fmt.Println(fig.Caption)
	for _, s := range t.Findings(&f) {
		fmt.Println(strings.TrimSpace(s))
	}
}

// A phase diagram of load × blip length, a panel per policy, from a table
// of numbers; the rule of thumb, 100 / load seconds, lies between the 1 s
// and the 2 s blip.
func ExampleTable_Draw_phase() {
	show(phaseExample())
	// Output:
	// Recovery time after the fault (s) by load and blip length
	// Queue engine, capacity 100 calls/s, load 60, 80 or 95 requests/s, timeout 1s, 1 or 27 attempts per request, outage at 60s for 1s, 2s, 5s or 20s, 1s ticks over 5m. Each rectangle is one grid cell; colour: seconds from the end of the fault (the start, with an initial backlog) until healthy for good. Red: stuck, never recovers (unhealthy at the end, the backlog no longer shrinking). Orange: unhealthy when the run ends but its backlog still falling, slower than the run (a longer run would see it recover). Dashed: the rule of thumb for naive retries, blip ≈ capacity × timeout / load. Blip length: values evenly spaced, not to scale.
	// **no retries**: stuck in no cell; the slowest recovery is 95 s, at load 95 and blip 5s. 1 cell is still draining when the run ends, unhealthy but not stuck (load 95 at blip 20s): slower than the run, not metastable; the slowest, at load 95 and blip 20s, holds a backlog of 800 falling by 5 a second, about 2 min more.
	// **27 attempts**: stuck (never recovers) from blip 2s at load 60–95. It tips at the first grid blip above the rule of thumb's value (100 × 1s / load) at load 60–95: the rule holds there to within the grid's spacing (e.g. at load 80 it recovers at 1s and tips at 2s, where the rule says 1.25 s).
	// Shortest blip at which it is stuck (never recovers), by load, beside the rule of thumb (capacity × timeout / load):
	//
	// | load | rule of thumb | no retries | 27 attempts |
	// |---|---|---|---|
	// | 60 | 1.67 s | never stuck | 2 s |
	// | 80 | 1.25 s | never stuck | 2 s |
	// | 95 | 1.05 s | never stuck | 2 s |
	// Panels ranked by the area of the metastable region, the share of the load × blip length grid that is stuck (cells still draining when the run ends do not count):
	//
	// | rank | policy | cells that are stuck (never recover) | share of the grid |
	// |---|---|---|---|
	// | 1 | no retries | 0 of 12 | 0% |
	// | 2 | 27 attempts | 9 of 12 | 75% |
}

// Recovery time against load, a line per policy; the cells that never
// recover sit in the band at the top.
func ExampleTable_Draw_lines() {
	show(linesExample())
	// Output:
	// Recovery time after the fault (s) against load
	// Queue engine, capacity 100 calls/s, load 60, 70, 80 or 90 requests/s, timeout 1s, 1 or 27 attempts per request, outage at 60s for 30s, 1s ticks over 5m. One line per policy; y: seconds from the end of the fault (the start, with an initial backlog) until healthy for good. Crosses in the band at the top: stuck, never recovers.
	// Across load: at policy no retries it recovers at every load (at most 270 s after the fault); at policy 27 attempts it recovers at load 60 (at most 80 s after the fault) and is stuck (never recovers) at 70–90.
}

// Amplification by policy, a bar per blip length.
func ExampleTable_Draw_bars() {
	show(barsExample())
	// Output:
	// Amplification (calls per request) by policy and blip length
	// Queue engine, capacity 100 calls/s, load 70 requests/s, timeout 1s, 1, 3 or 9 attempts per request, outage at 60s for 0s or 10s, 1s ticks over 5m. One group of bars per policy, one bar per blip length; bar height: calls / requests.
}

// Calls per second and the queue over time, a line per policy.
func ExampleTable_Draw_series() {
	show(seriesExample())
	// Output:
	// Offered load and queue over time
	// Queue engine, capacity 100 calls/s, load 70 requests/s, timeout 1s, 1 or 27 attempts per request, outage at 60s for 30s, 1s ticks over 5m. Top: calls per second reaching the dependency and its capacity (dashed), log scale; bottom: calls waiting in its queue and the healthy limit, capacity × timeout (dotted), log scale; shaded: the fault window.
}

// Goodput on a load ramp up and back down, with and without retries.
func ExampleTable_Draw_hysteresis() {
	show(hysteresisExample())
	// Output:
	// Goodput on a load ramp up and back down
	// Queue engine, capacity 100 calls/s, load 50→110→0 requests/s at 0s, 300s, 10m, timeout 1s, 1 or 27 attempts per request, no fault, 1s ticks over 10m. Left: requests answered with a success per second against the load offered that second; right: healthy (1) or not (0). Solid: the load rising; dashed: the load falling. Triangles: the load at which it first turned unhealthy (▲) and the one at which it turned healthy for good (▼).
	// With no retries the system first turns unhealthy at 106 requests/s on the way up and is healthy for good again at 85 requests/s on the way down, 20% lower. In between, at 96 requests/s, it answers 96 requests/s with a success on the way up and 0 on the way down.
	// With 27 attempts the system first turns unhealthy at 106 requests/s on the way up and has not come back by the end of the run, at 0 requests/s.
}

// Time to collapse without a fault against the load.
func ExampleTable_Draw_collapse() {
	show(collapseExample())
	// Output:
	// Time to collapse against load
	// Stochastic engine, capacity 60 calls/s, load 50, 57 or 59 requests/s, timeout 500ms, 6 attempts per request, no fault, 10ms ticks over 2m, 6 seeded replicates per cell. Left, log scale: seconds from the start until the system first turned unhealthy, without any fault — the mean time to collapse estimated from every replicate, those that never collapsed counted as healthy for the whole run (time healthy ÷ collapses; line and dots), and the mean over the replicates that collapsed (rings) with their 10th to 90th percentile (whiskers). Right: the share of replicates that collapsed within the run (solid) and the share unhealthy at its end (dotted).
	// The system collapses without any fault: its mean time to collapse falls from about 54 s at load 57 to 25 s at load 59, 2-fold shorter; no replicate collapsed at load 50. The mean time to collapse counts every replicate, the time they ran healthy ÷ their collapses (the estimate for a constant risk of collapse); where few collapsed it rests on few events.
	// | load | collapsed within the run | mean time to collapse of those (s) | 10th–90th percentile (s) | mean time to collapse, every replicate (s) |
	// |---|---|---|---|---|
	// | 57 | 6 of 6 | 54 | 26–80 | 54 |
	// | 59 | 6 of 6 | 25 | 15–44 | 25 |
}
