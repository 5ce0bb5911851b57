package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
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

// poolMeansOver runs sc with the given replicates and returns the pool's
// means over the run (its result columns in_system_mean, wait_mean_s,
// service_mean_s), averaged over the replicates.
func poolMeansOver(t *testing.T, sc Scenario, replicates int) Result {
	t.Helper()
	sc.Replicates = replicates
	res, err := Run(sc, 1000, false)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestMM1MeanInSystem checks a single worker with exponential service at
// utilisation 0.8 against M/M/1: ρ/(1 − ρ) = 4 calls in the system on
// average (in_system_mean, over the whole run: the first seconds' warm-up
// from empty weighs little in 20,000), within 3%.
func TestMM1MeanInSystem(t *testing.T) {
	long(t)
	l := poolMeansOver(t, poolScenario(8, 10, 1, 20000), 8).InSystemMean
	if want := 0.8 / (1 - 0.8); math.Abs(l-want) > 0.03*want {
		t.Errorf("M/M/1 at ρ = 0.8: %.3f calls in the system on average, want %.3f ± 3%%", l, want)
	}
	t.Logf("M/M/1 ρ = 0.8: L = %.3f (theory 4)", l)
}

// erlangC is the probability that an arrival waits in M/M/c with offered
// load a = λ/μ erlangs (a < c), from Erlang B, which is the Poisson law of
// mean a at c given at most c (gonum's distuv.Poisson):
// C = c·B / (c − a·(1 − B)).
func erlangC(c int, a float64) float64 {
	p := distuv.Poisson{Lambda: a}
	b := p.Prob(float64(c)) / p.CDF(float64(c))
	return float64(c) * b / (float64(c) - a*(1-b))
}

// TestErlangCFormula checks erlangC against the textbook sum for a few
// pools, so the M/M/c check below rests on a right formula.
func TestErlangCFormula(t *testing.T) {
	sum := func(c int, a float64) float64 {
		term, s := 1.0, 1.0 // a^k/k! for k = 0
		for k := 1; k < c; k++ {
			term *= a / float64(k)
			s += term
		}
		top := term * a / float64(c) * float64(c) / (float64(c) - a) // a^c/c! · c/(c − a)
		return top / (s + top)
	}
	for _, tc := range []struct {
		c int
		a float64
	}{{1, 0.8}, {2, 1.5}, {4, 3.6}, {10, 8}, {50, 45}} {
		if got, want := erlangC(tc.c, tc.a), sum(tc.c, tc.a); math.Abs(got-want) > 1e-12*want {
			t.Errorf("Erlang C(%d, %g) = %.15f, the sum gives %.15f", tc.c, tc.a, got, want)
		}
	}
	if got := erlangC(1, 0.8); math.Abs(got-0.8) > 1e-12 { // M/M/1: an arrival waits with probability ρ
		t.Errorf("Erlang C(1, 0.8) = %v, want ρ = 0.8", got)
	}
}

// TestErlangCMeanWait checks four workers with exponential service at
// utilisation 0.9 against Erlang C: the mean wait in the queue
// (wait_mean_s, measured per call), C(c, a)/(cμ − λ), within 5%.
func TestErlangCMeanWait(t *testing.T) {
	long(t)
	const c, mu, rho = 4, 10.0, 0.9
	lambda := rho * c * mu
	wq := poolMeansOver(t, poolScenario(lambda, mu, c, 20000), 6).WaitMeanS
	want := erlangC(c, lambda/mu) / (c*mu - lambda)
	if math.Abs(wq-want) > 0.05*want {
		t.Errorf("M/M/4 at ρ = 0.9: mean wait %.4f s, want Erlang C's %.4f s ± 5%%", wq, want)
	}
	t.Logf("M/M/4 ρ = 0.9: Wq = %.4f s (Erlang C %.4f s)", wq, want)
}

// TestLittle checks Little's law, L = λW, on worker pools drawn at random
// (seeded): 1 to 8 workers, a utilisation from 0.3 to 0.95, any registered
// service-time law (its default keys; a random mean for the laws that take
// dependency.latency), a fifo or lifo waiting room, Poisson arrivals, no
// timeouts, and in turn a fault or none: a degradation to 70% of the workers or a
// slowdown by 1.3 for a minute, or an outage of 5 s whose calls in service
// finish, fail or hang. L is the pool's mean number in system (in_system_mean), λ the
// calls that reached it a second, W the mean wait (wait_mean_s) plus the
// mean time a call held its worker (service_mean_s): three measurements
// made apart, which agree on every sample path up to the calls still in
// the pool when the run ends; 1% covers that over 1,000 s.
func TestLittle(t *testing.T) {
	long(t)
	r := rand.New(rand.NewPCG(19, 2026))
	laws := serviceKinds()
	for i := range 18 {
		sc := poolScenario(1, 10, 1+r.IntN(8), 1000)
		sc.Tick = Duration(5 * time.Millisecond)
		sc.Dependency.Latency = Duration(time.Duration(20+r.IntN(180)) * time.Millisecond)
		if err := sc.Dependency.Service.SetTableKind(laws[r.IntN(len(laws))].Name); err != nil {
			t.Fatal(err)
		}
		if r.IntN(2) == 1 {
			sc.Dependency.Queue = "lifo"
		}
		mean := sc.Dependency.Service.law(sc.Dependency.Latency.Seconds()).mean()
		rho := 0.3 + 0.65*r.Float64()
		sc.Load = rho * float64(sc.Dependency.Workers) / mean
		fault := "no fault"
		f := Fault{Start: Duration(200 * time.Second), Length: Duration(time.Minute), Factor: 1}
		switch i % 6 { // each fault three times
		case 1:
			f.Kind, f.Capacity = "degradation", 0.7*float64(sc.Dependency.Workers)/mean
		case 2:
			f.Kind, f.Factor = "slowdown", 1.3
		case 3, 4, 5:
			f.Kind, f.Length, f.InService = "outage", Duration(5*time.Second), []string{"finish", "fail", "hang"}[i%6-3]
		}
		if f.Kind != "" {
			sc.Fault = []Fault{f}
			fault = f.Kind + " " + f.InService
		}
		res := poolMeansOver(t, sc, 1)
		lambda := res.Calls / sc.Duration.Seconds()
		w := res.WaitMeanS + res.ServiceMeanS
		name := fmt.Sprintf("%d workers, %s service of mean %.3g s, %s, ρ %.2f, %s", sc.Dependency.Workers, sc.Dependency.Service.Kind, mean, sc.Dependency.Queue, rho, fault)
		if l := res.InSystemMean; math.Abs(l-lambda*w) > 0.01*l {
			t.Errorf("%s: L = %.4f calls, λW = %.3f/s × %.4f s = %.4f: Little's law off by more than 1%%", name, l, lambda, w, lambda*w)
		} else {
			t.Logf("%s: L = %.4f, λW = %.4f", name, l, lambda*w)
		}
	}
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
	benchStorm(b, sc)
}
