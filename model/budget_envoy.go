package model

import "math"

// envoyBudget is Envoy's retry budget: the retries in flight may be at most
// budget_percent of the tries in flight (first tries and retries, the
// cluster's active requests), and at least min_retry_concurrency. A retry
// is in flight from when it is granted until its try ends.
type envoyBudget struct {
	share            float64
	floor            int64
	active, retrying int64
}

func newEnvoyBudget(b *BudgetPlan, _ *rng) budget {
	return &envoyBudget{share: b.BudgetPercent / 100, floor: int64(b.MinRetryConcurrency)}
}

func envoyBounds(b *Budget, dst []Bound) []Bound {
	return append(dst, Bound{"budget_percent", "", Range{0, 100, "%"}, &b.BudgetPercent}, Bound{"min_retry_concurrency", "", Range{0, 1e6, ""}, &b.MinRetryConcurrency})
}

func (b *envoyBudget) send(_ bool, n int64) int64 {
	b.active += n
	return n
}

func (b *envoyBudget) fail(k int64, _, last bool) int64 {
	if last {
		return 0
	}
	limit := max(b.floor, int64(math.Floor(b.share*float64(b.active))))
	ok := min(k, max(0, limit-b.retrying))
	b.retrying += ok
	return ok
}

func (b *envoyBudget) end(retry bool, n int64) {
	b.active -= n
	if retry {
		b.retrying = max(0, b.retrying-n)
	}
}

func (b *envoyBudget) succeed(int64, bool, bool) {}
