package model

import (
	"math"
	"testing"
	"time"
)

// TestAfterChange: the time from an intervention to health for good is the
// recovery time less the span from the fault's end to the change; none
// without a change, or when the change does not bring the system back.
func TestAfterChange(t *testing.T) {
	sc := blip(27)
	sc.Layer[0].Timeout = Duration(time.Second)
	off := then(sc, 100*time.Second, map[string]any{"layer.0.attempts": 1}, func(s *Scenario) { s.Layer[0].Attempts = 1 })
	m := runOne(t, off, 1)
	if !m.Recovered() || m.AfterChangeS != m.RecoveryS-10 || m.AfterChangeS <= 0 {
		t.Errorf("retries off at 100 s: recovery %v s after the fault, %v s after the change; want the second 10 s less", m.RecoveryS, m.AfterChangeS)
	}
	if m := runOne(t, sc, 1); !math.IsNaN(m.AfterChangeS) {
		t.Errorf("no change: after_change_s %v, want none", m.AfterChangeS)
	}
	stay := then(sc, 100*time.Second, map[string]any{"layer.0.attempts": 9}, func(s *Scenario) { s.Layer[0].Attempts = 9 })
	if m := runOne(t, stay, 1); m.Recovered() || !math.IsNaN(m.AfterChangeS) {
		t.Errorf("9 attempts left: %v, after the change %v; want never", m, m.AfterChangeS)
	}
	// A change after the system is healthy again: 0.
	late := then(blip(1), 600*time.Second, map[string]any{"load": 60}, func(s *Scenario) { s.Load = 60 })
	if m := runOne(t, late, 1); m.AfterChangeS != 0 {
		t.Errorf("a change after the recovery: after_change_s %v, want 0", m.AfterChangeS)
	}
}

// TestCollapseSpread: the share of replicates ever unhealthy and the
// quantiles of their times to collapse.
func TestCollapseSpread(t *testing.T) {
	var runs []Metrics
	for _, c := range []float64{5, math.NaN(), 1, 3, 2, math.NaN(), 4, 9, 7, 8, 6, 10} {
		runs = append(runs, Metrics{CollapseS: c})
	}
	share, p10, p50, p90 := collapseSpread(runs)
	if share != 10.0/12 || p10 != 1 || p50 != 5 || p90 != 9 {
		t.Errorf("share %v, quantiles %v %v %v; want 10/12, 1, 5, 9", share, p10, p50, p90)
	}
	share, p10, _, _ = collapseSpread([]Metrics{{CollapseS: math.NaN()}})
	if share != 0 || !math.IsNaN(p10) {
		t.Errorf("none collapsed: share %v, p10 %v", share, p10)
	}
}

// TestLoadAt: the load a plan offers at a tick follows its shape (a ramp up
// and down), a change of load, and the arrivals actually drawn: with
// constant arrivals the requests of each second are the load at it.
func TestLoadAt(t *testing.T) {
	sc := Default()
	sc.Engine = "stochastic"
	sc.Duration = Duration(40 * time.Second)
	sc.Fault = nil
	sc.Shape = []Point{{At: 0, Load: 10}, {At: Duration(20 * time.Second), Load: 50}, {At: Duration(40 * time.Second), Load: 30}}
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		t    int64
		want float64
	}{{0, 10}, {10, 30}, {20, 50}, {30, 40}, {39, 31}} {
		if got := p.LoadAt(c.t); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("load at %d s: %v, want %v", c.t, got, c.want)
		}
	}
	r, err := Run(sc, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	for j, row := range r.Series.Rows {
		if want := math.Floor(p.LoadAt(int64(j)) + 1e-9); math.Abs(row.Requests-want) > 1 {
			t.Errorf("second %d: %v requests, the load says %v", j, row.Requests, p.LoadAt(int64(j)))
		}
	}
	flat := blip(1)
	flat = then(flat, 100*time.Second, map[string]any{"load": 20}, func(s *Scenario) { s.Load = 20 })
	q, err := flat.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if q.LoadAt(99) != 70 || q.LoadAt(100) != 20 {
		t.Errorf("load %v before the change and %v from it, want 70 and 20", q.LoadAt(99), q.LoadAt(100))
	}
}

// TestTurningLoads: on a ramp from 50 to 110 requests/s and back to 0
// over ten minutes, against 100/s with no retries (1 s timeout, so healthy
// means at most 100 calls waiting), the queue grows by (load − 100) a
// second once the load passes 100 at 250 s: 0.1k² calls k seconds later,
// past 100 after about 32 s, at a load of about 106. It peaks when the load
// is back at 100 (about 386 calls) and drains at (100 − load) a second, down
// to 100 calls when the load has fallen to about 85.5. At a constant load
// neither is given.
func TestTurningLoads(t *testing.T) {
	sc := Default()
	sc.Duration = Duration(10 * time.Minute)
	sc.Fault = nil
	sc.Shape = []Point{{At: 0, Load: 50}, {At: Duration(5 * time.Minute), Load: 110}, {At: Duration(10 * time.Minute), Load: 0}}
	m := runOne(t, sc, 1)
	if math.Abs(m.CollapseLoad-106.4) > 1 || math.Abs(m.RecoveryLoad-85.5) > 1 {
		t.Errorf("tipped at %v requests/s, back at %v; want about 106.4 and 85.5", m.CollapseLoad, m.RecoveryLoad)
	}
	if m := runOne(t, blip(1), 1); !math.IsNaN(m.CollapseLoad) || !math.IsNaN(m.RecoveryLoad) {
		t.Errorf("constant load: %v and %v, want none", m.CollapseLoad, m.RecoveryLoad)
	}
}
