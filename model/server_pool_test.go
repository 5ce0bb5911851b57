package model

import (
	"math"
	"testing"
	"time"
)

// poolScenario is an open Poisson loop of lambda requests/s on a pool of c
// workers with exponential service of rate mu a worker, no retries, no
// timeouts in practice, run for seconds on a 4 ms tick (25 ticks a service at 10 a second: a
// call ending in the tick it starts holds its worker to the next tick,
// which on a 10 ms tick lengthens service by half a percent and the
// M/M/1 queue by 4%).
func poolScenario(lambda, mu float64, c int, seconds int) Scenario {
	sc := Default()
	sc.Engine = "stochastic"
	sc.Tick = Duration(4 * time.Millisecond)
	sc.Duration = Duration(time.Duration(seconds) * time.Second)
	sc.Load, sc.Arrivals = lambda, "poisson"
	sc.Layer = []Layer{DefaultLayer()}
	sc.Layer[0].Timeout = Duration(time.Hour)
	sc.Dependency.Capacity = 0
	sc.Dependency.Workers = c
	sc.Dependency.Latency = Duration(time.Duration(float64(time.Second) / mu))
	sc.Dependency.Service = Service{Kind: "exponential"}
	return sc
}

// steadyMeans runs sc once per seed and averages, over the series' bins
// after the first warm seconds, the user requests in the system (in flight)
// and the calls waiting.
func steadyMeans(t *testing.T, sc Scenario, seeds, warm int) (inSystem, waiting float64) {
	t.Helper()
	var n float64
	for i := range seeds {
		res, err := Run(sc, uint64(1000+i), true)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Series.Rows[warm:] {
			inSystem += r.InFlight
			waiting += r.Queue
			n++
		}
	}
	return inSystem / n, waiting / n
}

// TestMM1MeanInSystem checks a single worker with exponential service at
// utilisation 0.8 against M/M/1: ρ/(1 − ρ) = 4 requests in the system on
// average, within 3%.
func TestMM1MeanInSystem(t *testing.T) {
	l, _ := steadyMeans(t, poolScenario(8, 10, 1, 20000), 8, 200)
	if want := 0.8 / (1 - 0.8); math.Abs(l-want) > 0.03*want {
		t.Errorf("M/M/1 at ρ = 0.8: %.3f requests in the system on average, want %.3f ± 3%%", l, want)
	}
	t.Logf("M/M/1 ρ = 0.8: L = %.3f (theory 4)", l)
}

// erlangC is the probability that an arrival waits in M/M/c with offered
// load a = λ/μ erlangs (a < c).
func erlangC(c int, a float64) float64 {
	term, sum := 1.0, 1.0 // a^k/k! for k = 0
	for k := 1; k < c; k++ {
		term *= a / float64(k)
		sum += term
	}
	top := term * a / float64(c) * float64(c) / (float64(c) - a) // a^c/c! · c/(c − a)
	return top / (sum + top)
}

// TestErlangCMeanWait checks four workers with exponential service at
// utilisation 0.9 against Erlang C: the mean wait in the queue,
// C(c, a)/(cμ − λ), within 5%, the wait measured by Little's law from the
// mean number of calls waiting.
func TestErlangCMeanWait(t *testing.T) {
	const c, mu, rho = 4, 10.0, 0.9
	lambda := rho * c * mu
	_, lq := steadyMeans(t, poolScenario(lambda, mu, c, 20000), 6, 200)
	wq := lq / lambda
	if want := erlangC(c, lambda/mu) / (c*mu - lambda); math.Abs(wq-want) > 0.05*want {
		t.Errorf("M/M/4 at ρ = 0.9: mean wait %.4f s, want Erlang C's %.4f s ± 5%%", wq, want)
	}
	t.Logf("M/M/4 ρ = 0.9: Wq = %.4f s (Erlang C %.4f s)", wq, erlangC(c, lambda/mu)/(c*mu-lambda))
}

// BenchmarkStorm10kPool: one op is one run of storm10k with the FIFO
// capacity server replaced by a pool of the same capacity, 1,200 workers
// with exponential service of 100 ms (10 ticks) on average; compare with
// BenchmarkStorm10k, the capacity server on the same storm.
func BenchmarkStorm10kPool(b *testing.B) {
	sc := storm10k()
	sc.Dependency.Capacity = 0
	sc.Dependency.Workers = 1200
	sc.Dependency.Latency = ms(100)
	sc.Dependency.Service = Service{Kind: "exponential"}
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
