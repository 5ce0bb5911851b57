package model

import (
	"testing"
	"time"
)

// healthyChain is a minute of a nested chain of three layers of three
// attempts at 2,000 requests/s (Poisson) against a dependency with room to
// spare that fails 5% of the calls it serves: every policy sees traffic, and
// none changes it much, so the benchmark measures what the policies cost.
func healthyChain() Scenario {
	s := Default()
	s.Engine = "stochastic"
	s.Tick = ms(10)
	s.Duration = Duration(time.Minute)
	s.Load = 2000
	s.Arrivals = "poisson"
	l := DefaultLayer()
	l.Attempts = 3
	l.Timeout = Duration(time.Second)
	s.Layer = []Layer{l, l, l}
	s.Dependency.Capacity = 4000
	s.Dependency.FailureProbability = 0.05
	s.Fault = nil
	return s
}

// withPolicies puts a retry budget on every layer (10%, scope layer), a
// failure-ratio breaker on every layer and a 3 s deadline on the requests.
func withPolicies(s Scenario) Scenario {
	s.Budget = Budget{Kind: "ratio", Scope: "layer", Params: RatioParams{Ratio: 0.1}}
	for i := range s.Layer {
		s.Layer[i].Breaker.SetTableKind("ratio")
	}
	s.Deadline = Duration(3 * time.Second)
	return s
}

// BenchmarkPolicies: one op is one run of healthyChain, without policies
// and with budget + breaker + deadline on every layer.
func BenchmarkPolicies(b *testing.B) {
	for _, c := range []struct {
		name string
		sc   Scenario
	}{{"none", healthyChain()}, {"budget+breaker+deadline", withPolicies(healthyChain())}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var calls float64
			for b.Loop() {
				r, err := Run(c.sc, 1, false)
				if err != nil {
					b.Fatal(err)
				}
				calls = r.Calls
			}
			b.ReportMetric(calls, "calls")
		})
	}
}
