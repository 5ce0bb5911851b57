package model

import (
	"math"
	"testing"
	"time"
)

// drainScenario: 50 requests/s (constant) against 100/s, one try with a 2 s
// timeout (a healthy backlog of at most 200 calls), starting with 500
// requests already sent: the backlog falls by 50 a second and is within
// the limit after 6 s.
func drainScenario(engine string) Scenario {
	sc := Default()
	sc.Engine = engine
	sc.Tick = ms(100)
	sc.Duration = Duration(30 * time.Second)
	sc.Load = 50
	sc.Layer = []Layer{DefaultLayer()}
	sc.Layer[0].Timeout = Duration(2 * time.Second)
	sc.Dependency.Capacity = 100
	sc.Fault = nil
	sc.Initial.Backlog = 500
	return sc
}

// TestInitialBacklogDrains: both engines start with the backlog, are
// unhealthy from the start, drain in 6 s and recover.
func TestInitialBacklogDrains(t *testing.T) {
	for _, engine := range []string{"queue", "stochastic"} {
		m := runOne(t, drainScenario(engine), 1)
		if m.Requests != 500+50*30 || m.CollapseS != 0 || math.Abs(m.DrainS-6) > 0.15 || !m.Recovered() {
			t.Errorf("%s: requests %v (want 2000), collapse %v s (want 0), drain %v s (want 6): %v", engine, m.Requests, m.CollapseS, m.DrainS, m)
		}
		// Backlog requests beyond the first 200 time out; their calls are
		// still served, for nobody.
		if m.Failed < 250 || m.WastedServed < 250 {
			t.Errorf("%s: failed %v, wasted %v: the backlog's callers should give up", engine, m.Failed, m.WastedServed)
		}
	}
}

// TestInitialAbandoned: calls waiting for callers that are gone are served
// as wasted work (and delay the new requests: those that time out behind
// them are wasted too), or dropped at once with drop_expired.
func TestInitialAbandoned(t *testing.T) {
	for _, engine := range []string{"queue", "stochastic"} {
		sc := drainScenario(engine)
		sc.Initial = Initial{Abandoned: 300}
		m := runOne(t, sc, 1)
		if m.WastedServed != 300+m.Failed || m.PeakQueue < 250 || m.Requests != 1500 || m.Failed == 0 {
			t.Errorf("%s: %v; want 300 wasted besides the failed requests' calls, a queue of about 300 at the start", engine, m)
		}
		sc.Dependency.DropExpired = true
		if m := runOne(t, sc, 1); m.WastedServed != 0 || m.PeakQueue > 10 || m.Successful != 1500 {
			t.Errorf("%s with drop_expired: %v; want nothing wasted, no queue", engine, m)
		}
	}
}

// TestSpontaneousCollapse: without any fault, a Poisson load near capacity
// with retries at three layers tips over on its own; well below capacity
// it never does.
func TestSpontaneousCollapse(t *testing.T) {
	long(t)
	sc := Default()
	sc.Engine = "stochastic"
	sc.Tick = ms(10)
	sc.Duration = Duration(10 * time.Minute)
	sc.Arrivals = "poisson"
	l := DefaultLayer()
	l.Attempts = 3
	l.Timeout = ms(500)
	sc.Layer = []Layer{l, l, l}
	sc.Dependency.Capacity = 100
	sc.Fault = nil
	sc.Load = 97
	near := runOne(t, sc, 1)
	sc.Load = 50
	low := runOne(t, sc, 1)
	if math.IsNaN(near.CollapseS) || near.Recovered() {
		t.Errorf("load 97 of 100: %v, collapse %v s; want a collapse for good", near, near.CollapseS)
	}
	if !math.IsNaN(low.CollapseS) {
		t.Errorf("load 50 of 100 collapsed after %v s", low.CollapseS)
	}
}

// TestInitialSettings: bad initial states are refused where they are written.
func TestInitialSettings(t *testing.T) {
	sc := drainScenario("stochastic")
	sc.Initial.Backlog = -1
	if _, err := sc.Resolve(); err == nil {
		t.Error("a negative backlog was accepted")
	}
	sc = drainScenario("stochastic")
	sc.Dependency.Queue = "none"
	sc.Initial = Initial{Abandoned: 10}
	if _, err := sc.Resolve(); err == nil {
		t.Error("abandoned calls at a loss server were accepted")
	}
	sc = drainScenario("queue")
	sc.Layer[0].Timeout = 0
	sc.Initial = Initial{Abandoned: 10}
	if _, err := sc.Resolve(); err == nil {
		t.Error("the queue engine accepted abandoned calls without a timeout")
	}
}
