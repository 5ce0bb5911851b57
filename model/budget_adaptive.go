package model

import "time"

// adaptiveThrottle is the client-side adaptive throttling of Google's SRE
// book: over the last window the client counts the tries it attempted and
// those its backend accepted, and rejects each new try — first tries and
// retries alike — on the client with probability max(0, (tries − k ×
// accepted) / (tries + 1)). A rejected try counts as attempted. The window
// is kept in ten slices.
type adaptiveThrottle struct {
	k              float64
	r              *rng
	tries, accepts slidingSum
}

// AdaptiveParams are the keys of client-side adaptive throttling, at the
// SRE book's defaults.
type AdaptiveParams struct {
	K      float64  `toml:"k" doc:"a try is rejected on the client with probability max(0, (tries − k × accepted) / (tries + 1)) over the window"`
	Window Duration `toml:"window" doc:"the span tries and accepted ones are counted over"`
}

func (p *AdaptiveParams) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"k", "", Range{0, 1000, ""}, &p.K}, Bound{"window", "", span(0, LongestWait), &p.Window})
}

func adaptiveKind() budgetKind {
	return budgetKind{Kind: Kind{Name: "adaptive", Doc: "the SRE book's client-side adaptive throttling of every try: rejected with probability max(0, (tries − k × accepted) / (tries + 1)) over the window",
		Engines: OnStochastic, Params: AdaptiveParams{K: 2, Window: Duration(2 * time.Minute)}}, make: newAdaptiveThrottle, more: "k"}
}

func newAdaptiveThrottle(b *BudgetPlan, r *rng) budget {
	q := b.Params.(AdaptiveParams)
	w := newSlidingSum(b.ticks(q.Window) / 10)
	return &adaptiveThrottle{k: q.K, r: r, tries: w, accepts: w}
}

func (a *adaptiveThrottle) tick(t, _ int64) {
	a.tries.slide(t)
	a.accepts.slide(t)
}

func (a *adaptiveThrottle) send(_ bool, n int64) int64 {
	p := (float64(a.tries.sum) - a.k*float64(a.accepts.sum)) / float64(a.tries.sum+1)
	rejected := int64(0)
	if p > 0 {
		rejected = binomial(a.r, n, min(1, p))
	}
	a.tries.add(n)
	return n - rejected
}

func (a *adaptiveThrottle) succeed(k int64, _, _ bool) {
	a.accepts.add(k)
}

func (a *adaptiveThrottle) fail(k int64, _, _ bool) int64 { return k }
func (a *adaptiveThrottle) end(bool, int64)               {}
