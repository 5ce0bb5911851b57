package model

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// withHedge adds random hedging to the bottom layer of sc, and a budget of
// any family.
func withHedge(r *rand.Rand, sc Scenario) Scenario {
	sc.Layer = append([]Layer(nil), sc.Layer...)
	l := &sc.Layer[len(sc.Layer)-1]
	l.Hedge = Hedge{Delay: ms(1 + r.IntN(300)), MaxShare: []float64{0.02, 0.1, 0.5, 1}[r.IntN(4)]}
	if r.IntN(3) == 0 {
		l.Hedge.Percentile = 50 + 49*r.Float64()
	}
	if r.IntN(2) == 0 {
		kinds := kindsOf(budgetKinds())
		sc.Budget.SetTableKind(kinds[r.IntN(len(kinds))].Name)
	}
	return sc
}

// TestHedgeInvariants: random scenarios with hedging keep the engine's
// invariants (hedges are the only calls beyond the attempts allowed).
func TestHedgeInvariants(t *testing.T) {
	long(t)
	r := rand.New(rand.NewPCG(71, 72))
	var hedged int
	t.Parallel()
	for i := range 200 {
		sc := withHedge(r, randomScenario(r))
		m, ok := checkInvariants(t, i, sc, r.Uint64())
		if !ok {
			return
		}
		if m.Hedges > 0 {
			hedged++
		}
	}
	if hedged < 40 {
		t.Errorf("only %d of 200 random scenarios sent a hedge", hedged)
	}
}

// TestHedgeRecycling: hedged pairs never touch a group the engine let go
// of (recycled groups are kept poisoned).
func TestHedgeRecycling(t *testing.T) {
	long(t)
	t.Parallel()
	r := rand.New(rand.NewPCG(73, 74))
	for i := range 100 {
		checkRecycling(t, i, withHedge(r, randomScenario(r)), uint64(i+1))
	}
}

// slowNetwork is one caller, one try with a 100 ms timeout, over a network
// whose delay each way is exponential with a 20 ms mean, to a dependency
// with room to spare: the round trip exceeds the timeout for e^−5·6 ≈ 4%
// of the calls.
func slowNetwork(hedge Hedge) Scenario {
	sc := Default()
	sc.Engine = "stochastic"
	sc.Tick = ms(1)
	sc.Duration = Duration(60 * time.Second)
	sc.Load = 200
	sc.Arrivals = "poisson"
	sc.Layer = []Layer{DefaultLayer()}
	sc.Layer[0].Timeout = ms(100)
	sc.Layer[0].Hedge = hedge
	sc.Dependency.Capacity = 10000
	sc.Dependency.Network = Network{Kind: "exponential", Delay: ms(20)}
	sc.Fault = nil
	return sc
}

// TestHedgeCutsTimeouts: a hedge after 50 ms (a round trip is longer for
// 29% of the calls) rescues most of the calls the slow network would time
// out, costs the share of calls it was allowed, and the percentile rule
// settles near its percentile.
func TestHedgeCutsTimeouts(t *testing.T) {
	plain := runOne(t, slowNetwork(Hedge{}), 1)
	hedged := runOne(t, slowNetwork(Hedge{Delay: ms(50), MaxShare: 0.5}), 1)
	t.Logf("plain: %v", plain)
	t.Logf("hedged: %v", hedged)
	if share := plain.Failed / plain.Requests; share < 0.03 || share > 0.05 {
		t.Errorf("without hedging %.3f of requests fail, want about 0.04", share)
	}
	if hedged.Failed > 0.5*plain.Failed {
		t.Errorf("hedging left %v failures of %v", hedged.Failed, plain.Failed)
	}
	// Calls still waiting after 50 ms: the round trip's P(> 50 ms) = e^−2.5·3.5 ≈ 0.287.
	if share := hedged.Hedges / hedged.Requests; share < 0.26 || share > 0.31 {
		t.Errorf("hedged %.3f of the calls, want about 0.29", share)
	}
	capped := runOne(t, slowNetwork(Hedge{Delay: ms(50), MaxShare: 0.1}), 1)
	if share := capped.Hedges / capped.Requests; share < 0.09 || share > 0.101 {
		t.Errorf("max_share 0.1 hedged %.3f of the calls", share)
	}
	if capped.Failed < hedged.Failed {
		t.Errorf("fewer hedges, fewer failures: %v < %v", capped.Failed, hedged.Failed)
	}
	// The 90th percentile of the round trip (Gamma(2, 20 ms)) is 78 ms;
	// that of the successes is shorter (the slowest time out, and hedged
	// tries answer sooner), so a little over 10% of the calls are hedged
	// once the window has filled.
	p90 := runOne(t, slowNetwork(Hedge{Delay: ms(50), Percentile: 90, MaxShare: 0.5}), 1)
	if share := p90.Hedges / p90.Requests; share < 0.1 || share > 0.16 {
		t.Errorf("percentile 90 hedged %.3f of the calls, want a little over 0.1", share)
	}
}

// TestHedgeLoserWithdrawn: at a FIFO dependency a hedge waits behind its
// original, so the original always wins and every hedge is withdrawn
// before it is served: no work is wasted, and the dependency serves
// exactly the calls that are not hedges.
func TestHedgeLoserWithdrawn(t *testing.T) {
	sc := Default()
	sc.Engine = "stochastic"
	sc.Tick = ms(1)
	sc.Duration = Duration(60 * time.Second)
	sc.Load = 90
	sc.Layer = []Layer{DefaultLayer()}
	sc.Layer[0].Timeout = Duration(30 * time.Second)
	sc.Layer[0].Hedge = Hedge{Delay: ms(50), MaxShare: 0.5}
	sc.Dependency.Capacity = 100
	sc.Fault = []Fault{{Kind: "degradation", Start: Duration(10 * time.Second), Length: Duration(10 * time.Second), Capacity: 50}}
	for _, single := range []bool{false, true} {
		p, err := sc.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		p.Single = single
		m, _, _ := runStochastic(p, 1, false, nil)
		switch {
		case m.Hedges == 0:
			t.Errorf("single %v: no hedges while the queue built: %v", single, m)
		case m.Served != m.Calls-m.Hedges || m.WastedServed != 0:
			t.Errorf("single %v: served %v, wasted %v, calls %v, hedges %v: the losers were served", single, m.Served, m.WastedServed, m.Calls, m.Hedges)
		case m.Successful+m.Pending != m.Requests:
			t.Errorf("single %v: %v", single, m)
		}
	}
}

// TestHedgeSettings: hedging is checked where it is written.
func TestHedgeSettings(t *testing.T) {
	for _, c := range []struct {
		set  func(sc *Scenario)
		want string
	}{
		{func(sc *Scenario) { sc.Layer[0].Hedge = Hedge{Delay: ms(10)} }, "layer.0.hedge.max_share: hedging needs a cap"},
		{func(sc *Scenario) { sc.Layer[0].Hedge = Hedge{Percentile: 95, MaxShare: 0.1} }, "layer.0.hedge.delay: percentile hedging needs a delay"},
		{func(sc *Scenario) { sc.Layer[0].Hedge = Hedge{Delay: ms(10), MaxShare: 1.5} }, "layer.0.hedge.max_share: must be a number from 0 to 1, got 1.5"},
		{func(sc *Scenario) { sc.Layer[0].Hedge = Hedge{Delay: ms(10), Percentile: 100, MaxShare: 0.1} }, "layer.0.hedge.percentile: must be a number from 0 to 99.99, got 100"},
		{func(sc *Scenario) {
			sc.Layer = append(sc.Layer, DefaultLayer())
			sc.Layer[0].Hedge = Hedge{Delay: ms(10), MaxShare: 0.1}
		}, "layer.0.hedge.delay: hedging is modelled on the calls to the dependency"},
		{func(sc *Scenario) {
			sc.Engine = "queue"
			sc.Layer[0].Hedge = Hedge{Delay: ms(10), MaxShare: 0.1}
		}, "layer.0.hedge.delay: needs engine = \"stochastic\""},
	} {
		sc := Default()
		sc.Engine = "stochastic"
		sc.Layer = []Layer{DefaultLayer()}
		c.set(&sc)
		_, err := sc.Resolve()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

// TestLatencyWindow: percentiles over the window, and slices expiring.
func TestLatencyWindow(t *testing.T) {
	w := newLatencyWindow(100, 10) // width 1, slices of 10 ticks
	for lat := int64(1); lat <= 100; lat++ {
		w.add(5, lat, 1)
	}
	if p, ok := w.percentile(5, 90); !ok || p != 90 {
		t.Errorf("p90 of 1..100 = %d, %v; want 90", p, ok)
	}
	w.add(50, 7, 1000)
	if p, _ := w.percentile(50, 50); p != 7 {
		t.Errorf("p50 = %d, want 7", p)
	}
	if _, ok := w.percentile(200, 50); ok {
		t.Error("the window should be empty 150 ticks later")
	}
	long := newLatencyWindow(1<<20, 10) // 1024 buckets of 1025 ticks
	long.add(0, 5000, 1)
	if p, _ := long.percentile(0, 50); p != 5*1025-1 {
		t.Errorf("a wide bucket's percentile is its longest latency: %d", p)
	}
}
