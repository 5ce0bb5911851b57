package serve

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/stormlab/stormlab/cmd/stormlab/pipeline"
	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/experiments/tipping"
	"github.com/stormlab/stormlab/model"
)

// The coarse phase diagram around a run's point: loads × the lengths of
// the run's fault (the last one injected, else the experiment's own, else
// an outage).
const (
	aroundLoads = 25
	aroundBlips = 20
	// aroundReplicates are the seeded runs of each point of the boundary
	// search at the run's load; the diagram's cells run once each.
	aroundReplicates = 8
)

// aroundSpec is the diagram of a scenario: the scenario as it is now (its
// policy after the changes made so far), its fault at each length after a
// warm-up, long enough after it to tell whether the system recovers.
type aroundSpec struct {
	base  model.Scenario // the scenario at the point: no changes, the fault at fault.0
	what  string         // the fault in words: "outage", "slowdown ×4"
	seed  uint64
	load  float64   // the point's load
	blip  float64   // the point's fault length, seconds (0 = none yet)
	loads []float64 // requests/s, rising
	blips []float64 // seconds, rising
	warm  model.Duration
}

// newAroundSpec lays the diagram out around the point: the scenario in
// force, its load now (load: a load shape's value at the moment), and the
// fault swept (its kind, capacity or factor, and in a graph the service
// it hits; nil: an outage) with its
// length at the point (blip, seconds). Loads go from half to one and a
// half times the point's (up to the capacity when there is no load),
// lengths up to twice the point's and at least 5 s, in whole ticks.
func newAroundSpec(now model.Scenario, seed uint64, load float64, fault *model.Fault, blip float64) *aroundSpec {
	f := model.Fault{Kind: "outage", Factor: 1}
	if fault != nil {
		f = model.Fault{Kind: fault.Kind, Capacity: fault.Capacity, Factor: fault.Factor, Service: fault.Service}
	}
	a := &aroundSpec{base: sweep.Clone(now), seed: seed, load: load, blip: blip, what: faultWhat(&f)}
	a.base.Change, a.base.Fault, a.base.Replicates, a.base.Shape = nil, nil, 1, nil
	a.base.Load = load
	lo, hi := 0.5*load, 1.5*load
	if load <= 0 {
		lo, hi = 0.1*now.Dependency.Capacity, now.Dependency.Capacity
	}
	if hi <= lo {
		lo, hi = 1, 10
	}
	for i := range aroundLoads {
		a.loads = append(a.loads, roundTo(lo+(hi-lo)*float64(i)/(aroundLoads-1), 3))
	}
	tick := now.Tick
	step := wholeTicks(model.Seconds(niceUp(math.Max(5, 2*blip))/aroundBlips), tick)
	for i := range aroundBlips {
		a.blips = append(a.blips, (step * model.Duration(i+1)).Seconds())
	}
	a.warm = wholeTicks(model.Seconds(10), tick)
	// Watched for 30 s after the longest outage, or three times its
	// length: a backlog that drains slower is still called unrecovered
	// (the sentence says when a deterministic run is only draining).
	top := step * aroundBlips
	a.base.Duration = a.warm + top + wholeTicks(max(model.Seconds(30), 3*top), tick)
	f.Start, f.Length = a.warm, step
	a.base.Fault = []model.Fault{f}
	return a
}

// faultWhat names a fault without its length: "outage", "slowdown ×4",
// "degradation to 30/s", "spike ×2".
func faultWhat(f *model.Fault) string {
	switch f.Kind {
	case "degradation":
		return fmt.Sprintf("degradation to %g/s", f.Capacity)
	case "slowdown", "spike":
		return fmt.Sprintf("%s ×%g", f.Kind, f.Factor)
	}
	return f.Kind
}

// wholeTicks rounds d up to a whole number of ticks, at least one: the
// queue engine takes no other span.
func wholeTicks(d, tick model.Duration) model.Duration {
	if tick <= 0 {
		return d
	}
	return max(1, (d+tick-1)/tick) * tick
}

// grid is the diagram's cells: load slowest, then outage length.
func (a *aroundSpec) grid() (*sweep.Grid, error) {
	loads := sweep.Axis{Name: "load", Path: "load", Key: "around.load"}
	for _, x := range a.loads {
		v, err := sweep.NewValue(x, false)
		if err != nil {
			return nil, err
		}
		loads.Values = append(loads.Values, v)
	}
	blips := sweep.Axis{Name: "blip", Path: "fault.0.length", Key: "around.blip", Duration: true}
	for _, x := range a.blips {
		v, err := sweep.NewValue(model.Seconds(x).String(), true)
		if err != nil {
			return nil, err
		}
		blips.Values = append(blips.Values, v)
	}
	g := &sweep.Grid{Base: a.base, Axes: []sweep.Axis{loads, blips}, Seed: a.seed}
	if err := g.Expand(); err != nil {
		return nil, err
	}
	return g, nil
}

// search is the boundary search along the outage length at the point's
// load, over a few replicates.
func (a *aroundSpec) search() (*sweep.Grid, []spec.Tipping, error) {
	base := sweep.Clone(a.base)
	base.Replicates = aroundReplicates
	g := &sweep.Grid{Base: base, Seed: a.seed}
	if err := g.Expand(); err != nil {
		return nil, nil, err
	}
	top := a.blips[len(a.blips)-1]
	tol := wholeTicks(model.Seconds(top/100), a.base.Tick).Seconds()
	t := spec.Tipping{Key: "blip", Path: "fault.0.length", From: 0, To: top, Tolerance: tol,
		Unit: "s", Duration: true, Scan: 6}
	return g, []spec.Tipping{t}, nil
}

// compute runs the diagram's cells, then the search, through the
// pipeline's stages on the worker pool, each cell capped at maxMemory
// bytes of state; done is called after each cell and after the search.
func (a *aroundSpec) compute(ctx context.Context, workers int, maxMemory int64, done func()) (*aroundResult, error) {
	start := time.Now()
	st := pipeline.Stages{Budget: pipeline.Budget{Workers: workers, Cell: maxMemory}, Meter: pipeline.Calls(done)}
	g, err := a.grid()
	if err != nil {
		return nil, err
	}
	results, err := st.Simulate(ctx, "the diagram's cells", g.Cells())
	if err != nil {
		return nil, err
	}
	sg, specs, err := a.search()
	if err != nil {
		return nil, err
	}
	out, err := st.Search(ctx, "the boundary search", sg, specs)
	if err != nil {
		return nil, err
	}
	r := &aroundResult{Loads: a.loads, Blips: a.blips, Load: a.load, Blip: a.blip, Fault: a.what, Cells: len(results)}
	for i := range a.loads {
		rec := make([]bool, len(a.blips))
		secs := make([]*float64, len(a.blips))
		var first *float64
		for j := range a.blips {
			res := &results[i*len(a.blips)+j]
			rec[j] = res.Recovered() && res.Aborted == ""
			if rec[j] && !math.IsNaN(res.RecoveryS) {
				secs[j] = ptr(roundTo(res.RecoveryS, 3))
			}
			if !rec[j] && first == nil {
				first = ptr(a.blips[j])
			}
		}
		r.Recovered = append(r.Recovered, rec)
		r.RecoveryS = append(r.RecoveryS, secs)
		r.Boundary = append(r.Boundary, first)
	}
	s := &out.Searches[0][0]
	r.Status = string(s.Status)
	if !math.IsNaN(s.Critical) {
		r.Critical = ptr(roundTo(s.Critical, 3))
	}
	if !math.IsNaN(s.Lo) {
		r.Interval[0] = ptr(s.Lo)
	}
	if !math.IsNaN(s.Hi) {
		r.Interval[1] = ptr(s.Hi)
	}
	r.Sentence = a.sentence(s)
	r.Seconds = roundTo(time.Since(start).Seconds(), 3)
	r.Scenario = fmt.Sprintf("%d loads from %g to %g requests/s × %d lengths of %s from %s to %s, each after a %v warm-up and judged over the %v after it; one seeded run per cell, %d per point of the boundary search",
		len(a.loads), a.loads[0], a.loads[len(a.loads)-1], len(a.blips), an(a.what), secs(a.blips[0]), secs(a.blips[len(a.blips)-1]),
		a.warm, a.base.Duration-a.warm, aroundReplicates)
	return r, nil
}

// sentence is the answer at the point's load, in one sentence.
func (a *aroundSpec) sentence(s *tipping.Search) string {
	at := fmt.Sprintf("At %g requests/s", roundTo(a.load, 3))
	top := secs(a.blips[len(a.blips)-1])
	w := a.what
	switch s.Status {
	case tipping.Found:
		if s.Critical < a.blips[0]/2 {
			return fmt.Sprintf("%s even a very short %s tips it (the boundary search puts it at %s).", at, w, secs(s.Critical))
		}
		if s.Exact() {
			if e := s.End; e != nil && e.Draining {
				return fmt.Sprintf("%s %s of %s or longer leaves it unhealthy when the run ends, %v after the %s, though still draining (%.0f calls waiting, about %.0f s more to go): slow to recover rather than stuck.",
					at, an(w), secs(s.Critical), a.base.Duration-a.warm-model.Seconds(s.Critical), a.base.Fault[0].Kind, e.Queue, e.Left)
			}
			return fmt.Sprintf("%s %s of %s or longer tips it: it never recovers.", at, an(w), secs(s.Critical))
		}
		return fmt.Sprintf("%s %s longer than %s tips it: beyond that, half of %d seeded runs never recover.", at, an(w), secs(roundTo(s.Critical, 1)), aroundReplicates)
	case tipping.Nothing:
		return fmt.Sprintf("%s no %s up to %s tips it: it recovers from each.", at, w, top)
	case tipping.Already:
		return fmt.Sprintf("%s even the shortest %s tried tips it.", at, w)
	case tipping.Overloaded:
		return fmt.Sprintf("%s it is unhealthy without any fault: the load alone overloads it.", at)
	case tipping.NonMonotone:
		return fmt.Sprintf("%s it tips after some lengths of %s and recovers after longer ones, up to %s: there is no single boundary.", at, an(w), top)
	}
	return fmt.Sprintf("%s the boundary search stopped: %s.", at, s.Status)
}

// an puts "a" or "an" before a fault's name.
func an(what string) string {
	if strings.HasPrefix(what, "outage") {
		return "an " + what
	}
	return "a " + what
}

// secs writes seconds as a duration, to the millisecond: "2.4s".
func secs(x float64) string { return model.Seconds(roundTo(x, 3)).String() }

func ptr(x float64) *float64 { return &x }

// roundTo rounds x to d decimals.
func roundTo(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}

// niceUp rounds x up to 1, 2 or 5 times a power of ten.
func niceUp(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x-1e-9 {
			return m * p
		}
	}
	return 10 * p
}
