package model

import "math"

// Plan is a Scenario resolved once for everything downstream: every default
// filled in, every kind typed, every span in ticks. The engines run a Plan;
// figures and reports read their thresholds from one (the healthy backlog,
// the rule of thumb, the fault window) instead of working them out again
// from the scenario's keys. Scenario.Resolve makes it, part by part: each
// part of the scenario resolves into its own small plan, which the Plan
// holds (and embeds, where the engines read its fields at every step).
type Plan struct {
	Engine EngineKind
	Clock
	ChainPlan
	ArrivalPlan
	ServerPlan
	Budget BudgetPlan
	Health HealthPlan
	Markov MarkovPlan // the markov engine's chain
	FaultPlan
	// Changes are the run's interventions, in time order: from each one's
	// tick on, the run follows its plan.
	Changes []PlanChange
	RNGPlan
	Replicates int
	Latencies  bool // measure the latency quantiles of user requests (measure_latency)
	// Notes are the settings whose results may hang on a modelling choice
	// rather than on the system (Warnings).
	Notes []string

	mostCalls float64      // the calls a run can put on the dependency at most (Cost)
	switches  []PlanChange // with unforeseen faults, every plan switch (unforeseen.go); nil without
	poison    bool         // tests: recycled groups stay poisoned instead of being reused
}

// Clock is a run's time: its tick and its length.
type Clock struct {
	TickNs int64    // length of a tick in nanoseconds
	TickS  float64  // ... in seconds
	TPS    float64  // ticks per second
	Ticks  int64    // ticks in the run
	Tick   Duration // the tick as written
	Run    Duration // the run's length as written
}

// ChainPlan is the chain of callers resolved.
type ChainPlan struct {
	// Chain is the effective chain of callers, top (edge) first: the
	// scenario's layers stretched to Layers, or, in the flat form, one
	// caller with the product of their attempts, the top layer's backoff and
	// the bottom layer's timeout.
	Chain []LayerPlan
	Names []string // the written layers' names, top first ("" where none)
	Flat  bool
	// Allowed is the attempts one request may put on the dependency: the
	// product over the effective chain (retry_at keeps one layer's);
	// Written is the product of the layers' attempts as written.
	Allowed, Written int
	EdgeTimeout      Duration // the top layer's per-try timeout: what the user waits (0 = forever)
	Cancel           bool     // a caller that gives up cancels everything below it
	Deadline         int64    // ticks the edge gives a request; −1 = none
	Breakers         bool     // some layer has a circuit breaker
	// Graph is a service graph's tree of calls, each a layer of Chain;
	// nil for a chain (and a graph of one path, which is one).
	Graph *GraphPlan
}

// ArrivalPlan is how requests arrive, resolved.
type ArrivalPlan struct {
	Arrivals   ArrivalKind
	Load       float64      // open loop: new requests per second
	Shape      []ShapePoint // open loop: the load over time, when it changes
	Clients    int32        // callers with their own state (at least 1)
	ThinkTicks int64        // closed loop: pause after an answer, at least one tick
	ThinkSpan  int64        // closed loop: first requests spread over this many ticks
	Backlog    int64        // requests sent in the first tick, before its arrivals (initial.backlog)
	Abandoned  int64        // calls waiting at the start whose callers have gone (initial.abandoned)
}

// ServerPlan is the dependency resolved.
type ServerPlan struct {
	Server        ServerKind
	Capacity      float64 // calls per second (before faults)
	QueueLimit    int64   // calls that may wait; 0 = unbounded
	DropExpired   bool    // waiting calls nobody waits for are discarded (also with Cancel)
	FailureP      float64 // chance that a served call fails anyway
	FlakyShare    float64
	FlakyTries    int32
	FatalShare    float64
	Pushback      int64      // calls waiting above which arriving calls are pushed back; 0 = never
	Latency       float64    // seconds a served call takes to answer
	Slope         float64    // latency server: seconds added per call in flight
	Workers       int64      // worker pool: its workers (before faults)
	PoolRoom      ServerKind // worker pool: its waiting room, as dependency.queue names it (ServerFIFO, ServerLIFO or ServerLoss)
	Service       serviceLaw // worker pool: the law of a call's service time
	ServiceKind   string     // the law's name (dependency.service.kind), for those who name it
	AdmissionKind string     // the admission rule's name (dependency.admission.kind), for those who name it
	Admission     admitter   // the waiting room's admission rule; nil for none
	Collapse      CollapsePlan
	Network       NetworkPlan
}

// FaultPlan is the run's faults resolved: as written, their window, and
// the run cut into segments of constant effects.
type FaultPlan struct {
	FaultList []FaultSpec
	Fault     FaultWindow
	Faults    []Segment // the run cut into stretches of constant fault effects, covering [0, Ticks)
}

// FaultSpec is one fault as written.
type FaultSpec struct {
	Kind          string
	Start, Length Duration
	Capacity      float64 // degradation
	Factor        float64 // slowdown, spike
	// Service is, in a service graph, the service whose server the fault
	// hits; "" for a spike and in a chain.
	Service string
}

// RNGPlan is the run's random generator.
type RNGPlan struct {
	// Single sends every request as a group of one and handles calls one at
	// a time in the order they happen, drawing for each as it comes: the
	// generator order of the "Retries and Storm Risk" article (rng =
	// "minstd"). Otherwise identical calls travel in groups.
	Single bool
	Minstd bool
}

// EngineKind names an engine.
type EngineKind uint8

const (
	EngineQueue      EngineKind = iota // deterministic cohorts
	EngineStochastic                   // seeded groups of requests
	EngineMarkov                       // the chain solved (markov_run.go)
)

// String is the engine's name as a file writes it: queue, stochastic,
// markov.
func (e EngineKind) String() string { return Engines()[e] }

// ArrivalKind is how new requests arrive.
type ArrivalKind uint8

const (
	ArriveConstant ArrivalKind = iota // load per second, fractions carried over
	ArrivePoisson                     // Poisson with mean load × tick
	ArriveClosed                      // clients with one request outstanding
	ArriveBurst                       // clients requests at once at the start
)

// ShapePoint is a point of the load over time, in ticks.
type ShapePoint struct {
	At   int64
	Load float64 // requests per second
}

// ServerKind is what the dependency does with a call.
type ServerKind uint8

const (
	ServerLoss    ServerKind = iota // calls beyond the tick's capacity fail at once
	ServerFIFO                      // a waiting room served oldest first
	ServerLIFO                      // ... newest first
	ServerLatency                   // no capacity limit; latency grows with the calls in flight
	ServerPool                      // workers, each holding a call for its service time
)

// Queues reports whether calls wait at the dependency for capacity.
func (k ServerKind) Queues() bool { return k == ServerFIFO || k == ServerLIFO }

// LayerPlan is one caller of the effective chain.
type LayerPlan struct {
	Attempts int32
	Timeout  int64 // ticks a caller waits for an attempt; −1 = forever
	Backoff  BackoffPlan
	Breaker  BreakerPlan
	Hedge    HedgePlan
	Limiter  LimiterPlan
}

// HedgePlan is a layer's hedging: a second copy of a call after Delay ticks
// (or, with Percentile, the layer's observed latency percentile), at most
// MaxShare of its first tries.
type HedgePlan struct {
	Delay      int64 // ticks; 0 = no hedging
	Percentile float64
	MaxShare   float64
}

// BreakerPlan is a layer's circuit breaker, spans in ticks.
type BreakerPlan struct {
	Kind       BreakerKind
	Threshold  int64
	Ratio      float64
	MinCalls   int64
	SliceTicks int64 // a tenth of the ratio rule's window
	OpenTicks  int64
	Probes     int64
	PerCall    bool // outside_retry: asked once per call, told one outcome per call
}

// BreakerKind is a breaker's trip rule.
type BreakerKind uint8

const (
	BreakerNone        BreakerKind = iota
	BreakerConsecutive             // threshold failures in a row
	BreakerRatio                   // a share of failed calls over a window
)

// BackoffPlan is a layer's wait before a retry, in ticks.
type BackoffPlan struct {
	Kind   BackoffKind
	Base   float64 // ticks
	Factor float64
	Cap    float64 // ticks; 0 = none
	Jitter JitterKind
	Step   int64 // jitter_step in whole ticks (0 or 1: exact)
}

// BackoffKind is the shape of the wait before a retry.
type BackoffKind uint8

const (
	BackoffNone        BackoffKind = iota // retry in the next tick
	BackoffConstant                       // base every time
	BackoffExponential                    // base × factor^(attempt−1), capped
)

// JitterKind is how a wait is randomised.
type JitterKind uint8

const (
	JitterNone         JitterKind = iota
	JitterFull                    // uniform in [0, wait)
	JitterEqual                   // uniform in [wait/2, wait)
	JitterDecorrelated            // uniform in [base, 3 × previous wait), capped
)

// CollapsePlan is the dependency's overload collapse: above capacity it keeps
// max(Floor, 1 − Slope × (x − 1)) of its capacity, x = demand / (capacity ×
// WindowS).
type CollapsePlan struct {
	Slope, Floor float64
	WindowS      float64 // seconds demand is measured over
	WindowTicks  int64
	Offered      bool // demand is the calls offered over the window, not the calls waiting
}

// On reports whether the dependency collapses at all.
func (c CollapsePlan) On() bool { return c.Slope > 0 }

// NetworkPlan is the delay between two layers, each way.
type NetworkPlan struct {
	Kind  NetworkKind
	Delay float64 // ticks: the delay, or its mean
}

// NetworkKind is the law of a network delay.
type NetworkKind uint8

const (
	NetworkNone NetworkKind = iota
	NetworkConstant
	NetworkExponential
)

// HealthRule is how health is judged at the end of a tick.
type HealthRule uint8

const (
	HealthQueue   HealthRule = iota // calls waiting ≤ Limit
	HealthGoodput                   // successes over the window ≥ Goodput × arrivals
)

// HealthPlan says what healthy means, from where the user stands: at the
// edge of the chain.
type HealthPlan struct {
	Rule HealthRule
	// Limit is the largest backlog a healthy dependency holds: the calls it
	// serves while a new request can still be answered before the user at
	// the edge gives up, capacity × (edge timeout − service latency − the
	// network's round trip down the chain). The queue rule compares the
	// calls waiting with it; it is also the backlog a fault must build to
	// tip naive retries over (the rule of thumb). NaN when the scenario has
	// no such limit (no capacity, or a user who waits forever).
	Limit       float64
	Goodput     float64 // goodput rule: share of arrivals that must succeed
	WindowTicks int64   // goodput rule: ticks it is measured over
}

// FaultWindow is the span from the first fault's start to the last fault's
// end.
type FaultWindow struct {
	Has      bool
	From, To int64    // in ticks: the first tick at or after the start (rounded down), and of the end
	Start    Duration // as written
	End      Duration
}

// Segment is a stretch of ticks with the same fault effects.
type Segment struct {
	From, To  int64   // ticks [From, To)
	CapRate   float64 // calls per second the dependency serves, faults applied
	PerTick   int64   // CapRate per tick when that is a whole number, else −1
	LatFactor float64 // slowdowns: service latency multiplier
	ArrFactor float64 // spikes: arrival multiplier
	// HoldUntil: the latency server answers nothing during an outage; calls
	// in service or arriving then are answered from this tick on (0 = no
	// outage here).
	HoldUntil int64
	// Halt: in an outage, what becomes of the calls on a worker pool's
	// workers when it starts (of overlapping outages, the one that fails
	// before the one that hangs before the one that lets them finish).
	Halt Halt
}

// BaseRate is the usual arrival rate the load ratios are measured against:
// the load; under a shape, its load where the first fault starts (or at the
// start); for a burst, the burst's requests in the second (the series bin)
// they arrive in. A closed loop measures its own.
func (p *Plan) BaseRate() float64 {
	switch {
	case p.Arrivals == ArriveBurst:
		return float64(p.Clients) / (float64(p.seriesBinTicks()) * p.TickS)
	case len(p.Shape) > 0:
		a := arrivals{p: p}
		return a.shapeAt(p.Fault.From)
	}
	return p.Load
}

// Triggered reports whether the run has something to recover from: a fault,
// or a system already loaded when it starts (initial.backlog or
// initial.abandoned). Without one, a run's recovery time means nothing,
// and recovered means healthy at the end.
func (p *Plan) Triggered() bool { return p.Fault.Has || p.Backlog > 0 || p.Abandoned > 0 }

// RuleOfThumb is the blip length the 30-second blip article predicts tips
// naive retries over at the given load: the time a fault takes to build a
// backlog of Health.Limit calls, Limit / load. ok is false when the scenario
// has no such limit, the load is not positive, or it is a service graph,
// whose servers and timeouts are many.
func (p *Plan) RuleOfThumb(load float64) (seconds float64, ok bool) {
	if math.IsNaN(p.Health.Limit) || !(load > 0) || p.Graph != nil {
		return math.Inf(1), false
	}
	return p.Health.Limit / load, true
}

// SegmentAt returns the index of the segment holding tick t, searching from
// index from (segments only move forward in a run).
func (p *Plan) SegmentAt(from int, t int64) int {
	i := from
	for i+1 < len(p.Faults) && p.Faults[i].To <= t {
		i++
	}
	return i
}

// ticksOf converts a duration to ticks, rounded to the nearest tick.
func (p *Plan) ticksOf(d Duration) int64 {
	return (int64(d) + p.TickNs/2) / p.TickNs
}
