package model

// limiter is the state of one concurrency limit of the stochastic engine
// (a layer's, or a layer's for one client): its rule, the tries in flight
// under it, and, with full = "queue", the tries waiting for a slot. A try
// takes a slot at once only when one is free and none waits, so waiting
// tries are let in oldest first, before any try that comes after them.
type limiter struct {
	rule     limitRule
	adapts   bool // the rule needs samples
	inflight int64
	waiting  limitQueue
	// admitAt and expireAt are the latest ticks an admission and an expiry
	// of waiting tries are scheduled for, so that each is scheduled once.
	admitAt, expireAt int64
}

func newLimiter(p *LimiterPlan) *limiter {
	r := p.rule()
	_, adapts := r.(adaptive)
	return &limiter{rule: r, adapts: adapts, admitAt: -1, expireAt: -1}
}

// room is how many tries may take a slot at tick now.
func (l *limiter) room(now int64) int64 {
	if l.waiting.len() > 0 {
		return 0
	}
	return l.free(now)
}

// free is the slots free at tick now.
func (l *limiter) free(now int64) int64 { return max(0, l.rule.limit(now)-l.inflight) }
