package model

import (
	"math"
	"sync"
	"time"
)

// waits is one caller's wait before each retry, in ticks, after the failure
// is seen: none = 0; constant = base; exponential = min(cap, base ×
// factor^(attempt−1)); full jitter draws uniform in [0, wait); equal jitter
// uniform in [wait/2, wait); decorrelated min(cap, uniform in [base, 3 ×
// previous wait)), the previous wait counted in whole ticks. A drawn wait is
// rounded down to whole ticks ("no sooner than the next tick"), and a retry
// is due in tick f + 1 + wait for a failure seen in tick f.
type waits struct {
	b     BackoffPlan
	fixed []waitDist // by failed attempt − 1 (all but decorrelated jitter)
}

// waitDist is the wait before one retry: floor(min(capT, uniform [lo, hi)))
// ticks, or Fixed ticks when hi ≤ lo.
type waitDist struct {
	lo, hi, capT float64
	fixed        int64 // −1 when drawn
}

func newWaits(l LayerPlan) waits {
	w := waits{b: l.Backoff}
	if l.Backoff.Jitter == JitterDecorrelated && l.Backoff.Kind != BackoffNone {
		return w
	}
	w.fixed = make([]waitDist, max(0, l.Attempts-1))
	for a := range w.fixed {
		lo, hi, capT := w.law(int32(a+1), 0)
		d := waitDist{lo: lo, hi: hi, capT: capT, fixed: -1}
		if hi <= lo {
			d.fixed = clampWait(lo+1e-9, capT)
		}
		w.fixed[a] = d
	}
	return w
}

// dist returns the distribution of the wait before retry number attempt
// (attempt = the failed try's number; prev = the wait before it) as a
// uniform [lo, hi) capped at capT.
func (w *waits) dist(attempt, prev int32) (lo, hi, capT float64) {
	if w.fixed != nil {
		d := &w.fixed[attempt-1]
		return d.lo, d.hi, d.capT
	}
	return w.law(attempt, prev)
}

// law works out dist from the backoff's parameters.
func (w *waits) law(attempt, prev int32) (lo, hi, capT float64) {
	b := &w.b
	var x float64
	switch b.Kind {
	case BackoffConstant:
		x = b.Base
	case BackoffExponential:
		x = b.Base * math.Pow(b.Factor, float64(attempt-1))
		if b.Cap > 0 {
			x = math.Min(x, b.Cap)
		}
	default:
		return 0, 0, 0
	}
	switch b.Jitter {
	case JitterFull:
		return 0, x, 0
	case JitterEqual:
		return x / 2, x, 0
	case JitterDecorrelated:
		p := b.Base
		if prev > 0 {
			p = math.Max(b.Base, float64(prev))
		}
		return b.Base, math.Max(b.Base, 3*p), b.Cap
	}
	return x, x, 0
}

// longest bounds the wait in ticks after any attempt of a layer with the
// given attempts (for sizing the calendar).
func (w *waits) longest(attempts int32) float64 {
	b := &w.b
	x := b.Base
	if b.Kind == BackoffExponential {
		x = b.Base * math.Pow(b.Factor, float64(attempts-1))
		if b.Cap > 0 {
			x = math.Min(x, b.Cap)
		}
	}
	if b.Jitter == JitterDecorrelated && b.Cap > 0 {
		x = math.Max(x, b.Cap)
	}
	return x
}

// fixedWait is the wait in ticks before retry number attempt when nothing
// is drawn for it (no jitter, or a jitter range of zero width).
func (w *waits) fixedWait(attempt int32) (int64, bool) {
	if w.fixed == nil || w.fixed[attempt-1].fixed < 0 {
		return 0, false
	}
	return w.fixed[attempt-1].fixed, true
}

// one draws the wait before retry number attempt for a single instance:
// one draw from r, or none when the wait is fixed.
func (w *waits) one(r *rng, attempt, prev int32) int64 {
	if d, ok := w.fixedWait(attempt); ok {
		return d
	}
	if w.fixed != nil {
		d := &w.fixed[attempt-1]
		return clampWait(d.lo+r.Float64()*(d.hi-d.lo), d.capT)
	}
	lo, hi, capT := w.law(attempt, prev)
	if hi <= lo {
		return clampWait(lo+1e-9, capT)
	}
	return clampWait(lo+r.Float64()*(hi-lo), capT)
}

// draw spreads the waits of n instances retrying after failed try number
// attempt (prev: the wait before it) over whole ticks, into dst. With a
// jitter step of q ticks the uniform is drawn in steps of q and each wait
// is the middle of its step, capped: an approximation that keeps instances
// grouped (exact when q = 1).
func (w *waits) draw(dst []split, r *rng, attempt, prev int32, n int64) []split {
	if d, ok := w.fixedWait(attempt); ok {
		return append(dst[:0], split{d, n}) // every instance waits the same
	}
	q := w.b.Step
	if n == 1 && q <= 1 {
		return append(dst[:0], split{w.one(r, attempt, prev), 1})
	}
	lo, hi, capT := w.dist(attempt, prev)
	if q <= 1 || hi <= lo {
		return uniformSplit(dst, r, lo, hi, capT, n)
	}
	fq := float64(q)
	capQ := 0.0
	if capT > 0 {
		capQ = capT / fq
	}
	dst = uniformSplit(dst, r, lo/fq, hi/fq, capQ, n)
	for i := range dst {
		d := dst[i].d*q + q/2
		if capT > 0 {
			d = min(d, clampWait(capT, 0))
		}
		dst[i].d = d
	}
	return groupSplits(dst)
}

// clampWait is floor(min(x, capT)) (capT = 0: no cap), kept far below
// overflow for waits that outgrow any run.
func clampWait(x, capT float64) int64 {
	if capT > 0 && x > capT {
		x = capT
	}
	if !(x < 1e15) {
		return 1e15
	}
	return int64(math.Floor(x))
}

// bounds: a backoff of kind none reads none of its waits.
func (b *Backoff) bounds(dst []Bound) []Bound {
	return append(dst,
		Bound{"base", "constant", span(Duration(time.Microsecond), LongestWait), &b.Base},
		Bound{"base", "exponential", span(Duration(time.Microsecond), LongestWait), &b.Base},
		Bound{"factor", "exponential", Range{1, 100, ""}, &b.Factor},
		Bound{"cap", "exponential", span(0, LongestWait), &b.Cap},
		Bound{"jitter_step", "", span(0, LongestWait), &b.JitterStep},
	)
}

func (b *Backoff) kind() string { return b.Kind }

// backoffKinds is the registry of the waits before a retry.
var backoffKinds = sync.OnceValue(func() []Kind {
	return []Kind{
		{Name: "none", Doc: "retry in the tick after the failure is seen", Engines: OnAll},
		{Name: "constant", Doc: "wait base before every retry", Engines: OnBoth, Reads: []string{"base"}},
		{Name: "exponential", Doc: "wait base × factor^(attempt − 1), at most cap", Engines: OnBoth, Reads: []string{"base", "factor", "cap"}},
	}
})

// jitterKinds is the registry of the ways a wait is randomised.
var jitterKinds = sync.OnceValue(func() []Kind {
	return []Kind{
		{Name: "none", Doc: "the wait as the backoff gives it", Engines: OnAll},
		{Name: "full", Doc: "uniform in [0, wait)", Engines: OnStochastic, Reads: []string{"jitter_step"}},
		{Name: "equal", Doc: "wait / 2 + uniform in [0, wait / 2)", Engines: OnStochastic, Reads: []string{"jitter_step"}},
		{Name: "decorrelated", Doc: "uniform in [base, 3 × the previous wait), at most cap", Engines: OnStochastic, Reads: []string{"jitter_step"}},
	}
})
