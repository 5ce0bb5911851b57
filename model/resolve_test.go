package model

import (
	"context"
	"math"
	"testing"
	"time"
)

// edgeStorm is a chain whose top layer gives up sooner than the bottom one
// (500 ms, 1 s, 2 s; three attempts each; cancellation), hit by a 40 s
// slowdown ×3 at load 70 against capacity 100 with 50 ms of service latency.
func edgeStorm() Scenario {
	s := Default()
	s.Engine = "stochastic"
	s.Tick = ms(10)
	s.Duration = Duration(30 * time.Minute)
	s.CancelAbandoned = true
	s.Layer = nil
	for _, timeout := range []int{500, 1000, 2000} {
		l := DefaultLayer()
		l.Attempts, l.Timeout = 3, ms(timeout)
		s.Layer = append(s.Layer, l)
	}
	s.Dependency.Latency = ms(50)
	s.Fault = []Fault{{Kind: "slowdown", Start: Duration(time.Minute), Length: Duration(40 * time.Second), Factor: 3}}
	return s
}

// TestHealthAtTheEdge: health is judged with the timeout of the user at the
// edge, less the service latency, never with a lower layer's. The chain of
// edgeStorm serves almost nothing after the slowdown — every answer comes
// too late for the 500 ms edge — while its queue stays under the bottom
// layer's 2 s of work: judged at the bottom it would count as recovered at
// once.
func TestHealthAtTheEdge(t *testing.T) {
	long(t)
	sc := edgeStorm()
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if p.Health.Rule != HealthQueue || math.Abs(p.Health.Limit-45) > 1e-9 {
		t.Fatalf("health %+v, want the queue rule with a limit of 100/s × (0.5 s − 0.05 s) = 45 calls", p.Health)
	}
	r, err := Run(sc, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.Recovered() || r.Successful > 0.05*r.Requests {
		t.Errorf("want never recovered with under 5%% of requests successful: %v", r.Metrics)
	}
	// The same run judged with the bottom layer's 2 s: the queue rule alone
	// would call it recovered at once, but no request succeeds after the
	// slowdown, so the verdict is stuck all the same.
	p.Health.Limit = 100 * 2
	bottom, err := RunPlan(context.Background(), p, 1, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if bottom.Verdict != Stuck || bottom.Successful != r.Successful {
		t.Errorf("judged at the bottom: want stuck (nothing succeeds after the slowdown) with the same %v successes: %v", r.Successful, bottom.Metrics)
	}
}

// TestResolveHealthRule: the default rule is the queue rule only where
// calls wait for a capacity and the user gives up; a latency server, a loss
// server and a user who waits forever are judged by goodput, and have no
// healthy backlog.
func TestResolveHealthRule(t *testing.T) {
	for _, c := range []struct {
		name  string
		set   func(s *Scenario)
		rule  HealthRule
		limit float64 // NaN: none
	}{
		{"fifo", func(s *Scenario) {}, HealthQueue, 100},
		{"lifo, two layers", func(s *Scenario) {
			s.Dependency.Queue = "lifo"
			s.Layer = []Layer{DefaultLayer(), DefaultLayer()}
			s.Layer[1].Timeout = Duration(3 * time.Second)
		}, HealthQueue, 100},
		{"loss server", func(s *Scenario) { s.Dependency.Queue = "none" }, HealthGoodput, 100},
		{"timeout 0 at the edge", func(s *Scenario) { s.Layer[0].Timeout = 0 }, HealthGoodput, math.NaN()},
		{"latency server", func(s *Scenario) {
			s.Engine = "stochastic"
			s.Dependency.Capacity = 0
			s.Dependency.LatencySlope = ms(2)
		}, HealthGoodput, math.NaN()},
		{"network delay", func(s *Scenario) {
			s.Engine = "stochastic"
			s.Dependency.Network = Network{Kind: "constant", Delay: ms(100)}
		}, HealthQueue, 80},
		{"goodput asked for", func(s *Scenario) { s.Health.Rule = "goodput" }, HealthGoodput, 100},
	} {
		sc := Default()
		c.set(&sc)
		p, err := sc.Resolve()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.Health.Rule != c.rule || !(math.IsNaN(c.limit) && math.IsNaN(p.Health.Limit) || math.Abs(p.Health.Limit-c.limit) < 1e-9) {
			t.Errorf("%s: health %+v, want rule %d with limit %v", c.name, p.Health, c.rule, c.limit)
		}
		rule, ok := p.RuleOfThumb(50)
		if ok != !math.IsNaN(c.limit) || ok && math.Abs(rule-c.limit/50) > 1e-9 {
			t.Errorf("%s: rule of thumb at load 50: %v, %v", c.name, rule, ok)
		}
	}
}

// TestResolveChainAndFaults: the flat form is one caller with the product of
// the attempts, the top layer's backoff and the bottom layer's timeout;
// fault segments cover the run in ticks.
func TestResolveChainAndFaults(t *testing.T) {
	sc := Default()
	sc.Layers = 3
	sc.Layer = []Layer{DefaultLayer(), DefaultLayer()}
	sc.Layer[0].Attempts = 2
	sc.Layer[0].Backoff = Backoff{Kind: "constant", Base: Duration(2 * time.Second), Factor: 2, Jitter: "none"}
	sc.Layer[1].Attempts = 3
	sc.Layer[1].Timeout = Duration(2 * time.Second)
	sc.Fault = []Fault{{Kind: "outage", Start: Duration(60 * time.Second), Length: Duration(30 * time.Second), Factor: 1},
		{Kind: "spike", Start: Duration(80 * time.Second), Length: Duration(20 * time.Second), Factor: 2}}
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	want := LayerPlan{Attempts: 18, Timeout: 2, Backoff: BackoffPlan{Kind: BackoffConstant, Base: 2, Factor: 2}}
	if !p.Flat || len(p.Chain) != 1 || p.Chain[0] != want || p.Allowed != 18 || p.EdgeTimeout != Duration(time.Second) {
		t.Errorf("chain %+v (flat %v, allowed %d, edge %v), want %+v", p.Chain, p.Flat, p.Allowed, p.EdgeTimeout, want)
	}
	if p.Fault != (FaultWindow{Has: true, From: 60, To: 100, Start: Duration(60 * time.Second), End: Duration(100 * time.Second)}) {
		t.Errorf("fault window %+v", p.Fault)
	}
	var got [][3]float64
	for _, sg := range p.Faults {
		got = append(got, [3]float64{float64(sg.From), sg.CapRate, sg.ArrFactor})
	}
	wantSegs := [][3]float64{{0, 100, 1}, {60, 0, 1}, {80, 0, 2}, {90, 100, 2}, {100, 100, 1}}
	if len(got) != len(wantSegs) || p.Faults[len(p.Faults)-1].To != 3600 {
		t.Fatalf("segments %v", got)
	}
	for i := range got {
		if got[i] != wantSegs[i] {
			t.Errorf("segment %d: %v, want %v", i, got[i], wantSegs[i])
		}
	}
}
