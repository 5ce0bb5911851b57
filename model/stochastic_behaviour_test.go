package model

import (
	"testing"
	"time"
)

// nestedStorm is a three-layer chain of three attempts (1 s timeouts,
// backoff 100 ms doubling to 1 s) at 100 requests/s on a FIFO dependency of
// 120/s that drops calls whose caller gave up, with a 5 s outage at 20 s.
func nestedStorm(cancel bool) Scenario {
	s := Default()
	s.Engine = "stochastic"
	s.Tick = ms(10)
	s.Duration = Duration(2 * time.Minute)
	s.Load = 100
	s.Arrivals = "poisson"
	l := DefaultLayer()
	l.Attempts = 3
	l.Timeout = Duration(time.Second)
	l.Backoff = Backoff{Kind: "exponential", Base: ms(100), Factor: 2, Cap: Duration(time.Second), Jitter: "none"}
	s.Layer = []Layer{l}
	s.Layers = 3
	s.Dependency.Capacity = 120
	s.Dependency.DropExpired = true
	s.CancelAbandoned = cancel
	s.Fault = []Fault{{Kind: "outage", Start: Duration(20 * time.Second), Length: Duration(5 * time.Second), Factor: 1}}
	return s
}

// TestCancelAbandoned: with equal timeouts every layer gives up at once, and
// the abandoned subtrees keep retrying below: most of the dependency's work
// is for nobody and the storm never ends, although the dependency drops
// calls whose own caller gave up. Propagating the give-up down the chain
// ends it.
func TestCancelAbandoned(t *testing.T) {
	long(t)
	for seed := uint64(1); seed <= 3; seed++ {
		keep := runOne(t, nestedStorm(false), seed)
		cancel := runOne(t, nestedStorm(true), seed)
		if keep.Recovered() || keep.Wasted() < 0.5 || keep.Amplification() < 10 {
			t.Errorf("seed %d, subtrees kept: want a lasting storm of orphaned work, got %v", seed, keep)
		}
		if !cancel.Recovered() || cancel.RecoveryS > 15 || cancel.Wasted() > 0.01 || cancel.Amplification() > 1.5 {
			t.Errorf("seed %d, cancelled: want a quick recovery without wasted work, got %v", seed, cancel)
		}
	}
}

// congestive is the latency server (no capacity limit; latency 50 ms plus
// 4 ms per call in service) at 100 requests/s with a 0.5 s timeout, hit by a
// 2 s fault at 20 s: health by goodput over 10 s.
func congestive(attempts int, fault string) Scenario {
	s := Default()
	s.Engine = "stochastic"
	s.Tick = ms(10)
	s.Duration = Duration(2 * time.Minute)
	s.Load = 100
	s.Arrivals = "poisson"
	l := DefaultLayer()
	l.Attempts = attempts
	l.Timeout = ms(500)
	s.Layer = []Layer{l}
	s.Dependency = Dependency{Capacity: 0, Latency: ms(50), LatencySlope: ms(4), Queue: "fifo", Network: Network{Kind: "none"}}
	s.Health.Window = Duration(10 * time.Second)
	s.Fault = []Fault{{Kind: fault, Start: Duration(20 * time.Second), Length: Duration(2 * time.Second), Factor: 5}}
	return s
}

// TestLatencyServerMetastable: healthy, the server holds about five calls
// (70 ms each). A 2 s outage or slowdown piles calls up, their latency passes
// the timeout, and with retries the abandoned calls keep it there; without
// retries the pile drains.
func TestLatencyServerMetastable(t *testing.T) {
	for _, fault := range []string{"outage", "slowdown"} {
		one := runOne(t, congestive(1, fault), 1)
		if !one.Recovered() || one.RecoveryS > 15 || one.Successful < 0.95*one.Requests {
			t.Errorf("%s, one attempt: want recovered, got %v", fault, one)
		}
		three := runOne(t, congestive(3, fault), 1)
		if three.Recovered() || three.Successful > 0.5*three.Requests {
			t.Errorf("%s, three attempts: want collapsed for good, got %v", fault, three)
		}
	}
}

// TestFaultEffects: each fault kind does what it says, measured on the
// series.
func TestFaultEffects(t *testing.T) {
	base := func() Scenario { // 1 s ticks: capacities are whole calls per tick
		s := Default()
		s.Engine = "stochastic"
		s.Duration = Duration(30 * time.Second)
		s.Load = 50
		s.Dependency.Capacity = 100
		s.Dependency.Queue = "none"
		return s
	}
	series := func(sc Scenario) []SeriesRow {
		r, err := Run(sc, 1, true)
		if err != nil {
			t.Fatal(err)
		}
		return r.Series.Rows
	}
	// A spike triples the arrivals from 10 s to 15 s.
	sc := base()
	sc.Fault = []Fault{{Kind: "spike", Start: Duration(10 * time.Second), Length: Duration(5 * time.Second), Factor: 3}}
	for _, row := range series(sc) {
		want := 50.0
		if row.T >= 10 && row.T < 15 {
			want = 150
		}
		if row.Requests != want {
			t.Errorf("spike: %v requests in second %v, want %v", row.Requests, row.T, want)
		}
	}
	// A degradation to 20/s serves 20 calls a second; a slowdown by 4
	// serves 25; both fail the rest at once (loss server, one attempt).
	for _, f := range []Fault{
		{Kind: "degradation", Start: Duration(10 * time.Second), Length: Duration(5 * time.Second), Capacity: 20, Factor: 1},
		{Kind: "slowdown", Start: Duration(10 * time.Second), Length: Duration(5 * time.Second), Factor: 4},
	} {
		sc := base()
		sc.Fault = []Fault{f}
		want := map[string]float64{"degradation": 20, "slowdown": 25}[f.Kind]
		for _, row := range series(sc) {
			if row.T >= 10 && row.T < 15 && (row.Served != want || row.Capacity != want || row.Failures != 50-want) {
				t.Errorf("%s: second %v served %v of capacity %v, %v failed", f.Kind, row.T, row.Served, row.Capacity, row.Failures)
			}
		}
	}
	// Two outages: nothing is served in either window, the window metrics
	// span both (first start to last end).
	sc = base()
	sc.Fault = []Fault{
		{Kind: "outage", Start: Duration(5 * time.Second), Length: Duration(2 * time.Second), Factor: 1},
		{Kind: "outage", Start: Duration(20 * time.Second), Length: Duration(3 * time.Second), Factor: 1},
	}
	for _, row := range series(sc) {
		out := (row.T >= 5 && row.T < 7) || (row.T >= 20 && row.T < 23)
		if out != (row.Served == 0) {
			t.Errorf("two outages: second %v served %v", row.T, row.Served)
		}
	}
	if m := runOne(t, sc, 1); m.WindowCalls != 50 {
		t.Errorf("two outages: %v calls/s over the fault window, want 50", m.WindowCalls)
	}
}

// TestNetworkRoundTrip: a call crosses the network twice, so a 300 ms delay
// each way beats a 500 ms timeout and loses to a 700 ms one.
func TestNetworkRoundTrip(t *testing.T) {
	for _, c := range []struct {
		timeout time.Duration
		ok      bool
	}{{500 * time.Millisecond, false}, {700 * time.Millisecond, true}} {
		s := Default()
		s.Engine = "stochastic"
		s.Tick = ms(10)
		s.Duration = Duration(20 * time.Second)
		s.Load = 20
		s.Layer[0].Timeout = Duration(c.timeout)
		s.Dependency.Network = Network{Kind: "constant", Delay: ms(300)}
		m := runOne(t, s, 1)
		// Without success, all the served work is wasted, but for answers
		// still in transit when the run ends.
		if c.ok && (m.Successful != m.Requests-m.Pending || m.Failed != 0) || !c.ok && (m.Successful != 0 || m.Wasted() < 0.97) {
			t.Errorf("timeout %v: %v", c.timeout, m)
		}
	}
}

// TestBudgetScopes: ten clients with a bucket of 20 tokens each can retry
// through a 1 s outage (each sees about 5 failed requests, 15 retries); a
// single bucket of 20 shared by all refuses most of the 150 retries.
func TestBudgetScopes(t *testing.T) {
	run := func(scope string) Metrics {
		s := Default()
		s.Engine = "stochastic"
		s.Tick = ms(10)
		s.Duration = Duration(30 * time.Second)
		s.Load = 50
		s.Arrivals = "poisson"
		s.Clients = 10
		s.Layer[0].Attempts = 4
		s.Layer[0].Backoff = Backoff{Kind: "constant", Base: ms(300), Factor: 2, Jitter: "full"}
		s.Dependency.Queue = "none"
		s.Dependency.Capacity = 1000
		s.Budget = Budget{Kind: "token_bucket", Scope: scope, Params: TokenBucketParams{Ratio: 0.1, MaxTokens: 20}}
		s.Fault = []Fault{{Kind: "outage", Start: Duration(10 * time.Second), Length: Duration(time.Second), Factor: 1}}
		return runOne(t, s, 1)
	}
	chain, client := run("chain"), run("client")
	if !(client.RetriesRefused < chain.RetriesRefused/2) || !(client.Failed < chain.Failed) {
		t.Errorf("refused/failed: per client %v/%v, shared %v/%v", client.RetriesRefused, client.Failed, chain.RetriesRefused, chain.Failed)
	}
}

// TestClosedLoopBound: a closed loop never has more requests in flight than
// clients, whatever the dependency does.
func TestClosedLoopBound(t *testing.T) {
	for _, rng := range []string{"pcg", "minstd"} {
		sc := loopScenario(true, "jitter")
		sc.RNG = rng
		r, err := Run(sc, 3, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range r.Series.Rows {
			if row.InFlight > float64(sc.Clients) {
				t.Fatalf("%s: %v requests in flight at %v s with %d clients", rng, row.InFlight, row.T, sc.Clients)
			}
		}
		if r.Pending > float64(sc.Clients) {
			t.Errorf("%s: %v pending", rng, r.Pending)
		}
	}
}

// TestFractionalCapacity: capacities under one call per tick. A busy FIFO
// server of 60/s at 10 ms ticks (0.6 calls per tick) serves 60 calls a
// second. A loss server of 20/s offered a call every 20 ms serves one call
// in three — what a server taking 50 ms per call does in continuous time —
// not whichever calls happen to fall on the ticks its credit rounds up in.
func TestFractionalCapacity(t *testing.T) {
	s := Default()
	s.Engine = "stochastic"
	s.Tick = ms(10)
	s.Duration = Duration(20 * time.Second)
	s.Load = 100
	s.Layer[0].Timeout = 0 // waits as long as it takes
	s.Dependency.Capacity = 60
	r, err := Run(s, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range r.Series.Rows {
		if row.T >= 1 && row.Served != 60 {
			t.Errorf("busy FIFO of 60/s: %v served in second %v", row.Served, row.T)
		}
	}
	s.Load = 50
	s.Dependency.Capacity = 20
	s.Dependency.Queue = "none"
	m := runOne(t, s, 1)
	if got := m.Served / s.Duration.Seconds(); got < 16 || got > 17.5 {
		t.Errorf("loss server of 20/s, a call every 20 ms: %.2f served per second, want about 16.7", got)
	}
}
