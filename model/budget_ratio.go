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

// RatioParams are the keys of a ratio budget.
type RatioParams struct {
	Ratio float64 `toml:"ratio" doc:"retries allowed per first try, so far"`
	Count string  `toml:"count" oneof:",sent,granted" doc:"when a retry counts: sent (when it starts, the storm-risk article's loop) or granted (when it is allowed, as the deadlines article's asyncio call() counts)"`
}

func (p *RatioParams) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"ratio", "", Range{0, 1000, ""}, &p.Ratio})
}

func ratioKind() budgetKind {
	return budgetKind{Kind: Kind{Name: "ratio", Doc: "the retries so far are at most ratio × the first tries so far, the cumulative ratio of \"Retries and Storm Risk\"",
		Engines: OnBoth, Params: RatioParams{Count: "sent"}}, make: newRatioBudget, more: "ratio"}
}

func newRatioBudget(b *BudgetPlan, _ *rng) budget {
	q := b.Params.(RatioParams)
	return &ratioBudget{ratio: q.Ratio, granted: q.Count == "granted"}
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
