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

// EnvoyParams are the keys of Envoy's retry budget, at its defaults.
type EnvoyParams struct {
	BudgetPercent       float64 `toml:"budget_percent" doc:"retries in flight ≤ budget_percent of the tries in flight"`
	MinRetryConcurrency int     `toml:"min_retry_concurrency" doc:"retries in flight allowed whatever the share"`
}

func (p *EnvoyParams) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"budget_percent", "", Range{0, 100, "%"}, &p.BudgetPercent}, Bound{"min_retry_concurrency", "", Range{0, 1e6, ""}, &p.MinRetryConcurrency})
}

func envoyKind() budgetKind {
	return budgetKind{Kind: Kind{Name: "envoy", Doc: "Envoy's retry budget: the retries in flight are at most budget_percent of the tries in flight, and at least min_retry_concurrency",
		Engines: OnStochastic, Params: EnvoyParams{BudgetPercent: 20, MinRetryConcurrency: 3}}, make: newEnvoyBudget, more: "budget_percent"}
}

func newEnvoyBudget(b *BudgetPlan, _ *rng) budget {
	q := b.Params.(EnvoyParams)
	return &envoyBudget{share: q.BudgetPercent / 100, floor: int64(q.MinRetryConcurrency)}
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
