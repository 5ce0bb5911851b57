package model

import (
	"sync"
	"time"
)

// Limiter is a client-side concurrency limit on a layer's tries: at most a
// limit of them in flight, for each client or for the whole layer (scope),
// the limit fixed (a bulkhead) or adapted from what the tries see (aimd,
// gradient). A try that finds the limit reached fails its call at once
// (full = "reject") or waits for a slot (full = "queue"), behind at most
// queue_limit others and for at most queue_timeout, after which it fails.
// The limiter sits inside the layer's retries, after its breaker and before
// its retry budget: every try, a retry included, takes a slot when it is
// sent and gives it back when it is answered, given up on or cancelled.
// A call whose try the limiter refuses fails at once, as one the budget
// refuses; the layer above sees the failure. A flat chain (one caller) has
// the top layer's limiter. No [[scenario.change]] may set a limiter's keys:
// it counts the tries in flight from the run's start. The kind's own keys are its parameter struct
// (BulkheadParams, AIMDParams, GradientParams).
type Limiter struct {
	Kind         string   `toml:"kind" doc:"none, or one of the limiter kinds below"`
	Scope        string   `toml:"scope" oneof:",client,layer" doc:"client (each client of the layer its own limit, as a library in each process) or layer (one limit for all the layer's clients, as a proxy in front of them)"`
	Full         string   `toml:"full" oneof:",reject,queue" doc:"what a try finds at the limit: reject (its call fails at once) or queue (it waits for a slot, oldest first, and fails after queue_timeout)"`
	QueueLimit   int      `toml:"queue_limit" doc:"full = \"queue\": tries that may wait for a slot; more are rejected (0 = unbounded)"`
	QueueTimeout Duration `toml:"queue_timeout" doc:"full = \"queue\": the longest a try waits for a slot before it fails"`
	// Params are the kind's keys: a value of its parameter struct; nil for
	// none.
	Params any `toml:"-"`
}

// limiterKind is one registered kind of concurrency limiter: its Kind and
// what makes its rule from its plan (nil for none).
type limiterKind struct {
	Kind
	make func(p *LimiterPlan) limitRule
}

func (k limiterKind) info() Kind { return k.Kind }

// limiterKinds is the registry of concurrency limiters: a file per kind
// (limiter_bulkhead.go, limiter_aimd.go, limiter_gradient.go) and a line
// here.
var limiterKinds = sync.OnceValue(func() []limiterKind {
	return []limiterKind{
		{Kind: Kind{Name: "none", Doc: "no limit: every try the policies allow is sent", Engines: OnAll}},
		bulkheadKind(),
		aimdKind(),
		gradientKind(),
	}
})

// limiterTable is the concurrency limiters as a Limiter picks one; no kind
// is none.
func limiterTable() kindTable[limiterKind] {
	return kindTable[limiterKind]{kinds: limiterKinds, unset: "none"}
}

// limitRule is the rule that sets a limiter's limit: fixed, or adapted from
// the samples of the tries it let through.
type limitRule interface {
	// limit is the tries that may be in flight at tick now.
	limit(now int64) int64
	// sample tells the rule that k tries ended at tick now, each rtt ticks
	// after it was sent (0: in the same tick), inflight the tries in
	// flight when they were sent (theirs included); drop: they failed or
	// timed out rather than succeeded.
	sample(now, k, rtt, inflight int64, drop bool)
}

// adaptive is a rule that needs its tries' samples; a fixed one does not,
// and a run with only fixed limits keeps no sample.
type adaptive interface{ adapts() }

// bounds: the keys every limiter shares, for each kind with a limit (none
// reads none of them).
func (l *Limiter) bounds(dst []Bound) []Bound {
	for _, k := range limiterKinds() {
		dst = l.kindBounds(k.Name, dst)
	}
	return dst
}

// kindBounds is bounds for one kind: what validation checks.
func (l *Limiter) kindBounds(kind string, dst []Bound) []Bound {
	if k, ok := limiterTable().lookup(kind); !ok || k.Params == nil {
		return dst
	}
	return append(dst, Bound{"queue_limit", kind, Range{0, 1e9, "tries"}, &l.QueueLimit},
		Bound{"queue_timeout", kind, span(Duration(time.Microsecond), LongestWait), &l.QueueTimeout})
}

func (l *Limiter) kind() string { return l.Kind }

// TableKind, SetTableKind, TableParams, SetTableParams and TableKinds make
// a limiter a KindTable.
func (l *Limiter) TableKind() string { return l.Kind }
func (l *Limiter) SetTableKind(name string) error {
	return limiterTable().setKind(&l.Kind, &l.Params, name)
}
func (l *Limiter) TableParams() any     { return limiterTable().params(l.Kind, l.Params) }
func (l *Limiter) SetTableParams(p any) { l.Params = p }
func (l *Limiter) TableKinds() []Kind   { return limiterTable().infos() }

// on reports whether the limiter limits anything.
func (l *Limiter) on() bool { return l.Kind != "" && l.Kind != "none" }

// limitsCheck is the check every adaptive kind shares: its initial limit
// between its least and its most.
func limitsCheck(initial, least, most int) *FieldError {
	switch {
	case least > most:
		return bad("min_limit", "%d is more than max_limit (%d)", least, most)
	case initial < least || initial > most:
		return bad("initial_limit", "%d is outside min_limit..max_limit (%d..%d)", initial, least, most)
	}
	return nil
}

// LimiterPlan is a layer's concurrency limiter resolved: its kind, who
// shares it, what a try does at the limit (spans in ticks), and the kind's
// parameters.
type LimiterPlan struct {
	Kind       string // a registered limiter kind; "" for none
	PerLayer   bool   // one limit for all the layer's clients
	Queue      bool   // a try at the limit waits for a slot
	QueueLimit int64  // tries that may wait; 0 = unbounded
	QueueTicks int64  // the longest a try waits, at least one tick
	Params     any
	TickNs     int64
}

// On reports whether the layer has a limiter.
func (l *LimiterPlan) On() bool { return l.Kind != "" }

// ticks is a span of the limiter's parameters in ticks, at least one.
func (l *LimiterPlan) ticks(d Duration) int64 { return max(1, (int64(d)+l.TickNs/2)/l.TickNs) }

// plan resolves the limiter, spans in ticks.
func (l *Limiter) plan(tickNs int64) LimiterPlan {
	if !l.on() {
		return LimiterPlan{}
	}
	lp := LimiterPlan{Kind: l.Kind, PerLayer: l.Scope == "layer", Queue: l.Full == "queue", QueueLimit: int64(l.QueueLimit),
		Params: l.TableParams(), TickNs: tickNs}
	lp.QueueTicks = lp.ticks(l.QueueTimeout)
	return lp
}

// rule makes the limiter's rule from its plan.
func (l *LimiterPlan) rule() limitRule {
	k, _ := limiterTable().lookup(l.Kind)
	return k.make(l)
}
