package model

import "math"

// budget is the state of one retry budget: the rule that limits retries as
// a share of traffic rather than per request. The engines tell it what
// happens to the tries it covers, and ask it at two moments:
//
//   - tick: tick t starts, in which arrivals new requests arrived;
//   - send: n tries are about to be sent (retry: they are retries); it
//     answers how many may go, and counts those (a per-tick allowance, or
//     client-side throttling, turns the others away);
//   - fail: k tries failed (timeout: by timing out; last: with no attempt
//     left); it answers how many may retry (ignored when last);
//   - succeed: k tries succeeded (retry: on a retry; afterTimeout: a retry
//     sent after a timeout);
//   - end: n tries ended, whatever the outcome (budgets that count the
//     tries in flight).
//
// A refused retry fails its request, or its caller's try, at once. A budget
// works on counts, so a group of identical tries is decided in one call;
// where a production budget decides call by call, the kind's file says how
// a group's count is worked out from that rule.
type budget interface {
	send(retry bool, n int64) int64
	fail(k int64, timeout, last bool) int64
	succeed(k int64, retry, afterTimeout bool)
	end(retry bool, n int64)
}

// ticker is a budget that follows time or the tick's user requests: it is
// told at the start of every tick that runs (t, and the requests that
// arrived for it). A run whose budgets are not tickers skips the count.
type ticker interface {
	tick(t, arrivals int64)
}

// hedgeCharger is a budget with a rule of its own for hedges; others
// charge a hedge as a retry: asked for like a failed try's retry, then
// sent as one.
type hedgeCharger interface {
	// hedge answers how many of n hedges may be sent now, and counts them.
	hedge(n int64) int64
}

// budgetKind is one registered kind of retry budget: its name as written in
// budget.kind, what makes its state, the budget keys it reads with their
// ranges, and its own checks of them.
type budgetKind struct {
	name     string
	make     func(b *BudgetPlan, r *rng) budget
	bounds   func(b *Budget, dst []Bound) []Bound // appends the numeric keys of b it reads, with their ranges
	more     string                               // the key whose larger values let more retries through
	check    func(b Budget) *FieldError           // nil when the kind needs no check beyond its ranges
	timeouts bool                                 // succeed needs afterTimeout
}

// budgetKinds lists every retry budget stormlab models. Adding one is a new
// file with its type and one line here (model/doc.go shows how).
func budgetKinds() []budgetKind {
	return []budgetKind{
		{name: "per_tick", make: newPerTickBudget, bounds: perTickBounds, more: "ratio"},
		{name: "ratio", make: newRatioBudget, bounds: ratioBounds, more: "ratio"},
		{name: "token_bucket", make: newTokenBucket, bounds: tokenBucketBounds, more: "max_tokens"},
		{name: "grpc", make: newGRPCThrottle, bounds: grpcBounds, more: "max_tokens"},
		{name: "finagle", make: newFinagleBudget, bounds: finagleBounds, more: "percent_can_retry", check: checkFinagleBudget},
		{name: "envoy", make: newEnvoyBudget, bounds: envoyBounds, more: "budget_percent"},
		{name: "aws", make: newAWSQuota, bounds: awsBounds, more: "quota", timeouts: true},
		{name: "adaptive", make: newAdaptiveThrottle, bounds: adaptiveBounds, more: "k"},
	}
}

// bounds declares the ranges of the budget keys: each kind's, for that kind.
func (b *Budget) bounds(dst []Bound) []Bound {
	for _, k := range budgetKinds() {
		dst = b.boundsOf(k, dst)
	}
	return dst
}

// kindBounds is the ranges of the keys one kind reads; none for "none".
func (b *Budget) kindBounds(kind string, dst []Bound) []Bound {
	if k, ok := lookupBudget(kind); ok {
		return b.boundsOf(k, dst)
	}
	return dst
}

// boundsOf appends k's ranges, each marked as k's.
func (b *Budget) boundsOf(k budgetKind, dst []Bound) []Bound {
	n := len(dst)
	dst = k.bounds(b, dst)
	for i := n; i < len(dst); i++ {
		dst[i].Kind = k.name
	}
	return dst
}

func (b *Budget) kind() string { return b.Kind }

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
// the whole chain (retries are tagged, so every layer's retries and
// failures count, first tries are the user requests and successes the
// user's), one per layer (each counts its own first tries, retries and
// successes), one per client (like the chain, per client), or one for the
// calls to the dependency (the bottom layer's, every client's; the layers
// above have none). A run without a budget has none, and every method lets
// everything through.
type budgets struct {
	list    []budget
	tickers []ticker // the budgets of list that are tickers, in its order; nil when none is
	scope   BudgetScope
	bottom  int8
	// timeouts: the kind charges a retry after a timeout apart, so the
	// engines keep retries after timeouts apart from others.
	timeouts bool
}

// newBudgets makes the budgets of a run with the given layers and clients.
func newBudgets(p *Plan, layers int, clients int32, r *rng) budgets {
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
	b := budgets{list: make([]budget, n), scope: p.Budget.Scope, bottom: int8(layers - 1), timeouts: k.timeouts}
	for i := range b.list {
		b.list[i] = k.make(&p.Budget, r)
		if t, ok := b.list[i].(ticker); ok {
			b.tickers = append(b.tickers, t)
		}
	}
	return b
}

// on reports whether the run has a budget at all.
func (b *budgets) on() bool { return b.list != nil }

// perClient reports whether arrivals must be told apart by client.
func (b *budgets) perClient() bool { return b.scope == ScopeClient && len(b.list) > 1 }

// of is the budget covering a layer's tries for a client; nil when none does.
func (b *budgets) of(layer int8, client int32) budget {
	switch b.scope {
	case ScopeLayer:
		return b.list[layer]
	case ScopeClient:
		return b.list[client]
	case ScopeDependency:
		if layer != b.bottom {
			return nil
		}
	}
	return b.list[0]
}

// counts reports whether a layer's first tries and successes count for its
// budget: a shared budget counts the user's only.
func (b *budgets) counts(layer int8) bool {
	return layer == 0 || b.scope == ScopeLayer || b.scope == ScopeDependency
}

// ticks reports whether the budgets need tick.
func (b *budgets) ticks() bool { return b.tickers != nil }

// tick starts tick t: arrivals[c] new requests arrived for client c (one
// entry when clients are not told apart).
func (b *budgets) tick(t int64, arrivals []int64) {
	switch b.scope {
	case ScopeClient:
		for c, n := range arrivals {
			b.tickers[c].tick(t, n)
		}
	default:
		var n int64
		for _, x := range arrivals {
			n += x
		}
		for _, x := range b.tickers {
			x.tick(t, n) // every layer sees the user requests
		}
	}
}

// send asks how many of n tries of a layer, about to be sent, may go.
func (b *budgets) send(layer int8, client int32, retry bool, n int64) int64 {
	if b.list == nil {
		return n
	}
	return b.sendOn(layer, client, retry, n)
}

// sendOn, failOn, succeedOn and endOn are send, fail, succeed and end in a
// run with budgets; the checks for one stay small enough to inline, so a
// run without budgets pays a compare, not a call, on every try.
func (b *budgets) sendOn(layer int8, client int32, retry bool, n int64) int64 {
	x := b.of(layer, client)
	if x == nil || !retry && !b.counts(layer) {
		return n
	}
	return x.send(retry, n)
}

// hedge asks how many of n hedges of a layer's calls may be sent, and
// charges them.
func (b *budgets) hedge(layer int8, client int32, n int64) int64 {
	if b.list == nil {
		return n
	}
	x := b.of(layer, client)
	switch h, ok := x.(hedgeCharger); {
	case x == nil:
		return n
	case ok:
		return h.hedge(n)
	}
	return x.send(true, x.fail(n, false, false))
}

// fail asks how many of k failed tries of a layer may retry.
func (b *budgets) fail(layer int8, client int32, k int64, timeout, last bool) int64 {
	if b.list == nil {
		return k
	}
	return b.failOn(layer, client, k, timeout, last)
}

func (b *budgets) failOn(layer int8, client int32, k int64, timeout, last bool) int64 {
	if x := b.of(layer, client); x != nil {
		return x.fail(k, timeout, last)
	}
	return k
}

// succeed counts k successes of a layer (a shared budget counts the
// user's only).
func (b *budgets) succeed(layer int8, client int32, k int64, retry, afterTimeout bool) {
	if b.list != nil {
		b.succeedOn(layer, client, k, retry, afterTimeout)
	}
}

func (b *budgets) succeedOn(layer int8, client int32, k int64, retry, afterTimeout bool) {
	if !b.counts(layer) {
		return
	}
	if x := b.of(layer, client); x != nil {
		x.succeed(k, retry, afterTimeout)
	}
}

// end counts n tries of a layer that ended.
func (b *budgets) end(layer int8, client int32, retry bool, n int64) {
	if b.list != nil {
		b.endOn(layer, client, retry, n)
	}
}

func (b *budgets) endOn(layer int8, client int32, retry bool, n int64) {
	if x := b.of(layer, client); x != nil {
		x.end(retry, n)
	}
}

// roundHalfEven rounds x to the nearest whole number, ties to even.
func roundHalfEven(x float64) int64 { return int64(math.RoundToEven(x)) }
