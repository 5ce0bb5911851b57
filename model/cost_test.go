package model

import (
	"strings"
	"testing"
	"time"
)

// TestCost: the estimate covers what a run holds at its worst, within an
// order of magnitude above it.
func TestCost(t *testing.T) {
	long(t)
	for _, c := range []struct {
		name string
		sc   Scenario
		cap  int64 // the run must stay under this cap to agree with the estimate
	}{
		{"blip storm", blip(27), 0},
		{"storm chain", stormProfile("outage", [3]int{3, 3, 3}, 0), 0},
		{"jittered storm", shorter(jitterStorm(100, ms(10)), 60*time.Second), 0},
	} {
		p, err := c.sc.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		est := p.Cost(false)
		if est.Ticks != p.Ticks*int64(p.Replicates) {
			t.Errorf("%s: %d ticks, want %d", c.name, est.Ticks, p.Ticks)
		}
		g := newGuard(t.Context(), 0)
		if p.Engine == EngineQueue {
			runQueue(p, 1, false, g)
		} else {
			runStochastic(p, 1, false, g)
		}
		if g.peak > est.State {
			t.Errorf("%s: the run held %s, more than the estimate of %s", c.name, Bytes(g.peak), Bytes(est.State))
		}
		t.Logf("%s: held %s, estimated %s", c.name, Bytes(g.peak), Bytes(est.State))
	}
}

func shorter(s Scenario, d time.Duration) Scenario {
	s.Duration = Duration(d)
	s.Fault[0].Start = Duration(d / 3)
	return s
}

// TestWarnings: timeouts, waits and latency of under three ticks are
// named, and so is a jitter step coarser than half the backoff's base;
// longer spans and finer steps are not.
func TestWarnings(t *testing.T) {
	sc := Default()
	sc.Engine = "stochastic"
	sc.Tick = ms(100)
	sc.Layer[0].Timeout = ms(250)
	sc.Layer[0].Backoff = Backoff{Kind: "constant", Base: ms(50), Factor: 2, Jitter: "none"}
	sc.Dependency.Latency = Duration(time.Second)
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Join(p.Warnings(), "\n")
	if !strings.Contains(w, "timeout is 2.5 ticks") || !strings.Contains(w, "backoff base is 0.5 ticks") || strings.Contains(w, "latency") || strings.Contains(w, "jitter_step") {
		t.Errorf("warnings:\n%s", w)
	}
	for _, c := range []struct {
		step Duration
		warn bool
	}{{ms(500), false}, {ms(501), true}, {ms(1000), true}} {
		sc := Default()
		sc.Engine = "stochastic"
		sc.Layer[0].Backoff = Backoff{Kind: "exponential", Base: Duration(time.Second), Factor: 2, Jitter: "full", JitterStep: c.step}
		p, err := sc.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		w := strings.Join(p.Warnings(), "\n")
		if strings.Contains(w, "jitter_step") != c.warn {
			t.Errorf("jitter_step %v on a 1s base: warnings %q", c.step, w)
		}
	}
}
