package model

// ratioBudget is the cumulative ratio of the "Retries and Storm Risk"
// article's chain: when tries fail, they may retry while the retries sent so
// far are at most ratio × the first tries sent so far (a try counts as sent
// when it starts); otherwise none of them may. It decides for a group at
// once, as the article decides for one call.
type ratioBudget struct {
	ratio           float64
	firsts, retries int64
}

func newRatioBudget(b BudgetPlan) budget { return &ratioBudget{ratio: b.Ratio} }

func (b *ratioBudget) tick(int64) {}

func (b *ratioBudget) sent(retries bool, n int64) {
	if retries {
		b.retries += n
	} else {
		b.firsts += n
	}
}

func (b *ratioBudget) gate(n int64) int64 { return n }

func (b *ratioBudget) admit(k int64) int64 {
	if float64(b.retries) <= b.ratio*float64(b.firsts) {
		return k
	}
	return 0
}

func (b *ratioBudget) succeeded(int64) {}
