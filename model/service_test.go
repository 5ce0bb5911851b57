package model

import (
	"math"
	"testing"
)

// testLaws makes every registered service-time law with its default keys
// and a latency of 50 ms.
func testLaws(t *testing.T) map[string]serviceLaw {
	t.Helper()
	laws := map[string]serviceLaw{}
	for _, k := range serviceKinds() {
		if k.check != nil {
			if err := k.check(k.Params); err != nil {
				t.Fatalf("%s: its defaults fail its check: %v", k.Name, err)
			}
		}
		laws[k.Name] = k.make(k.Params, 0.05)
	}
	if len(laws) < 5 {
		t.Fatalf("%d service-time laws registered, want constant, exponential, lognormal, pareto and empirical", len(laws))
	}
	return laws
}

// TestServiceLawsInvert checks each law's upper against its survival and
// its mean against the integral of its quantile function.
func TestServiceLawsInvert(t *testing.T) {
	for name, law := range testLaws(t) {
		if _, ok := law.(atomic); !ok {
			for _, s := range []float64{0.9, 0.5, 0.1, 0.01, 1e-4, 1e-8} {
				if got := law.survival(law.upper(s)); math.Abs(got-s) > 1e-9*math.Max(1, 1/s)*s+1e-12 {
					t.Errorf("%s: survival(upper(%g)) = %g", name, s, got)
				}
			}
		}
		const m = 200000
		var sum float64
		for i := range m {
			sum += law.upper((float64(i) + 0.5) / m)
		}
		if got, want := sum/m, law.mean(); math.Abs(got-want) > 0.005*want {
			t.Errorf("%s: the quantile function integrates to %g s, mean() says %g s", name, got, want)
		}
	}
}

// TestServiceLawsKnown checks the laws' parameters against closed forms:
// the lognormal's median and p99 are the keys given, the exponential's
// median is ln 2 × its mean, the Pareto's mean is alpha·min/(alpha−1).
func TestServiceLawsKnown(t *testing.T) {
	l := newLognormal(LognormalParams{Median: Duration(50e6), P99: Duration(500e6)})
	if got := l.upper(0.5); math.Abs(got-0.05) > 1e-12 {
		t.Errorf("lognormal median %g s, want 0.05", got)
	}
	if got := l.upper(0.01); math.Abs(got-0.5) > 1e-9 {
		t.Errorf("lognormal p99 %g s, want 0.5", got)
	}
	e := exponentialService{0.1}
	if got := e.upper(0.5); math.Abs(got-0.1*math.Ln2) > 1e-12 {
		t.Errorf("exponential median %g s, want %g", got, 0.1*math.Ln2)
	}
	if got := (paretoService{0.02, 3}).mean(); math.Abs(got-0.03) > 1e-12 {
		t.Errorf("pareto mean %g s, want 0.03", got)
	}
	emp := newEmpirical(EmpiricalParams{P50: Duration(10e6), P90: Duration(30e6), P99: Duration(30e6), P999: Duration(30e6), Max: Duration(30e6)})
	if got := emp.upper(0.3); math.Abs(got-0.02) > 1e-12 {
		t.Errorf("empirical p70 %g s, want 0.02 (halfway from p50 10 ms to p90 30 ms)", got)
	}
	if got, want := emp.mean(), 0.5*0.005+0.4*0.02+0.1*0.03; math.Abs(got-want) > 1e-12 {
		t.Errorf("empirical mean %g s, want %g", got, want)
	}
}

// TestServiceSplitExact checks that serviceSplit's counts per tick follow
// the law rounded to ticks, for a group drawn one call at a time and for a
// group split by binomials, with a fault's factor and the cap: a chi-square
// test of the summed counts against the law's probabilities.
func TestServiceSplitExact(t *testing.T) {
	const tps = 100
	for name, law := range testLaws(t) {
		for _, c := range []struct {
			n, reps int64
			factor  float64
			capT    int64
		}{{3, 20000, 1, 1000}, {1000, 60, 1, 1000}, {1000, 60, 2.5, 12}} {
			r := newPCG(uint64(c.n) + 7)
			counts := map[int64]int64{}
			var buf []split
			var st serviceTicks
			for range c.reps {
				buf = serviceSplit(buf[:0], r, st.use(law, tps, c.factor), c.capT, c.n)
				var total int64
				for i, s := range buf {
					if i > 0 && s.d <= buf[i-1].d || s.n <= 0 || s.d < 0 || s.d > c.capT {
						t.Fatalf("%s: split %v is not one positive count per tick within the cap, in order", name, buf)
					}
					counts[s.d] += s.n
					total += s.n
				}
				if total != c.n {
					t.Fatalf("%s: split %v holds %d calls, want %d", name, buf, total, c.n)
				}
			}
			scale := tps * c.factor
			prob := func(j int64) float64 { // P(the call ends j ticks on)
				if j >= c.capT {
					return law.survival((float64(c.capT) - 0.5) / scale)
				}
				hi := law.survival((float64(j) + 0.5) / scale)
				if j == 0 {
					return 1 - hi
				}
				return law.survival((float64(j)-0.5)/scale) - hi
			}
			if a, ok := law.(atomic); ok { // all at one tick
				j := min(c.capT, int64(math.Round(a.at()*scale)))
				if counts[j] != c.n*c.reps {
					t.Errorf("%s: %v, want all %d calls at tick %d", name, counts, c.n*c.reps, j)
				}
				continue
			}
			all := float64(c.n * c.reps)
			var chi2, expBin, obsBin float64
			df := -1
			for j := int64(0); j <= c.capT; j++ {
				expBin += all * prob(j)
				obsBin += float64(counts[j])
				if expBin >= 20 || j == c.capT {
					if expBin > 0 {
						chi2 += (obsBin - expBin) * (obsBin - expBin) / expBin
						df++
					} else if obsBin > 0 {
						t.Errorf("%s: %g calls where the law puts none", name, obsBin)
					}
					expBin, obsBin = 0, 0
				}
			}
			// mean df, sd √(2df): far beyond 6 sd is a wrong law
			if limit := float64(df) + 6*math.Sqrt(2*float64(df)) + 10; chi2 > limit {
				t.Errorf("%s, %d calls × %d, factor %g, cap %d: chi-square %.1f over %d degrees of freedom (limit %.1f)",
					name, c.n, c.reps, c.factor, c.capT, chi2, df, limit)
			}
		}
	}
}

// TestServiceChecks checks that the laws' own rules refuse what they
// cannot make a law from, by the key at fault.
func TestServiceChecks(t *testing.T) {
	ms := func(x float64) Duration { return Duration(x * 1e6) }
	for _, c := range []struct {
		kind   string
		params any
		key    string
	}{
		{"lognormal", LognormalParams{Median: ms(50), P99: ms(50)}, "p99"},
		{"empirical", EmpiricalParams{P50: ms(20), P90: ms(10), P99: ms(30), P999: ms(40), Max: ms(50)}, "p90"},
		{"empirical", EmpiricalParams{P50: ms(20), P90: ms(30), P99: ms(40), P999: ms(50), Max: ms(45)}, "max"},
	} {
		for _, k := range serviceKinds() {
			if k.Name != c.kind {
				continue
			}
			if err := k.check(c.params); err == nil || err.Path != c.key {
				t.Errorf("%s %+v: check says %v, want an error on %s", c.kind, c.params, err, c.key)
			}
		}
	}
}
