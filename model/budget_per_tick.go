package model

// perTickBudget is the allowance of the 30-second blip article's simulator:
// the retries started in a tick are at most round(ratio × requests arriving
// in that tick), ties to even. Retries beyond it are turned away when they
// are due; nothing else matters to it.
type perTickBudget struct {
	ratio       float64
	allow, used int64
}

// PerTickParams are the keys of a per_tick budget.
type PerTickParams struct {
	Ratio float64 `toml:"ratio" doc:"retries allowed per request arriving in the tick"`
}

func (p *PerTickParams) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"ratio", "", Range{0, 1000, ""}, &p.Ratio})
}

func perTickKind() budgetKind {
	return budgetKind{Kind: Kind{Name: "per_tick", Doc: "the retries started in a tick are at most round(ratio × the requests arriving in it), the 30-second blip article's allowance",
		Engines: OnBoth, Params: PerTickParams{}}, make: newPerTickBudget, more: "ratio"}
}

func newPerTickBudget(b *BudgetPlan, _ *rng) budget {
	return &perTickBudget{ratio: b.Params.(PerTickParams).Ratio}
}

func (b *perTickBudget) tick(_, arrivals int64) {
	b.allow, b.used = roundHalfEven(b.ratio*float64(arrivals)), 0
}

func (b *perTickBudget) send(retry bool, n int64) int64 {
	if !retry {
		return n
	}
	ok := min(n, max(0, b.allow-b.used))
	b.used += ok
	return ok
}

func (b *perTickBudget) fail(k int64, _, _ bool) int64 { return k }
func (b *perTickBudget) succeed(int64, bool, bool)     {}
func (b *perTickBudget) end(bool, int64)               {}
