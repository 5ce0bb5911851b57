package tipping_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/experiments/tipping"
	"github.com/stormlab/stormlab/model"
)

func load(t *testing.T, file string, sets ...string) *experiments.Experiment {
	t.Helper()
	e, err := experiments.Load(file, sets)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func search(t *testing.T, e *experiments.Experiment, workers int) *tipping.Outcome {
	t.Helper()
	o, err := tipping.Run(context.Background(), e.Grid, e.Tipping, tipping.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// bruteForce runs the search's key at every step of its tolerance from the
// mild end, as a uniform grid of the search's resolution would, each cell
// built by the grid with the key as one more axis, up to limit steps, and
// returns the first value that never recovers (NaN when none does). Every
// step beyond that one must not recover either.
func bruteForce(t *testing.T, g *sweep.Grid, base *sweep.Cell, path string, duration bool, from, step float64, limit int) float64 {
	t.Helper()
	pts := *g
	pts.Axes = append(append([]sweep.Axis(nil), g.Axes...), sweep.Axis{Name: "brute", Path: path, Key: "brute", Duration: duration})
	pts.Series = nil
	var cells []sweep.Cell
	var xs []float64
	for k := 0; k <= limit; k++ {
		x := math.Round((from+float64(k)*step)*1e9) / 1e9
		var raw any = x
		if duration {
			raw = model.Seconds(x).String()
		}
		v, err := sweep.NewValue(raw, duration)
		if err != nil {
			t.Fatal(err)
		}
		var vals []sweep.Value
		for _, p := range base.Params {
			vals = append(vals, p.Value)
		}
		c, err := pts.Cell(append(vals, v), nil)
		if err != nil {
			t.Fatal(err)
		}
		cells, xs = append(cells, c), append(xs, x)
	}
	results, err := sweep.Run(context.Background(), cells, sweep.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	first := math.NaN()
	for k, r := range results {
		switch {
		case !r.Recovered() && math.IsNaN(first):
			first = xs[k]
		case r.Recovered() && !math.IsNaN(first):
			t.Errorf("%s: recovers at %s = %v after tipping at %v", base.Label(), path, xs[k], first)
		}
	}
	return first
}

// The acceptance case: for the queue engine with naive 27-attempt retries
// (tipping-naive), the searched critical blip at every load equals the
// shortest blip that never recovers in a scan of every whole tick from
// 0 s, and the searched critical load for a 5 s and a 30 s outage equals
// the lowest that tips in a scan of every 0.1 requests/s from 1.
func TestSearchEqualsBruteForce(t *testing.T) {
	t.Parallel()
	e := load(t, "../tipping-naive.toml")
	o := search(t, e, 2)
	if len(o.Specs) != 2 || o.Specs[0].Key != "blip" || o.Specs[1].Key != "load" {
		t.Fatalf("tipping-naive searches %+v; want blip, then load", o.Specs)
	}
	for k, ss := range o.Searches {
		sp := &o.Specs[k]
		for i := range ss {
			s := &ss[i]
			if s.Status != tipping.Found || !s.Exact() {
				t.Fatalf("%s over %s: %s", s.Label(), sp.Key, s.Status)
			}
			if sp.Key == "load" && s.Label() == "blip=3s" {
				continue // 420 points to scan: the other outages cover the load search
			}
			// Scan from the mild end a little past the searched value.
			limit := int(math.Round((s.Critical-sp.From)/sp.Tolerance)) + 5
			want := bruteForce(t, e.Grid, s.Cell, sp.Path, sp.Duration, sp.From, sp.Tolerance, limit)
			if s.Critical != want {
				t.Errorf("%s: searched critical %s %v, brute force %v", s.Label(), sp.Key, s.Critical, want)
			}
			if s.Tips.Value != s.Critical || math.Abs(s.Tips.Value-s.Recovers.Value-sp.Tolerance) > 1e-9 {
				t.Errorf("%s: bracket %v–%v is not one step of %v wide, ending at the estimate", s.Label(), s.Recovers.Value, s.Tips.Value, sp.Tolerance)
			}
		}
	}
}

// The committed searches use at least ten times fewer evaluations than a
// uniform grid of the same resolution over the same range, search by
// search.
func TestSearchesUseTenfoldFewerEvaluations(t *testing.T) {
	t.Parallel()
	for _, f := range []string{"../tipping-naive.toml", "../tipping-policies.toml"} {
		o := search(t, load(t, f), 2)
		searched, grid := o.Evaluations()
		if searched*10 > grid {
			t.Errorf("%s: %d evaluations against %d for a uniform grid, fewer than 10× fewer", f, searched, grid)
		}
		for k, ss := range o.Searches {
			for i := range ss {
				if s := &ss[i]; s.Evaluations*10 > s.GridPoints {
					t.Errorf("%s: %s over %s: %d evaluations against %d", f, s.Label(), o.Specs[k].Key, s.Evaluations, s.GridPoints)
				}
			}
		}
		t.Logf("%s: %d evaluations, a uniform grid %d (%.0f× more)", f, searched, grid, float64(grid)/float64(searched))
	}
}

// The regions of tipping-policies: without retries the system is stable
// at low load, with naive retries vulnerable at every load below capacity,
// and overloaded above capacity whatever the policy.
func TestRegions(t *testing.T) {
	o := search(t, load(t, "../tipping-policies.toml", "grid.load=[30, 70, 110]"), 2)
	want := map[string]tipping.Region{
		"policy=no retries, load=30":                        tipping.Stable,
		"policy=27 attempts, load=30":                       tipping.Vulnerable,
		"policy=27 attempts, load=70":                       tipping.Vulnerable,
		"policy=no retries, load=110":                       tipping.Overload,
		"policy=27 attempts, load=110":                      tipping.Overload,
		"policy=27 attempts, expired work dropped, load=70": tipping.Stable,
	}
	seen := 0
	for _, s := range o.Searches[0] {
		if r, ok := want[s.Label()]; ok {
			seen++
			if s.Region != r {
				t.Errorf("%s: %s, want %s", s.Label(), s.Region, r)
			}
			if r == tipping.Overload && (s.Evaluations != 1 || s.Baseline == nil || math.IsNaN(s.Baseline.CollapseS)) {
				t.Errorf("%s: overloaded after %d evaluations, baseline %+v; want one run without a fault that collapses", s.Label(), s.Evaluations, s.Baseline)
			}
		}
	}
	if seen != len(want) {
		t.Fatalf("found %d of the %d searches", seen, len(want))
	}
}

// A range in which nothing tips is an explicit answer: stable, no
// estimate, the whole scan run.
func TestNothingInRange(t *testing.T) {
	o := search(t, load(t, "../tipping-naive.toml", "tipping.0.to=1s", "grid.load=[30, 95]", "grid.blip=3s"), 1)
	for _, s := range o.Searches[0] {
		if s.Status != tipping.Nothing || s.Region != tipping.Stable || !math.IsNaN(s.Critical) {
			t.Errorf("%s: %s, region %s, critical %v; want none in range, stable, no estimate", s.Label(), s.Status, s.Region, s.Critical)
		}
	}
}

// stochastic is the FIG. 1 server (capacity 60/s, 40/s of Poisson demand,
// 0.5 s timeout, six attempts at once) after an outage whose length is
// searched, with the given -set flags.
func stochastic(t *testing.T, sets ...string) *experiments.Experiment {
	return load(t, "testdata/server.toml", sets...)
}

// With eight times the replicates the interval of a stochastic estimate
// narrows, at each of two seeds, and it holds the estimate.
func TestStochasticIntervalNarrows(t *testing.T) {
	t.Parallel()
	for _, seed := range []string{"60", "61"} {
		width := map[string]float64{}
		for _, r := range []string{"6", "48"} {
			s := search(t, stochastic(t, "seed="+seed, "scenario.replicates="+r), 2).Searches[0][0]
			if s.Status != tipping.Found || s.Exact() {
				t.Fatalf("seed %s, %s replicates: %s", seed, r, s.Status)
			}
			if math.IsNaN(s.Lo) || math.IsNaN(s.Hi) || !(s.Lo <= s.Critical && s.Critical <= s.Hi) {
				t.Fatalf("seed %s, %s replicates: estimate %v outside its interval %v–%v", seed, r, s.Critical, s.Lo, s.Hi)
			}
			width[r] = s.Hi - s.Lo
			t.Logf("seed %s, %s replicates: %.3f s, 95%% interval %.2f–%.2f s, %d evaluations", seed, r, s.Critical, s.Lo, s.Hi, s.Evaluations)
		}
		if !(width["48"] < width["6"]) {
			t.Errorf("seed %s: interval %.2f s wide at 48 replicates, %.2f s at 6: it should narrow", seed, width["48"], width["6"])
		}
	}
}

// The same seed gives the same boundary, the same points and the same
// interval at any number of workers.
func TestSameBoundaryAtAnyWorkers(t *testing.T) {
	t.Parallel()
	e := stochastic(t)
	answer := func(o *tipping.Outcome) string {
		s := o.Searches[0][0]
		return fmt.Sprintf("%s %v %v %v %d %v", s.Status, s.Critical, s.Lo, s.Hi, s.Evaluations, s.Evals)
	}
	one, two := answer(search(t, e, 1)), answer(search(t, e, 2))
	if one != two {
		t.Errorf("-j 1 and -j 2 differ:\n%s\n%s", one, two)
	}
	if other := answer(search(t, stochastic(t, "seed=61"), 2)); other == one {
		t.Error("another seed gives the same points: the seed does not reach the replicates")
	}
}
