package model

import (
	"math"
	"testing"
)

// TestWaits: fixed waits in whole ticks, rounded down; jitter drawn within
// its law; decorrelated jitter from the previous wait.
func TestWaits(t *testing.T) {
	exp := newWaits(LayerPlan{Attempts: 6, Backoff: BackoffPlan{Kind: BackoffExponential, Base: 2.5, Factor: 2, Cap: 12}})
	var got []int64
	for a := int32(1); a <= 5; a++ {
		got = append(got, exp.one(nil, a, 0))
	}
	if want := []int64{2, 5, 10, 12, 12}; !equal(got, want) {
		t.Errorf("exponential from 2.5 ticks, capped at 12: %v, want %v", got, want)
	}
	if w := newWaits(LayerPlan{Attempts: 3}); w.one(nil, 2, 0) != 0 {
		t.Error("no backoff waits no whole tick")
	}
	r := newPCG(1)
	for _, c := range []struct {
		j      JitterKind
		lo, hi float64 // for attempt 3: wait 10
	}{{JitterFull, 0, 10}, {JitterEqual, 5, 10}} {
		w := newWaits(LayerPlan{Attempts: 4, Backoff: BackoffPlan{Kind: BackoffExponential, Base: 2.5, Factor: 2, Jitter: c.j}})
		var sum float64
		for range 4000 {
			d := float64(w.one(r, 3, 0))
			if d < math.Floor(c.lo) || d >= c.hi {
				t.Fatalf("jitter %d: wait %v outside [%v, %v)", c.j, d, c.lo, c.hi)
			}
			sum += d
		}
		// floor of a uniform on [lo, hi): mean (lo + hi)/2 − 1/2
		if mean, want := sum/4000, (c.lo+c.hi)/2-0.5; math.Abs(mean-want) > 0.15 {
			t.Errorf("jitter %d: mean wait %.3f, want %.3f", c.j, mean, want)
		}
	}
	dec := newWaits(LayerPlan{Attempts: 4, Backoff: BackoffPlan{Kind: BackoffExponential, Base: 2, Factor: 2, Cap: 9, Jitter: JitterDecorrelated}})
	if lo, hi, capT := dec.dist(2, 5); lo != 2 || hi != 15 || capT != 9 {
		t.Errorf("decorrelated after a wait of 5: [%v, %v) capped at %v, want [2, 15) capped at 9", lo, hi, capT)
	}
	for range 1000 {
		if d := dec.one(r, 2, 5); d < 2 || d > 9 {
			t.Fatalf("decorrelated wait %d outside [2, 9]", d)
		}
	}
}

// TestUniformSplit: n instances over floor(uniform [lo, hi)), capped: all
// accounted for, each in range, spread as the law says.
func TestUniformSplit(t *testing.T) {
	r := newPCG(4)
	counts := map[int64]int64{}
	for range 200 {
		var total int64
		for _, s := range uniformSplit(nil, r, 0, 4, 3, 1000) {
			if s.d < 0 || s.d > 3 {
				t.Fatalf("bucket %d outside 0..3", s.d)
			}
			counts[s.d] += s.n
			total += s.n
		}
		if total != 1000 {
			t.Fatalf("1000 instances split into %d", total)
		}
	}
	// uniform [0, 4) capped at 3: ticks 0, 1, 2 each a quarter, 3 the rest
	for d, want := range map[int64]float64{0: 0.25, 1: 0.25, 2: 0.25, 3: 0.25} {
		if got := float64(counts[d]) / 200000; math.Abs(got-want) > 0.01 {
			t.Errorf("tick %d: share %.3f, want %.2f", d, got, want)
		}
	}
	if got := uniformSplit(nil, r, 7, 7, 0, 5); len(got) != 1 || got[0] != (split{7, 5}) {
		t.Errorf("a fixed wait of 7: %v", got)
	}
}
