package model

import "math"

// budget is the state of one retry budget: the rule that limits retries as
// a share of traffic rather than per request. The engines ask it at two
// moments, and tell it what happened:
//
//   - admit, when k tries have just failed and could retry: how many may
//     (the ratio and token-bucket rules decide here);
//   - gate, when n retries are due and about to be sent: how many may go
//     now (the per-tick allowance decides here);
//   - tick, at the start of a tick, with the requests that arrived in it;
//   - sent, when tries are sent, first tries and retries apart;
//   - succeeded, when tries succeed.
//
// A refused retry fails its request (or its caller's try) at once. A budget
// works on counts, so a group of identical tries is decided in one call.
type budget interface {
	tick(arrivals int64)
	sent(retries bool, n int64)
	gate(n int64) int64
	admit(k int64) int64
	succeeded(k int64)
}

// budgetKind is one registered kind of retry budget: its name as written in
// budget.kind, what makes its state, and its own checks of the budget keys.
type budgetKind struct {
	name  string
	make  func(b BudgetPlan) budget
	check func(b Budget) *FieldError // nil when the kind needs no check beyond the common ones
}

// budgetKinds lists every retry budget stormlab models. Adding one is a new
// file with its type and one line here (model/doc.go shows how).
func budgetKinds() []budgetKind {
	return []budgetKind{
		{name: "per_tick", make: newPerTickBudget},
		{name: "ratio", make: newRatioBudget},
		{name: "token_bucket", make: newTokenBucket, check: checkTokenBucket},
	}
}

// lookupBudget finds a budget kind by name.
func lookupBudget(name string) (budgetKind, bool) {
	for _, k := range budgetKinds() {
		if k.name == name {
			return k, true
		}
	}
	return budgetKind{}, false
}

// budgetNames lists "none" and the registered kinds, for error messages.
func budgetNames() []string {
	names := []string{"none"}
	for _, k := range budgetKinds() {
		names = append(names, k.name)
	}
	return names
}

// budgets holds a run's retry budgets and applies the scope: one budget for
// the whole chain (retries are tagged, so every layer's retries count, first
// tries are the user requests and successes the user's), one per layer (each
// counts its own first tries, retries and successes), or one per client
// (like the chain, per client). A run without a budget has none, and every
// method lets everything through.
type budgets struct {
	list  []budget
	scope BudgetScope
}

// newBudgets makes the budgets of a run with the given layers and clients.
func newBudgets(p *Plan, layers int, clients int32) budgets {
	k, ok := lookupBudget(p.Budget.Kind)
	if !ok {
		return budgets{}
	}
	n := 1
	switch p.Budget.Scope {
	case ScopeLayer:
		n = layers
	case ScopeClient:
		n = int(clients)
	}
	b := budgets{list: make([]budget, n), scope: p.Budget.Scope}
	for i := range b.list {
		b.list[i] = k.make(p.Budget)
	}
	return b
}

// on reports whether the run has a budget at all.
func (b *budgets) on() bool { return b.list != nil }

// perClient reports whether arrivals must be told apart by client.
func (b *budgets) perClient() bool { return b.scope == ScopeClient && len(b.list) > 1 }

func (b *budgets) of(layer int8, client int32) budget {
	switch b.scope {
	case ScopeLayer:
		return b.list[layer]
	case ScopeClient:
		return b.list[client]
	}
	return b.list[0]
}

// tick starts a tick: arrivals[c] new requests arrived for client c (one
// entry when clients are not told apart).
func (b *budgets) tick(arrivals []int64) {
	switch b.scope {
	case ScopeClient:
		for c, n := range arrivals {
			b.list[c].tick(n)
		}
	default:
		var n int64
		for _, x := range arrivals {
			n += x
		}
		for _, x := range b.list {
			x.tick(n) // every layer sees the user requests
		}
	}
}

// sent counts n tries of a layer on the given attempt as sent. First tries
// below the top count only for a layer's own budget.
func (b *budgets) sent(layer int8, client int32, attempt int32, n int64) {
	if b.list == nil {
		return
	}
	switch {
	case attempt > 1:
		b.of(layer, client).sent(true, n)
	case layer == 0 || b.scope == ScopeLayer:
		b.of(layer, client).sent(false, n)
	}
}

// gate lets through up to n retries of a layer due now.
func (b *budgets) gate(layer int8, client int32, n int64) int64 {
	if b.list == nil {
		return n
	}
	return b.of(layer, client).gate(n)
}

// admit asks how many of k failed tries of a layer may retry.
func (b *budgets) admit(layer int8, client int32, k int64) int64 {
	if b.list == nil {
		return k
	}
	return b.of(layer, client).admit(k)
}

// succeeded counts k successes of a layer; top is whether they answer user
// requests. A shared budget counts only the user's.
func (b *budgets) succeeded(layer int8, client int32, top bool, k int64) {
	if b.list != nil && (top || b.scope == ScopeLayer) {
		b.of(layer, client).succeeded(k)
	}
}

// roundHalfEven rounds x to the nearest whole number, ties to even.
func roundHalfEven(x float64) int64 { return int64(math.RoundToEven(x)) }
