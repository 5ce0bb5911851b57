package model

import (
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat"
)

// jitteredChain is a small nested storm: three layers of three attempts
// with exponential backoff from 200 ms and full jitter, timeouts of 2 s,
// 1 s and 400 ms from the edge down, 200 requests/s
// (Poisson) against 400/s dropping expired work, a 2 s outage (near the tipping point), a minute at 10 ms ticks.
func jitteredChain(step time.Duration) Scenario {
	s := Default()
	s.Engine = "stochastic"
	s.Tick = ms(10)
	s.Duration = Duration(time.Minute)
	s.Load = 200
	s.Arrivals = "poisson"
	l := DefaultLayer()
	l.Attempts = 3
	l.Backoff = Backoff{Kind: "exponential", Base: ms(200), Factor: 2, Cap: Duration(2 * time.Second), Jitter: "full", JitterStep: Duration(step)}
	s.Layer = []Layer{l, l, l}
	s.Layer[0].Timeout, s.Layer[1].Timeout, s.Layer[2].Timeout = Duration(2*time.Second), Duration(time.Second), ms(400)
	s.Dependency.Capacity = 400
	s.Dependency.DropExpired = true
	s.Fault = []Fault{{Kind: "outage", Start: Duration(10 * time.Second), Length: Duration(2 * time.Second), Factor: 1}}
	return s
}

// TestJitterStepApproximates: with jitter drawn in steps of a quarter and a
// half of the backoff's base (50 and 100 ms) the result columns over 30
// replicates agree with the exact draws within their spread (the means
// differ by less than three standard errors). At a step of the whole base
// they do not (calls 1.3e5 against 1.9e5 exact, successful 8,728 against
// 5,176): Plan.Warnings names a step coarser than half the base.
func TestJitterStepApproximates(t *testing.T) {
	long(t)
	t.Parallel()
	const n = 30
	cols := []struct {
		name string
		get  func(m *Metrics) float64
	}{
		{"calls", func(m *Metrics) float64 { return m.Calls }},
		{"successful", func(m *Metrics) float64 { return m.Successful }},
		{"peak_queue", func(m *Metrics) float64 { return m.PeakQueue }},
		{"wasted", func(m *Metrics) float64 { return m.Wasted() }},
		{"recovered", func(m *Metrics) float64 { return b2f(m.Recovered()) }},
	}
	sample := func(step time.Duration) [][]float64 {
		out := make([][]float64, len(cols))
		for i := range n {
			m := runOne(t, jitteredChain(step), ReplicateSeed(7, i))
			for c := range cols {
				out[c] = append(out[c], cols[c].get(&m))
			}
		}
		return out
	}
	exact := sample(0)
	for _, step := range []time.Duration{50 * time.Millisecond, 100 * time.Millisecond} {
		stepped := sample(step)
		for c, col := range cols {
			ma, sa := stat.MeanStdDev(exact[c], nil)
			mb, sb := stat.MeanStdDev(stepped[c], nil)
			se := math.Sqrt((sa*sa + sb*sb) / n)
			t.Logf("%s: exact %.4g ± %.3g, %v steps %.4g ± %.3g", col.name, ma, sa, step, mb, sb)
			if math.Abs(ma-mb) > 3*se+1e-9*math.Abs(ma) {
				t.Errorf("%s: exact mean %.4g, %v steps %.4g: more than three standard errors (%.3g) apart", col.name, ma, step, mb, se)
			}
		}
	}
}

// TestJitterStepSettings: a step without jitter is refused.
func TestJitterStepSettings(t *testing.T) {
	sc := jitteredChain(50 * time.Millisecond)
	sc.Layer[1].Backoff.Jitter = "none"
	if _, err := sc.Resolve(); err == nil {
		t.Error("a jitter step on a backoff without jitter was accepted")
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// jitteredStorm is storm10k (3 × 3 × 3 nested, 10,000 requests/s against
// 12,000/s) with full jitter on its backoff from 100 ms, the outage at 10 s,
// and span long: the jittered storm the memory and speed targets are about.
func jitteredStorm(span, step time.Duration) Scenario {
	s := storm10k()
	s.Duration = Duration(span)
	s.Layer[0].Backoff.Jitter = "full"
	s.Layer[0].Backoff.JitterStep = Duration(step)
	s.Fault[0].Start = Duration(10 * time.Second)
	return s
}

// BenchmarkJitteredStorm: one op is 40 simulated seconds of jitteredStorm
// (30 s of it in the storm), exact and with jitter steps of 50 and 100 ms.
// state_MB is the most state the run held (peakState), measured in one
// more run after the timed ones: the exact storm's is larger than most
// processors' last-level cache.
func BenchmarkJitteredStorm(b *testing.B) {
	for _, step := range []time.Duration{0, 50 * time.Millisecond, 100 * time.Millisecond} {
		b.Run("step="+step.String(), func(b *testing.B) {
			sc := jitteredStorm(40*time.Second, step)
			benchCalls(b, sc)
			b.ReportMetric(float64(peakState(b, sc))/(1<<20), "state_MB")
		})
	}
}

// peakState runs sc (seed 1) once and returns the most bytes of state it
// held, as the engine counts them for -max-memory: its groups, scheduled
// events and waiting-room entries.
func peakState(b *testing.B, sc Scenario) int64 {
	p, err := sc.Resolve()
	if err != nil {
		b.Fatal(err)
	}
	g := newGuard(context.Background(), 0)
	runStochastic(p, 1, false, g)
	return g.peak
}

// benchCalls runs sc (seed 1) as one op and reports its calls at the
// dependency and the time per call (ns/call).
func benchCalls(b *testing.B, sc Scenario) {
	b.ReportAllocs()
	var calls float64
	for b.Loop() {
		r, err := Run(sc, 1, false)
		if err != nil {
			b.Fatal(err)
		}
		calls = r.Calls
	}
	b.ReportMetric(calls, "calls")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/calls, "ns/call")
}

// peakRSS is the process's peak resident set (VmHWM) in bytes, or 0 where
// /proc does not tell: the memory a benchmark's targets are about.
func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			if err == nil {
				return kb * 1024
			}
		}
	}
	return 0
}

// storm3x10 is jitterStorm at 1,000 requests/s and 10 ms ticks over its
// first span: three layers of ten attempts, exact jitter (its 10 ms base is
// one tick, so no step within half the base can group it).
func storm3x10(span time.Duration) Scenario {
	s := jitterStorm(1000, ms(10))
	s.Duration = Duration(span)
	return s
}

// BenchmarkStorm3x10: one op is the first 90 s of storm3x10 (the outage is
// at 60–90 s): 15.3 million calls, about 3 million groups live at its
// height; ns/call is the time per call at the dependency.
func BenchmarkStorm3x10(b *testing.B) {
	benchCalls(b, storm3x10(90*time.Second))
}

// BenchmarkJitterTargets: the two jittered storms with speed and memory
// targets, one op a whole run. "3x3x3-10k-1h" is an hour of jitteredStorm
// with jitter drawn in 50 ms steps (half the backoff's base: the coarsest
// step TestJitterStepApproximates holds to); "3x10-1k-10m" is all ten
// minutes of storm3x10 (its first 90 s alone: BenchmarkStorm3x10). Run each
// alone (-bench 'JitterTargets/NAME') for its peak_rss_MB: the process's
// peak resident set.
func BenchmarkJitterTargets(b *testing.B) {
	for _, c := range []struct {
		name string
		sc   Scenario
	}{
		{"3x3x3-10k-1h/step=50ms", jitteredStorm(time.Hour, 50*time.Millisecond)},
		{"3x10-1k-10m/exact", storm3x10(10 * time.Minute)},
	} {
		b.Run(c.name, func(b *testing.B) {
			benchCalls(b, c.sc)
			b.ReportMetric(peakRSS()/(1<<20), "peak_rss_MB")
		})
	}
}
