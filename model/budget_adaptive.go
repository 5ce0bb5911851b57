package model

// adaptiveThrottle is the client-side adaptive throttling of Google's SRE
// book: over the last window the client counts the tries it attempted and
// those its backend accepted, and rejects each new try — first tries and
// retries alike — on the client with probability max(0, (tries − k ×
// accepted) / (tries + 1)). A rejected try counts as attempted. The window
// is kept in ten slices.
type adaptiveThrottle struct {
	k              float64
	r              *rng
	slice          int64
	tries, accepts []int64 // per slice, rings of ten
	at             int64
	sumT, sumA     int64
}

func newAdaptiveThrottle(b *BudgetPlan, r *rng) budget {
	return &adaptiveThrottle{k: b.K, r: r, slice: max(1, b.WindowTicks/10),
		tries: make([]int64, 10), accepts: make([]int64, 10), at: -1}
}

func (a *adaptiveThrottle) tick(t, _ int64) {
	i := t / a.slice
	if i == a.at {
		return
	}
	for j := max(a.at+1, i-9); j <= i; j++ {
		k := j % 10
		a.sumT -= a.tries[k]
		a.sumA -= a.accepts[k]
		a.tries[k], a.accepts[k] = 0, 0
	}
	a.at = i
}

func (a *adaptiveThrottle) send(_ bool, n int64) int64 {
	p := (float64(a.sumT) - a.k*float64(a.sumA)) / float64(a.sumT+1)
	rejected := int64(0)
	if p > 0 {
		rejected = binomial(a.r, n, min(1, p))
	}
	a.tries[a.at%10] += n
	a.sumT += n
	return n - rejected
}

func (a *adaptiveThrottle) succeed(k int64, _, _ bool) {
	a.accepts[a.at%10] += k
	a.sumA += k
}

func (a *adaptiveThrottle) fail(k int64, _, _ bool) int64 { return k }
func (a *adaptiveThrottle) end(bool, int64)               {}
