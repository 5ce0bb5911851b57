package model

import (
	"math"
	"testing"
)

// TestWilson checks the interval against values worked out by hand: with
// z = 1.959964, 20 of 20 gives [0.838875, 1], 1 of 20 [0.008881, 0.236131],
// 5 of 10 [0.236593, 0.763407].
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{{20, 20, 0.838875, 1}, {1, 20, 0.008881, 0.236131}, {5, 10, 0.236593, 0.763407}, {0, 20, 0, 0.161125}} {
		lo, hi := wilson(c.k, c.n)
		if math.Abs(lo-c.lo) > 1e-6 || math.Abs(hi-c.hi) > 1e-6 {
			t.Errorf("%d of %d: [%.6f, %.6f], want [%.6f, %.6f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
	if lo, hi := wilson(0, 0); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("no trials: [%v, %v], want NaN", lo, hi)
	}
}

// TestAggregate: means and sample standard deviations over replicates,
// recovery over those that recovered, its quantiles, and the share.
func TestAggregate(t *testing.T) {
	runs := []Metrics{
		{Verdict: Recovered, RecoveryS: 2, Calls: 10},
		{Verdict: Recovered, RecoveryS: 4, Calls: 20},
		{Verdict: Stuck, RecoveryS: math.NaN(), Calls: 30},
		{Verdict: Recovered, RecoveryS: 12, Calls: 40},
	}
	mean, sd, share, sp := aggregate(runs)
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if mean.Recovered() || !near(mean.RecoveryS, 6) || !near(sd.RecoveryS, math.Sqrt(28)) {
		t.Errorf("recovery %v ± %v (recovered %v), want 6 ± √28, not all recovered", mean.RecoveryS, sd.RecoveryS, mean.Recovered())
	}
	if !near(mean.Calls, 25) || !near(sd.Calls, math.Sqrt(500.0/3)) {
		t.Errorf("calls %v ± %v, want 25 ± √(500/3)", mean.Calls, sd.Calls)
	}
	if share != 0.75 || !near(sp.RecoveryP50, 4) || !near(sp.RecoveryP90, 12) {
		t.Errorf("share %v, p50 %v, p90 %v; want 0.75, 4, 12", share, sp.RecoveryP50, sp.RecoveryP90)
	}
	one, _, share1, sp1 := aggregate(runs[2:3])
	if one.Recovered() || share1 != 0 || !math.IsNaN(sp1.RecoveryP50) || sp1.ShareLo != 0 {
		t.Errorf("one run that never recovered: %v, share %v, %+v", one, share1, sp1)
	}
}
