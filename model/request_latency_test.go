package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// latencyScenario is one caller with three tries of 1 s above a dependency
// that answers every call 100 ms after it arrives (no queueing), at 100
// requests/s in 10 ms ticks, with the latencies of user requests measured.
func latencyScenario() Scenario {
	sc := Default()
	sc.Engine = "stochastic"
	sc.Tick = ms(10)
	sc.Duration = Duration(time.Minute)
	sc.Load = 100
	sc.Layer = []Layer{DefaultLayer()}
	sc.Layer[0].Attempts = 3
	sc.Dependency.Capacity = 1e6
	sc.Dependency.Latency = ms(100)
	sc.Fault = nil
	sc.MeasureLatency = true
	return sc
}

// TestRequestLatencyExact: the latency of a user request runs from the
// tick it arrived to the tick its answer reaches the user, retries and
// their waits included, in whole ticks.
func TestRequestLatencyExact(t *testing.T) {
	type want struct{ p50, p95, p99, e50, e99 float64 } // seconds; NaN: none
	nan := math.NaN()
	for _, c := range []struct {
		name string
		edit func(sc *Scenario)
		want want
	}{
		{"served in 100 ms", func(*Scenario) {}, want{0.1, 0.1, 0.1, nan, nan}},
		// The first try fails at once; the retry goes in the next tick.
		{"one failure, then a retry", func(sc *Scenario) {
			sc.Dependency.FlakyShare, sc.Dependency.FlakyFailures = 1, 1
		}, want{0.11, 0.11, 0.11, nan, nan}},
		{"one failure, a 200 ms backoff", func(sc *Scenario) {
			sc.Dependency.FlakyShare, sc.Dependency.FlakyFailures = 1, 1
			sc.Layer[0].Backoff = Backoff{Kind: "constant", Base: ms(200), Factor: 2, Jitter: "none"}
		}, want{0.31, 0.31, 0.31, nan, nan}},
		// Every try fails at once: errors after two retries, a tick apart.
		{"three failures", func(sc *Scenario) {
			sc.Dependency.FlakyShare, sc.Dependency.FlakyFailures = 1, 3
		}, want{nan, nan, nan, 0.02, 0.02}},
		// A dependency that never answers: each try is given up at the end
		// of its 100th tick and retried in the next, so the error comes
		// 3 × 100 + 2 ticks after the request.
		{"three timeouts", func(sc *Scenario) {
			sc.Dependency.Capacity = 0
			sc.Dependency.Latency = 0
			sc.Dependency.Queue = "fifo"
		}, want{nan, nan, nan, 3.02, 3.02}},
		// The same with a deadline of 1.5 s: the second try's wait is cut
		// to the deadline (given up at the end of tick 150), and the third
		// is refused when it is due, in the next tick.
		{"three timeouts, a 1.5 s deadline", func(sc *Scenario) {
			sc.Dependency.Capacity = 0
			sc.Dependency.Latency = 0
			sc.Deadline = ms(1500)
		}, want{nan, nan, nan, 1.51, 1.51}},
		// Two layers of three tries, every try failing at once: the nine
		// tries go a tick apart, the edge's retries after the lower
		// layer's three.
		{"two layers", func(sc *Scenario) {
			sc.Layer = append(sc.Layer, sc.Layer[0])
			sc.Dependency.FlakyShare, sc.Dependency.FlakyFailures = 1, 3
		}, want{nan, nan, nan, 0.08, 0.08}},
		// Two layers, the first two tries failing: the lower layer's third
		// try succeeds, 100 ms after it was sent.
		{"two layers, two failures", func(sc *Scenario) {
			sc.Layer = append(sc.Layer, sc.Layer[0])
			sc.Dependency.FlakyShare, sc.Dependency.FlakyFailures = 1, 2
		}, want{0.12, 0.12, 0.12, nan, nan}},
	} {
		sc := latencyScenario()
		c.edit(&sc)
		res, err := Run(sc, 1, false)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		m := res.Metrics
		got := want{m.LatencyP50, m.LatencyP95, m.LatencyP99, m.ErrorLatencyP50, m.ErrorLatencyP99}
		same := func(a, b float64) bool { return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) < 1e-9 }
		if !same(got.p50, c.want.p50) || !same(got.p95, c.want.p95) || !same(got.p99, c.want.p99) ||
			!same(got.e50, c.want.e50) || !same(got.e99, c.want.e99) {
			t.Errorf("%s: latencies %+v, want %+v (%v)", c.name, got, c.want, m)
		}
	}
}

// TestRequestLatencyOff: without measure_latency every latency is NaN (no
// column), and the queue engine refuses the key; a change cannot set it.
func TestRequestLatencyOff(t *testing.T) {
	sc := latencyScenario()
	sc.MeasureLatency = false
	m := runOne(t, sc, 1)
	for _, x := range latencies(&m) {
		if !math.IsNaN(*x) {
			t.Errorf("a latency without measure_latency: %+v", m)
		}
	}
	q := Default()
	q.MeasureLatency = true
	if _, err := q.Resolve(); err == nil || !strings.Contains(err.Error(), "measure_latency") {
		t.Errorf("the queue engine: %v", err)
	}
	if _, ok := fixedKey("measure_latency"); !ok {
		t.Error("a change may set measure_latency")
	}
}

// TestRequestLatencyLeavesTheRunAlone: measuring the latencies changes no
// other number of a run without random draws (the stuck 27-attempt blip at
// constant arrivals, and the three-hop chain of the slowdown), and keeps
// the engine's invariants and its recycling on random scenarios, where it
// may split retries of requests that arrived in different ticks into
// groups of their own (so the draws, exact in distribution, differ).
func TestRequestLatencyLeavesTheRunAlone(t *testing.T) {
	long(t)
	t.Parallel()
	blip := blipStorm("stochastic", 10*time.Minute)
	chain := blip
	chain.Tick = ms(50)
	chain.Load = 100
	chain.Dependency.Capacity = 200
	chain.Dependency.Latency = ms(100)
	chain.Layer = []Layer{DefaultLayer(), DefaultLayer(), DefaultLayer()}
	for i, timeout := range []time.Duration{time.Second, 2 * time.Second, 5 * time.Second} {
		chain.Layer[i].Attempts, chain.Layer[i].Timeout = 3, Duration(timeout)
	}
	chain.Fault = []Fault{{Kind: "slowdown", Start: Duration(30 * time.Second), Length: Duration(40 * time.Second), Factor: 4}}
	for name, sc := range map[string]Scenario{"blip": blip, "chain": chain} {
		plain := runOne(t, sc, 1)
		sc.MeasureLatency = true
		measured := runOne(t, sc, 1)
		if math.IsNaN(measured.LatencyP50) || math.IsNaN(measured.ErrorLatencyP99) {
			t.Errorf("%s: latencies not measured: %+v", name, measured)
		}
		measured.noLatencies()
		if a, b := fmt.Sprintf("%#v", plain), fmt.Sprintf("%#v", measured); a != b {
			t.Errorf("%s: measuring changed the run:\n%s\n%s", name, a, b)
		}
	}
	r := rand.New(rand.NewPCG(21, 22))
	for i := range 80 {
		sc := randomScenario(r)
		sc.MeasureLatency = true
		m, ok := checkInvariants(t, i, sc, r.Uint64())
		if !ok {
			return
		}
		if m.Successful > 0 && !(m.LatencyP50 <= m.LatencyP95 && m.LatencyP95 <= m.LatencyP99) ||
			m.Failed > 0 && !(m.ErrorLatencyP50 <= m.ErrorLatencyP99) {
			t.Errorf("case %d: quantiles out of order: %+v", i, m)
		}
		checkRecycling(t, i, sc, 3)
	}
}

// TestRequestLatencyReplicates: a cell's latency is the mean over its
// replicates of each one's quantile.
func TestRequestLatencyReplicates(t *testing.T) {
	sc := latencyScenario()
	sc.Arrivals = "poisson"
	sc.Dependency.Network = Network{Kind: "exponential", Delay: ms(20)}
	sc.Replicates = 3
	res, err := Run(sc, 5, false)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for r := range 3 {
		one := sc
		one.Replicates = 1
		sum += runOne(t, one, ReplicateSeed(5, r)).LatencyP99
	}
	if math.Abs(res.LatencyP99-sum/3) > 1e-12 || res.SD.LatencyP99 <= 0 {
		t.Errorf("p99 %v ± %v, want the mean %v of the replicates'", res.LatencyP99, res.SD.LatencyP99, sum/3)
	}
}

// BenchmarkRequestLatency: one op is a minute of 200 requests/s at 1 ms
// ticks over an exponential network (the hedging experiment's slow calls),
// without and with the latencies measured: what measure_latency costs.
func BenchmarkRequestLatency(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "off"
		if on {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			sc := latencyScenario()
			sc.Arrivals = "poisson"
			sc.Load = 200
			sc.Dependency.Latency = 0
			sc.Dependency.Network = Network{Kind: "exponential", Delay: ms(10)}
			sc.MeasureLatency = on
			p, err := sc.Resolve()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				runStochastic(p, 1, false, nil)
			}
		})
	}
}
