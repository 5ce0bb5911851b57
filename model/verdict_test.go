package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestVerdictNeedsDemand: over random scenarios of both engines, and the
// same scenarios turned into a burst at the start, a dependency that fails
// every call, and (queue engine) no load at all, recovered is never the
// verdict of a run in which no request arrived after the trigger or none
// succeeded after it, and a run without demand after the trigger is not
// judged.
func TestVerdictNeedsDemand(t *testing.T) {
	long(t)
	r := rand.New(rand.NewPCG(7, 8))
	n := 120
	if testing.Short() {
		n = 30
	}
	for i := range n {
		base := randomScenario(r)
		if i%2 == 1 {
			base = randomQueueScenario(r)
		}
		variants := map[string]func(*Scenario){
			"as drawn": func(*Scenario) {},
			"burst": func(s *Scenario) {
				if s.Engine != "stochastic" {
					s.Load = 0 // the queue engine has no burst: no load at all
					return
				}
				s.Arrivals, s.Clients, s.Load, s.Think = "burst", 1+r.IntN(80), 0, 0
				for j := range s.Fault {
					if s.Fault[j].Kind == "spike" {
						s.Fault[j].Kind = "outage"
					}
				}
			},
			"every call fails": func(s *Scenario) {
				if s.Engine != "stochastic" {
					s.Dependency.Capacity, s.Fault = 1, []Fault{{Kind: "outage", Start: 0, Length: s.Duration}}
					return
				}
				s.Dependency.FailureProbability = 1
				if s.Dependency.LatencySlope > 0 {
					s.Dependency.FailureProbability = 0
					s.Fault = []Fault{{Kind: "outage", Start: 0, Length: s.Duration}}
				}
			},
		}
		for _, name := range []string{"as drawn", "burst", "every call fails"} {
			sc := base
			sc.Layer = append([]Layer(nil), base.Layer...)
			sc.Fault = append([]Fault(nil), base.Fault...)
			variants[name](&sc)
			if err := Check(&sc); err != nil {
				t.Fatalf("scenario %d, %s: %v\n%+v", i, name, err, sc)
			}
			res, err := Run(sc, uint64(i), true)
			if err != nil {
				t.Fatal(err)
			}
			desc := fmt.Sprintf("scenario %d (%s, %s engine): %v", i, name, sc.Engine, res.Metrics)
			checkVerdict(t, &sc, &res, desc)
			switch {
			case name == "burst" && res.Verdict != NotJudged:
				t.Errorf("no demand after the first tick, verdict %v: %s", res.Verdict, desc)
			case name == "every call fails" && res.Recovered():
				t.Errorf("every call fails, recovered: %s", desc)
			}
			if t.Failed() {
				return
			}
		}
	}
}

// TestEndWatch: the backlog over a run's last three eighths, in three
// windows; draining when each window's mean falls by more than the noise
// and the backlog ends above the limit; the rate from the last two windows.
func TestEndWatch(t *testing.T) {
	// 80 ticks of 1 s: windows of 10 ticks from tick 50.
	line := func(noisy bool, at func(x int64) float64) endWatch {
		e := newEndWatch(80, 0, noisy)
		for x := int64(0); x < 80; x++ {
			e.add(x, x+1, at(x), 0)
		}
		return e
	}
	e := line(false, func(x int64) float64 { return 1000 - 2*float64(x) })
	if e.from != 50 || e.width != 10 {
		t.Fatalf("windows from %d, %d wide; want from 50, 10 wide", e.from, e.width)
	}
	if d, rate, left := e.state(100, 1); !d || rate != 2 || left != (842-100)/2.0 {
		t.Errorf("falling 2 a tick to 842: draining %v at %v/s, %v s left; want true, 2, 371", d, rate, left)
	}
	if d, rate, left := e.state(math.NaN(), 1); !d || rate != 2 || !math.IsNaN(left) {
		t.Errorf("no limit: draining %v at %v/s, %v s left; want the rate, no time left", d, rate, left)
	}
	if d, _, _ := e.state(900, 1); d {
		t.Error("ends at 842, below the limit of 900: not draining")
	}
	if d, _, _ := line(false, func(int64) float64 { return 500 }).state(100, 1); d {
		t.Error("a constant backlog is stuck, not draining")
	}
	if d, _, _ := line(false, func(x int64) float64 { return float64(x) }).state(10, 1); d {
		t.Error("a growing backlog is stuck, not draining")
	}
	// Falls, then stops: the last window does not fall.
	if d, _, _ := line(false, func(x int64) float64 { return math.Max(700, 1000-5*float64(x)) }).state(10, 1); d {
		t.Error("a backlog that stopped falling is stuck")
	}
	// The stochastic engine: a fall within three times the square root of
	// the mean (and one call) is noise.
	wobble := func(x int64) float64 { return 1000 - 0.1*float64(x) }
	if d, _, _ := line(true, wobble).state(10, 1); d {
		t.Error("a fall of 1 a window from 1000 is noise in the stochastic engine")
	}
	if d, _, _ := line(false, wobble).state(10, 1); !d {
		t.Error("the same fall drains in the deterministic engine")
	}
	// Ranges added at once, with a slope, sum as the ticks one by one.
	a, b := newEndWatch(80, 0, false), newEndWatch(80, 0, false)
	a.add(0, 45, 7, 0)
	a.add(45, 80, 1000, -3)
	b.add(0, 45, 7, 0)
	for x := int64(45); x < 80; x++ {
		b.add(x, x+1, 1000-3*float64(x-45), 0)
	}
	if a.sum != b.sum || a.last != b.last {
		t.Errorf("ranges %v (last %v), ticks %v (last %v)", a.sum, a.last, b.sum, b.last)
	}
	// Too short after the trigger to tell.
	if e := newEndWatch(80, 79, false); e.width != 0 {
		t.Errorf("one tick after the trigger: windows %d wide, want none", e.width)
	}
}

// TestCellVerdict: a cell recovered when every judged replicate did; stuck
// when any is stuck; draining when the rest all drain; not judged when none
// was judged.
func TestCellVerdict(t *testing.T) {
	for _, c := range []struct {
		runs []Verdict
		want Verdict
	}{
		{[]Verdict{Recovered, Recovered}, Recovered},
		{[]Verdict{Recovered, NotJudged}, Recovered},
		{[]Verdict{NotJudged, NotJudged}, NotJudged},
		{[]Verdict{Recovered, Draining}, Draining},
		{[]Verdict{Draining, Stuck, Recovered}, Stuck},
	} {
		runs := make([]Metrics, len(c.runs))
		for i, v := range c.runs {
			runs[i].Verdict = v
		}
		if got := cellVerdict(runs); got != c.want {
			t.Errorf("%v: %v, want %v", c.runs, got, c.want)
		}
	}
	for v := NotJudged; v <= Stuck; v++ {
		if back, ok := ParseVerdict(v.String()); !ok || back != v {
			t.Errorf("%v reads back as %v, %v", v, back, ok)
		}
	}
}

// TestDrainingBlip: the 30-second-blip system with 27 attempts behind a
// per-tick allowance of 10%, at 90 requests/s after a 37 s outage, is not
// stuck: its backlog still falls when the hour ends, about one call a
// second, and the verdict says draining.
func TestDrainingBlip(t *testing.T) {
	sc := blip(27)
	sc.Load = 90
	sc.Fault[0].Length = Duration(37 * time.Second)
	sc.Budget = Budget{Kind: "per_tick", Scope: "chain", Params: PerTickParams{Ratio: 0.1}}
	r, err := Run(sc, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Draining || !(r.DrainRate > 0.5 && r.DrainRate < 2) || !(r.DrainLeftS > 0) {
		t.Errorf("want draining at about 1 call/s: %v, rate %v/s, %v s left, backlog %v", r.Verdict, r.DrainRate, r.DrainLeftS, r.EndBacklog)
	}
}
