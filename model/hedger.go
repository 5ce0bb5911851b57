package model

import (
	"math"
	"time"
)

// hedger decides the hedges of the calls a layer sends to the dependency:
// when a call without an answer gets a second copy, and how many copies may
// go. The delay is fixed, or the given percentile of the latency of the
// layer's successes over the last 30 s (recomputed every 3 s, the fixed
// delay until a success has been seen), as Finagle's backup requests and
// "The Tail at Scale" send them. The cap is Finagle's: a RetryBudget over
// the last 10 s that every try deposits in and every copy withdraws from,
// with max_share of the tries as its percent_can_retry and no reserve.
type hedger struct {
	plan  HedgePlan
	cap   *finagleBudget
	lat   *latencyWindow // nil with a fixed delay
	delay int64          // ticks, the current delay
	due   int64          // the tick from which the delay is recomputed
	every int64          // ticks between recomputations
}

func newHedger(p *Plan, h HedgePlan, timeout int64) *hedger {
	hd := &hedger{plan: h, delay: h.Delay,
		cap: newFinagleBudget(&BudgetPlan{Params: FinagleParams{TTL: Duration(10 * time.Second), PercentCanRetry: h.MaxShare}, TickNs: p.TickNs}, nil).(*finagleBudget)}
	if h.Percentile > 0 {
		span := timeout
		if span < 0 {
			span = p.Ticks
		}
		hd.every = max(1, int64(math.Round(3*p.TPS)))
		hd.lat = newLatencyWindow(span, hd.every)
	}
	return hd
}

// sent records n tries sent at tick t: each deposits in the cap.
func (h *hedger) sent(t, n int64) {
	h.cap.tick(t, 0)
	h.cap.send(false, n)
}

// take answers how many of n copies may be sent at tick t, and withdraws
// them from the cap.
func (h *hedger) take(t, n int64) int64 {
	h.cap.tick(t, 0)
	return h.cap.fail(n, false, false)
}

// succeeded records k successes at tick t that took lat ticks.
func (h *hedger) succeeded(t, lat, k int64) {
	if h.lat != nil {
		h.lat.add(t, lat, k)
	}
}

// after is how long, from tick t, a call sent then waits before its hedge.
func (h *hedger) after(t int64) int64 {
	if h.lat != nil && t >= h.due {
		h.due = t + h.every
		if d, ok := h.lat.percentile(t, h.plan.Percentile); ok {
			h.delay = max(1, d)
		}
	}
	return h.delay
}
