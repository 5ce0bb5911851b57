package model

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// seqPaths runs sc with seed on the sequential loss loop, on the
// immediate-answer path and on the general path (the last two with and
// without a series) and reports any difference in the metrics.
func seqPaths(t *testing.T, name string, sc Scenario, seed uint64) {
	t.Helper()
	if err := Check(&sc); err != nil {
		t.Fatalf("%s: %v\n%+v", name, err, sc)
	}
	seq := newStochSim(&sc, seed, true)
	if !seq.seqOK {
		t.Fatalf("%s is not on the sequential loss loop: %+v", name, sc)
	}
	want, _, _ := seq.run(false)
	for _, p := range []struct {
		path   string
		fast   bool
		series bool
	}{{"immediate", true, false}, {"immediate, series", true, true}, {"general", false, false}, {"general, series", false, true}} {
		o := newStochSim(&sc, seed, true)
		o.seqOK, o.fast = false, p.fast
		got, _, _ := o.run(p.series)
		if a, b := fmt.Sprintf("%#v", want), fmt.Sprintf("%#v", got); a != b {
			t.Fatalf("%s (seed %d): sequential loop\n%v\n%s path\n%v\n%+v", name, seed, want, p.path, got, sc)
		}
	}
}

// TestSequentialLoopMatchesGeneral: with rng = "minstd", one caller, a loss
// server, no delays and open-loop Poisson arrivals the engine runs a loop of
// its own (stochastic_seq.go); its metrics must be exactly those of the
// immediate-answer path and of the general path — on the article's fifteen
// runs, on cases chosen to take the loop's rarer turns, and on random ones.
func TestSequentialLoopMatchesGeneral(t *testing.T) {
	for _, profile := range []string{"healthy", "outage", "degradation"} {
		for _, c := range stormConfigs {
			seqPaths(t, profile+"/"+c.name, stormProfile(profile, c.attempts, c.budget), stormSeed)
		}
	}

	base := func() Scenario { return stormProfile("degradation", [3]int{3, 3, 3}, 0) }
	cases := map[string]func(*Scenario){
		"decorrelated jitter (waits drawn by waitOne)": func(s *Scenario) {
			s.Layer[0].Backoff.Jitter = "decorrelated"
		},
		"equal jitter, capped": func(s *Scenario) {
			for i := range s.Layer {
				s.Layer[i].Backoff.Jitter = "equal"
			}
		},
		"constant backoff, no jitter": func(s *Scenario) {
			s.Layer[0].Backoff = Backoff{Kind: "constant", Base: ms(30), Factor: 2, Jitter: "none"}
		},
		"no backoff":  func(s *Scenario) { s.Layer[0].Backoff = Backoff{Kind: "none", Factor: 2, Jitter: "none"} },
		"one attempt": func(s *Scenario) { s.Layer = s.Layer[:1]; s.Layer[0].Attempts = 1 },
		"failures and a ratio budget": func(s *Scenario) {
			s.Dependency.FailureProbability = 0.2
			s.Budget = Budget{Kind: "ratio", Ratio: 0.2, Scope: "layer"}
		},
		"fractional capacity (credit)": func(s *Scenario) {
			s.Dependency.Capacity = 333
			s.Fault = append(s.Fault, Fault{Kind: "slowdown", Start: Duration(20 * time.Second), Length: Duration(7 * time.Second), Factor: 3})
		},
		"outage and spike": func(s *Scenario) {
			s.Fault = []Fault{{Kind: "outage", Start: ms(3000), Length: ms(2000), Factor: 1},
				{Kind: "spike", Start: ms(4000), Length: ms(5000), Factor: 10}}
		},
		"bursts beyond the ring's room": func(s *Scenario) {
			s.Duration = Duration(6 * time.Second)
			s.Dependency.Capacity = 300
			s.Fault = []Fault{{Kind: "spike", Start: ms(2000), Length: ms(500), Factor: 60}}
		},
		"means near 500 a tick (more draws than the buffer holds)": func(s *Scenario) {
			s.Load = 45000
			s.Dependency.Capacity = 40000
			s.Duration = Duration(time.Second)
		},
		"long health window":                func(s *Scenario) { s.Health.Window = Duration(25 * time.Second) },
		"health window longer than the run": func(s *Scenario) { s.Health.Window = Duration(time.Minute) },
		"queue rule":                        func(s *Scenario) { s.Health.Rule = "queue" },
		"no fault":                          func(s *Scenario) { s.Fault = nil },
		"fault past the end": func(s *Scenario) {
			s.Fault = []Fault{{Kind: "degradation", Start: ms(35000), Length: ms(60000), Capacity: 50, Factor: 1}}
		},
		"1 ms ticks": func(s *Scenario) { s.Tick = ms(1); s.Duration = Duration(8 * time.Second) },
		"1 s ticks":  func(s *Scenario) { s.Tick = ms(1000); s.Duration = Duration(10 * time.Minute); s.Load = 9 },
	}
	for name, change := range cases {
		for seed := uint64(1); seed <= 3; seed++ {
			sc := base()
			change(&sc)
			seqPaths(t, name, sc, seed)
		}
	}

	r := rand.New(rand.NewPCG(7, 8))
	n := 0
	for i := 0; n < 150 && i < 20000; i++ {
		sc := randomScenario(r)
		sc.RNG = "minstd"
		sc.Arrivals = "poisson"
		sc.Clients = 0
		d := &sc.Dependency
		d.Queue, d.QueueLimit, d.Latency, d.LatencySlope = "none", 0, 0, 0
		d.Network = Network{Kind: "none"}
		d.Collapse.Slope = 0
		if d.Capacity == 0 {
			d.Capacity = 50
		}
		if sc.Layers > 1 || len(sc.Layer) > 1 && sc.Chain != "flat" {
			sc.Chain = "flat"
		}
		if sc.Budget.Kind != "ratio" {
			sc.Budget.Kind = "none"
		}
		if Check(&sc) != nil || !newStochSim(&sc, 1, true).seqOK {
			continue
		}
		n++
		seqPaths(t, fmt.Sprintf("random case %d", i), sc, r.Uint64())
	}
	if n < 100 {
		t.Fatalf("only %d eligible random scenarios", n)
	}
}
