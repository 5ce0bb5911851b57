package model

import (
	"sync"
	"time"
)

// breaker is a circuit breaker on one layer's calls (for one client when
// clients are modelled): closed, it counts outcomes and trips open after
// threshold consecutive failures, or when failures are at least ratio of
// the calls over its window once min_calls were made; open, it fails every
// call at once for its open span; then half-open, it lets probes calls
// through: a success among them closes it, a failure opens it again. Calls
// it turns away fail their try at once and are counted; the outcomes of
// calls already made when it opens still count. What a "call" is here is
// its placement's (BreakerPlan.PerCall): inside the retry the engine asks
// and tells it about every try, outside it about a call's first try and its
// final outcome only (doc.go, "Where a breaker and a budget sit").
type breaker struct {
	plan   BreakerPlan
	state  breakerState
	until  int64      // open: the tick it turns half-open
	run    int64      // consecutive failures
	probes int64      // half-open: probes that may still go
	calls  slidingSum // failure ratio: the calls answered over the window
	fails  slidingSum // and the failures among them
}

type breakerState uint8

const (
	breakerClosed breakerState = iota
	breakerOpen
	breakerHalfOpen
)

func newBreaker(p BreakerPlan) *breaker {
	return &breaker{plan: p, calls: newSlidingSum(p.SliceTicks), fails: newSlidingSum(p.SliceTicks)}
}

// allow says how many of n calls may go at tick now.
func (b *breaker) allow(now, n int64) int64 {
	if b.state == breakerOpen && now >= b.until {
		b.state, b.probes = breakerHalfOpen, b.plan.Probes
	}
	switch b.state {
	case breakerOpen:
		return 0
	case breakerHalfOpen:
		ok := min(n, b.probes)
		b.probes -= ok
		return ok
	}
	return n
}

// record counts the outcomes of calls answered at tick now: ok successes
// and bad failures (errors and timeouts), successes first.
func (b *breaker) record(now, ok, bad int64) {
	switch b.state {
	case breakerHalfOpen:
		if bad > 0 {
			b.open(now)
		} else if ok > 0 {
			b.state, b.run = breakerClosed, 0
			b.clearWindow()
		}
		return
	case breakerOpen:
		return // late answers of calls made before it opened
	}
	if ok > 0 {
		b.run = 0
	}
	b.run += bad
	if b.plan.Kind == BreakerRatio {
		b.calls.slide(now)
		b.fails.slide(now)
		b.calls.add(ok + bad)
		b.fails.add(bad)
		if b.calls.sum >= b.plan.MinCalls && float64(b.fails.sum) >= b.plan.Ratio*float64(b.calls.sum) {
			b.open(now)
		}
		return
	}
	if b.run >= b.plan.Threshold {
		b.open(now)
	}
}

func (b *breaker) open(now int64) {
	b.state, b.until, b.run = breakerOpen, now+b.plan.OpenTicks, 0
	b.clearWindow()
}

func (b *breaker) clearWindow() {
	b.calls.reset()
	b.fails.reset()
}

// Breaker is a circuit breaker on a layer's calls, one per client when the
// load is split over clients: a kind from the registry below, the keys
// every kind shares (how long it stays open, its probes, where it sits
// against the retries), and the kind's own trip rule's keys.
type Breaker struct {
	Kind      string   `toml:"kind" doc:"none, or one of the breaker kinds below"`
	Open      Duration `toml:"open" doc:"how long it stays open, failing calls at once, before it lets probes through"`
	Probes    int      `toml:"probes" doc:"half-open: calls let through to test the dependency; a success closes it, a failure opens it again"`
	Placement string   `toml:"placement" oneof:",inside_retry,outside_retry" doc:"where it sits against the layer's retries: inside_retry (it guards each try and counts each try's outcome: failsafe-go's With(retryPolicy, circuitBreaker), Resilience4j's Retry around a CircuitBreaker) or outside_retry (it is asked once per call, before the first try, and counts the call's final outcome once, so retries neither pass it again nor add to its failures: failsafe-go's With(circuitBreaker, retryPolicy), Resilience4j's CircuitBreaker around a Retry, the lab client of \"Retries can make an outage worse: designing a retry budget\")"`
	// Params are the kind's trip rule's keys (ConsecutiveParams,
	// FailureRatioParams); nil for none.
	Params any `toml:"-"`
}

// ConsecutiveParams are the keys of a breaker that trips after a run of
// failures.
type ConsecutiveParams struct {
	Threshold int `toml:"threshold" doc:"failures in a row that trip it"`
}

func (p *ConsecutiveParams) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"threshold", "", Range{1, 1e6, ""}, &p.Threshold})
}

// FailureRatioParams are the keys of a breaker that trips on a share of
// failed calls.
type FailureRatioParams struct {
	Ratio    float64  `toml:"ratio" doc:"share of failed calls that trips it"`
	MinCalls int      `toml:"min_calls" doc:"calls in the window before it may trip"`
	Window   Duration `toml:"window" doc:"the span calls are counted over"`
}

func (p *FailureRatioParams) bounds(dst []Bound) []Bound {
	return append(dst,
		Bound{"ratio", "", Range{0.001, 1, ""}, &p.Ratio},
		Bound{"min_calls", "", Range{1, 1e9, ""}, &p.MinCalls},
		Bound{"window", "", span(Duration(time.Microsecond), LongestWait), &p.Window},
	)
}

// breakerKind is one registered kind of circuit breaker: its Kind and the
// trip rule its plan holds.
type breakerKind struct {
	Kind
	rule BreakerKind
}

func (k breakerKind) info() Kind { return k.Kind }

// breakerKinds is the registry of circuit breakers.
var breakerKinds = sync.OnceValue(func() []breakerKind {
	return []breakerKind{
		{Kind: Kind{Name: "none", Doc: "no breaker", Engines: OnAll}, rule: BreakerNone},
		{Kind: Kind{Name: "consecutive", Doc: "trips after threshold failures in a row", Engines: OnStochastic,
			Params: ConsecutiveParams{Threshold: 5}}, rule: BreakerConsecutive},
		{Kind: Kind{Name: "ratio", Doc: "trips when failures are at least ratio of the calls over window, once min_calls were made", Engines: OnStochastic,
			Params: FailureRatioParams{Ratio: 0.5, MinCalls: 10, Window: Duration(10 * time.Second)}}, rule: BreakerRatio},
	}
})

// breakerTable is the circuit breakers as a Breaker picks one; no kind is
// none.
func breakerTable() kindTable[breakerKind] {
	return kindTable[breakerKind]{kinds: breakerKinds, unset: "none"}
}

// bounds: the keys every breaker shares, for each kind with a trip rule
// (none reads none of them).
func (b *Breaker) bounds(dst []Bound) []Bound {
	for _, k := range breakerKinds() {
		if k.Params != nil {
			dst = append(dst, Bound{"open", k.Name, span(Duration(time.Microsecond), LongestWait), &b.Open}, Bound{"probes", k.Name, Range{1, 1e6, ""}, &b.Probes})
		}
	}
	return dst
}

func (b *Breaker) kind() string { return b.Kind }

// TableKind, SetTableKind, TableParams, SetTableParams and TableKinds make
// a breaker a KindTable.
func (b *Breaker) TableKind() string { return b.Kind }
func (b *Breaker) SetTableKind(name string) error {
	return breakerTable().setKind(&b.Kind, &b.Params, name)
}
func (b *Breaker) TableParams() any     { return breakerTable().params(b.Kind, b.Params) }
func (b *Breaker) SetTableParams(p any) { b.Params = p }
func (b *Breaker) TableKinds() []Kind   { return breakerTable().infos() }

// plan resolves the breaker, spans in ticks.
func (b *Breaker) plan(ticks func(Duration) int64) BreakerPlan {
	k, _ := breakerTable().lookup(b.Kind)
	if k.rule == BreakerNone {
		return BreakerPlan{}
	}
	bp := BreakerPlan{Kind: k.rule, OpenTicks: max(1, ticks(b.Open)), Probes: int64(b.Probes), PerCall: b.Placement == "outside_retry"}
	switch q := b.TableParams().(type) {
	case ConsecutiveParams:
		bp.Threshold = int64(q.Threshold)
	case FailureRatioParams:
		bp.Ratio, bp.MinCalls, bp.SliceTicks = q.Ratio, int64(q.MinCalls), max(1, ticks(q.Window)/10)
	}
	return bp
}
