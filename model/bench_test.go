package model

import (
	"context"
	"testing"
	"time"
)

// BenchmarkStormChain: one op is one 4,000-round run of the "Retries and
// Storm Risk" article's 3×3×3 configuration under the degradation profile
// (rng = "minstd", request by request).
func BenchmarkStormChain(b *testing.B) {
	sc := stormProfile("degradation", [3]int{3, 3, 3}, 0)
	b.ReportAllocs()
	var calls float64
	for b.Loop() {
		r, err := Run(sc, stormSeed, false)
		if err != nil {
			b.Fatal(err)
		}
		calls = r.Calls
	}
	if calls != 5296 {
		b.Fatalf("calls %v, want 5296", calls)
	}
}

// BenchmarkStormChainQuiet: one op is BenchmarkStormChain's scenario with
// no fault, so every request is one call answered at once: the cheapest
// way a request goes through the engine (its group opened, passed to the
// dependency, answered and released), with the same rounds around it.
// Beside BenchmarkStormChainIdle and BenchmarkResolveStormChain (it
// resolves its scenario in every op) it gives the per-call floor of the
// one path: (ns/op − idle − resolve) / calls.
func BenchmarkStormChainQuiet(b *testing.B) {
	benchCalls(b, stormProfile("", [3]int{3, 3, 3}, 0))
}

// BenchmarkStormChainIdle: one op is BenchmarkStormChain's 4,000 rounds
// with arrivals so rare that none comes: every round is only its
// bookkeeping (the arrivals' Knuth draw, the health window, the guard),
// reported per round as ns/round. The scenario is resolved once, as the
// pipeline does for a cell's replicates: resolving it is
// BenchmarkResolveStormChain.
func BenchmarkStormChainIdle(b *testing.B) {
	sc := stormProfile("degradation", [3]int{3, 3, 3}, 0)
	sc.Load = 1e-9
	p, err := sc.Resolve()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r, err := RunPlan(context.Background(), p, stormSeed, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if r.Requests != 0 {
			b.Fatalf("%v requests arrived, want none", r.Requests)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4000, "ns/round")
}

// storm10k is an hour of a nested 3×3×3 chain at 10,000 requests/s
// (Poisson) against a FIFO dependency with capacity 12,000/s: 1 s timeouts at
// every layer, backoff 100 ms doubling to 1 s without jitter, a 30 s outage
// at minute 10, 10 ms ticks. The outage tips it into a storm that lasts the
// rest of the hour: 815 million calls, 22.6 per request, a backlog of 773
// million calls.
func storm10k() Scenario {
	s := Default()
	s.Engine = "stochastic"
	s.Tick = ms(10)
	s.Duration = Duration(time.Hour)
	s.Load = 10000
	s.Arrivals = "poisson"
	l := DefaultLayer()
	l.Attempts = 3
	l.Timeout = Duration(time.Second)
	l.Backoff = Backoff{Kind: "exponential", Base: ms(100), Factor: 2, Cap: Duration(time.Second), Jitter: "none"}
	s.Layer = []Layer{l}
	s.Layers = 3
	s.Dependency.Capacity = 12000
	s.Fault = []Fault{{Kind: "outage", Start: Duration(10 * time.Minute), Length: Duration(30 * time.Second), Factor: 1}}
	return s
}

// BenchmarkStorm10k: one op is one run of storm10k (rng = "pcg", cohorts).
func BenchmarkStorm10k(b *testing.B) { benchStorm(b, storm10k()) }

// benchStorm runs sc (seed 1) as one op and reports its calls and peak load.
func benchStorm(b *testing.B, sc Scenario) {
	b.ReportAllocs()
	for b.Loop() {
		r, err := Run(sc, 1, false)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(r.Calls, "calls")
		b.ReportMetric(r.PeakLoadX, "peak_x")
	}
}

// BenchmarkMinstdBlock: one op works out minstdBlock (128) MINSTD draws, as
// float64 bits. The article's degradation run takes 9,296 draws (73
// blocks), so this bounds what BenchmarkStormChain can cost from below.
func BenchmarkMinstdBlock(b *testing.B) {
	m := NewMinstd(stormSeed)
	var buf [minstdBlock]uint64
	for b.Loop() {
		m.block(&buf)
	}
}

// BenchmarkResolveStormChain: one op resolves BenchmarkStormChain's
// scenario into its plan (validation included): the part of every run
// that does not depend on its length.
func BenchmarkResolveStormChain(b *testing.B) {
	sc := stormProfile("degradation", [3]int{3, 3, 3}, 0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sc.Resolve(); err != nil {
			b.Fatal(err)
		}
	}
}
