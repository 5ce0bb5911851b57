package model

import "time"

// breaker is a circuit breaker on one layer's calls (for one client when
// clients are modelled): closed, it counts outcomes and trips open after
// threshold consecutive failures, or when failures are at least ratio of
// the calls over its window once min_calls were made; open, it fails every
// call at once for its open span; then half-open, it lets probes calls
// through: a success among them closes it, a failure opens it again. Calls
// it turns away fail their try at once and are counted; the outcomes of
// calls already made when it opens still count. What a "call" is here is
// its placement's (BreakerPlan.PerCall): inside the retry the engine asks
// and tells it about every try, outside it about a call's first try and its
// final outcome only (doc.go, "Where a breaker and a budget sit").
type breaker struct {
	plan   BreakerPlan
	state  breakerState
	until  int64      // open: the tick it turns half-open
	run    int64      // consecutive failures
	probes int64      // half-open: probes that may still go
	calls  slidingSum // failure ratio: the calls answered over the window
	fails  slidingSum // and the failures among them
}

type breakerState uint8

const (
	breakerClosed breakerState = iota
	breakerOpen
	breakerHalfOpen
)

func newBreaker(p BreakerPlan) *breaker {
	return &breaker{plan: p, calls: newSlidingSum(p.SliceTicks), fails: newSlidingSum(p.SliceTicks)}
}

// allow says how many of n calls may go at tick now.
func (b *breaker) allow(now, n int64) int64 {
	if b.state == breakerOpen && now >= b.until {
		b.state, b.probes = breakerHalfOpen, b.plan.Probes
	}
	switch b.state {
	case breakerOpen:
		return 0
	case breakerHalfOpen:
		ok := min(n, b.probes)
		b.probes -= ok
		return ok
	}
	return n
}

// record counts the outcomes of calls answered at tick now: ok successes
// and bad failures (errors and timeouts), successes first.
func (b *breaker) record(now, ok, bad int64) {
	switch b.state {
	case breakerHalfOpen:
		if bad > 0 {
			b.open(now)
		} else if ok > 0 {
			b.state, b.run = breakerClosed, 0
			b.clearWindow()
		}
		return
	case breakerOpen:
		return // late answers of calls made before it opened
	}
	if ok > 0 {
		b.run = 0
	}
	b.run += bad
	if b.plan.Kind == BreakerRatio {
		b.calls.slide(now)
		b.fails.slide(now)
		b.calls.add(ok + bad)
		b.fails.add(bad)
		if b.calls.sum >= b.plan.MinCalls && float64(b.fails.sum) >= b.plan.Ratio*float64(b.calls.sum) {
			b.open(now)
		}
		return
	}
	if b.run >= b.plan.Threshold {
		b.open(now)
	}
}

func (b *breaker) open(now int64) {
	b.state, b.until, b.run = breakerOpen, now+b.plan.OpenTicks, 0
	b.clearWindow()
}

func (b *breaker) clearWindow() {
	b.calls.reset()
	b.fails.reset()
}

// bounds: a breaker of kind none reads none of its keys.
func (b *Breaker) bounds(dst []Bound) []Bound {
	dst = append(dst,
		Bound{"threshold", "consecutive", Range{1, 1e6, ""}, &b.Threshold},
		Bound{"ratio", "ratio", Range{0.001, 1, ""}, &b.Ratio},
		Bound{"min_calls", "ratio", Range{1, 1e9, ""}, &b.MinCalls},
		Bound{"window", "ratio", span(Duration(time.Microsecond), LongestWait), &b.Window},
	)
	for _, k := range [...]string{"consecutive", "ratio"} {
		dst = append(dst, Bound{"open", k, span(Duration(time.Microsecond), LongestWait), &b.Open}, Bound{"probes", k, Range{1, 1e6, ""}, &b.Probes})
	}
	return dst
}

func (b *Breaker) kind() string { return b.Kind }
