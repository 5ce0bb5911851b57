package model

// ratioBudget is the cumulative ratio of the "Retries and Storm Risk"
// article's chain: failed tries may retry while the retries counted so far
// are at most ratio × the first tries sent so far; otherwise none of them
// may. A retry counts when it is sent (count = "sent", the article's loop),
// or when it is granted (count = "granted", the asyncio call() of the
// deadlines article, which adds to its retries as it allows one). It
// decides for a group at once, as the article decides for one call; a
// granted group counts whole.
type ratioBudget struct {
	ratio           float64
	granted         bool
	firsts, retries int64
}

func newRatioBudget(b *BudgetPlan, _ *rng) budget {
	return &ratioBudget{ratio: b.Ratio, granted: b.Granted}
}

func ratioBounds(b *Budget, dst []Bound) []Bound {
	return append(dst, Bound{"ratio", "", Range{0, 1000, ""}, &b.Ratio})
}

func (b *ratioBudget) send(retry bool, n int64) int64 {
	switch {
	case !retry:
		b.firsts += n
	case !b.granted:
		b.retries += n
	}
	return n
}

func (b *ratioBudget) fail(k int64, _, last bool) int64 {
	if last || !(float64(b.retries) <= b.ratio*float64(b.firsts)) {
		return 0
	}
	if b.granted {
		b.retries += k
	}
	return k
}

func (b *ratioBudget) succeed(int64, bool, bool) {}
func (b *ratioBudget) end(bool, int64)           {}
