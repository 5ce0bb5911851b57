package model

// perTickBudget is the allowance of the 30-second blip article's simulator:
// the retries started in a tick are at most round(ratio × requests arriving
// in that tick), ties to even. Retries beyond it are refused when they are
// due; first tries, successes and failures do not matter to it.
type perTickBudget struct {
	ratio       float64
	allow, used int64
}

func newPerTickBudget(b BudgetPlan) budget { return &perTickBudget{ratio: b.Ratio} }

func (b *perTickBudget) tick(arrivals int64) {
	b.allow, b.used = roundHalfEven(b.ratio*float64(arrivals)), 0
}

func (b *perTickBudget) sent(bool, int64) {}

func (b *perTickBudget) gate(n int64) int64 {
	ok := min(n, max(0, b.allow-b.used))
	b.used += ok
	return ok
}

func (b *perTickBudget) admit(k int64) int64 { return k }

func (b *perTickBudget) succeeded(int64) {}
