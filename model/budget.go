package model

import (
	"math"
	"sync"
)

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

// Budget limits retries as a share of traffic rather than per request: a
// kind from the registry below, who shares it, and the kind's own keys,
// held as its parameter struct (PerTickParams, TokenBucketParams, ...).
// Setting the kind gives it that kind's default parameters; the keys a
// file writes for it then override them.
type Budget struct {
	Kind  string `toml:"kind" doc:"none, or one of the budget kinds below"`
	Scope string `toml:"scope" oneof:"chain,layer,client,dependency,edge,caller,callee" doc:"chain (one budget for the whole chain, retries tagged), layer (each layer its own), client (each client its own) or dependency (one for the calls to the dependency; the layers above have none); in a graph, edge, caller or callee (see graph)"`
	// Params are the kind's keys: a value of its parameter struct; nil for
	// none (and, before Resolve, for a kind whose defaults stand).
	Params any `toml:"-"`
}

// TableKind, SetTableKind, TableParams, SetTableParams and TableKinds make
// a budget a KindTable.
func (b *Budget) TableKind() string { return b.Kind }
func (b *Budget) SetTableKind(name string) error {
	return budgetTable().setKind(&b.Kind, &b.Params, name)
}
func (b *Budget) TableParams() any     { return budgetTable().params(b.Kind, b.Params) }
func (b *Budget) SetTableParams(p any) { b.Params = p }
func (b *Budget) TableKinds() []Kind   { return budgetTable().infos() }

// BudgetPlan is the retry budget resolved: its kind, its scope, and the
// kind's parameters, with the tick its spans are counted in.
type BudgetPlan struct {
	Kind   string // a registered budget kind; "none" for no budget
	Scope  BudgetScope
	Params any // the kind's parameter struct
	TickNs int64
}

// ticks is a span of the budget's parameters in ticks, at least one.
func (b *BudgetPlan) ticks(d Duration) int64 { return max(1, (int64(d)+b.TickNs/2)/b.TickNs) }

// BudgetScope is who shares a budget.
type BudgetScope uint8

const (
	ScopeChain      BudgetScope = iota // one budget for every layer, retries tagged
	ScopeLayer                         // each layer its own
	ScopeClient                        // each client its own
	ScopeDependency                    // one for the calls to the dependency; none above
	ScopeGraph                         // a graph's: each layer the budget GraphNode.Budget says (edge, caller or callee)
)

// budgetKind is one registered kind of retry budget: its Kind (name, doc,
// engines, parameters with their defaults and checks), what makes its
// state from its plan, and the parameter whose larger values let more
// retries through (for the test that they never refuse more).
type budgetKind struct {
	Kind
	make     func(b *BudgetPlan, r *rng) budget // nil for none
	more     string
	timeouts bool // succeed needs afterTimeout
}

func (k budgetKind) info() Kind { return k.Kind }

// budgetKinds is the registry of retry budgets. Adding one is a file with
// its type, its parameters and its kind, and one line here (model/doc.go
// shows how).
var budgetKinds = sync.OnceValue(func() []budgetKind {
	return []budgetKind{
		{Kind: Kind{Name: "none", Doc: "no budget: every retry the attempts allow is sent", Engines: OnAll}},
		perTickKind(),
		ratioKind(),
		tokenBucketKind(),
		grpcKind(),
		finagleKind(),
		envoyKind(),
		awsKind(),
		adaptiveKind(),
	}
})

// budgetTable is the retry budgets as a Budget picks one: a budget names
// its kind ("none" for no budget).
func budgetTable() kindTable[budgetKind] { return kindTable[budgetKind]{kinds: budgetKinds} }

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
	graph    *GraphPlan // ScopeGraph: which budget covers which layer
	// counted says by layer whether its first tries and successes count
	// for its budget (counts).
	counted []bool
}

// newBudgets makes the budgets of a run with the given layers and clients.
func newBudgets(p *Plan, layers int, clients int32, r *rng) budgets {
	k, ok := budgetTable().lookup(p.Budget.Kind)
	if !ok || k.make == nil {
		return budgets{}
	}
	n := 1
	switch p.Budget.Scope {
	case ScopeLayer:
		n = layers
	case ScopeClient:
		n = int(clients)
	case ScopeGraph:
		n = p.Graph.Budgets
	}
	b := budgets{list: make([]budget, n), scope: p.Budget.Scope, bottom: int8(layers - 1), timeouts: k.timeouts, graph: p.Graph,
		counted: make([]bool, layers)}
	own := b.scope == ScopeLayer || b.scope == ScopeDependency || b.scope == ScopeGraph
	for l := range b.counted {
		b.counted[l] = own
	}
	for _, l := range p.entryLayers() {
		b.counted[l] = true
	}
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
	case ScopeGraph:
		return b.list[b.graph.Nodes[layer].Budget]
	}
	return b.list[0]
}

// counts reports whether a layer's first tries and successes count for its
// budget: a budget of its own counts them all; a shared budget counts the
// users' only (the entry layers: a chain's top, a graph's entry points).
func (b *budgets) counts(layer int8) bool { return b.counted[layer] }

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
