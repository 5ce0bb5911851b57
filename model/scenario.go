package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Scenario is everything one simulation run needs: the arrivals, the chain of
// callers with their retry policies, the dependency at the bottom and the
// faults that hit it. Struct tags carry the TOML key, the unit and a short
// description; the loader, the README reference and the reports read them.
// Every numeric key has a range and unit, declared beside its kind (the
// bounds method of its table, or of its budget kind) and checked by
// Validate.
type Scenario struct {
	Engine     string     `toml:"engine" doc:"simulation engine: queue (deterministic cohorts) or stochastic (seeded, request level)"`
	Tick       Duration   `toml:"tick" doc:"length of one simulation step"`
	Duration   Duration   `toml:"duration" doc:"simulated time"`
	Load       float64    `toml:"load" doc:"new user requests per second (open loop)"`
	Arrivals   string     `toml:"arrivals" doc:"constant, poisson (open loop), closed (clients with one request outstanding) or burst (clients requests at once at the start, none after)"`
	Shape      []Point    `toml:"shape" doc:"open loop: the load over time, a list of { at, load } points joined by straight lines (a ramp is two), flat before the first and after the last; replaces load"`
	Clients    int        `toml:"clients" doc:"closed loop: number of clients; open loop: callers the load is split over (0 = 1)"`
	Think      Duration   `toml:"think" doc:"closed loop: pause between a client's requests"`
	Layers     int        `toml:"layers" doc:"depth of the caller chain; the last [[scenario.layer]] repeats to fill it (0 = as many as written)"`
	Layer      []Layer    `toml:"layer" doc:"the callers, top (edge) first"`
	Chain      string     `toml:"chain" doc:"nested (each layer's retry is a new call down the chain) or flat (one caller with the product of the attempts); empty = the engine's own (queue: flat, stochastic: nested)"`
	RetryAt    string     `toml:"retry_at" doc:"every (each layer retries as its attempts say), edge or bottom (only that layer retries; the others make one try and pass failures up)"`
	Deadline   Duration   `toml:"deadline" doc:"stochastic: the edge's deadline for a request, passed down the chain: every try waits at most min(the time left, its own timeout), and no try starts without time left (0 = none)"`
	Budget     Budget     `toml:"budget" doc:"retry budget"`
	Dependency Dependency `toml:"dependency" doc:"the dependency at the bottom of the chain"`
	Fault      []Fault    `toml:"fault" doc:"faults, each over a window"`
	Health     Health     `toml:"health" doc:"what counts as healthy"`
	Initial    Initial    `toml:"initial" doc:"the state the run starts in"`
	Change     []Change   `toml:"change" doc:"interventions: keys that take new values at a moment of the run"`
	RNG        string     `toml:"rng" doc:"random generator: pcg (default) or minstd (Park-Miller 48271 with Knuth's Poisson sampler)"`
	Replicates int        `toml:"replicates" doc:"seeded runs per cell; results report their mean and spread"`

	// CancelAbandoned propagates a caller's give-up down the chain (stochastic engine).
	CancelAbandoned bool `toml:"cancel_abandoned" doc:"stochastic: a caller that gives up on a call cancels everything below it (retries stop, calls still waiting at the dependency are withdrawn); false = the abandoned subtree keeps running"`

	// MeasureLatency asks for the quantiles of user requests' latency
	// (stochastic engine); a run without it pays nothing for them.
	MeasureLatency bool `toml:"measure_latency" doc:"stochastic: measure each user request's latency, from its arrival to its answer, in whole ticks: the latency_p50_s, latency_p95_s and latency_p99_s columns (successes) and error_latency_p50_s and error_latency_p99_s (errors)"`
}

// bounds declares the ranges of the scenario's own numeric keys.
func (s *Scenario) bounds(dst []Bound) []Bound {
	return append(dst,
		Bound{"tick", "", span(Duration(time.Microsecond), Duration(time.Hour)), &s.Tick},
		Bound{"duration", "", span(Duration(time.Microsecond), LongestRun), &s.Duration},
		Bound{"load", "", Range{0, MaxRate, "requests/s"}, &s.Load},
		Bound{"clients", "", Range{0, 1e6, ""}, &s.Clients},
		Bound{"think", "", span(0, LongestWait), &s.Think},
		Bound{"layers", "", Range{0, 16, ""}, &s.Layers},
		Bound{"deadline", "", span(0, LongestWait), &s.Deadline},
		Bound{"replicates", "", Range{1, 10000, ""}, &s.Replicates},
	)
}

// Initial is the state a run starts in: a system already loaded, for the
// time it takes to drain or to collapse from there.
type Initial struct {
	Backlog   int64 `toml:"backlog" doc:"requests already sent when the run starts: all sent in its first tick, before that tick's arrivals, so their calls wait at the dependency from the start, their callers' timers running"`
	Abandoned int64 `toml:"abandoned" doc:"calls waiting at the dependency when the run starts whose callers have given up: work nobody waits for (dropped at once with drop_expired)"`
}

func (i *Initial) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"backlog", "", Range{0, MaxCalls, "requests"}, &i.Backlog}, Bound{"abandoned", "", Range{0, MaxCalls, "calls"}, &i.Abandoned})
}

// Layer is one caller in the chain and its retry policy.
type Layer struct {
	Name     string   `toml:"name" doc:"label used in reports"`
	Attempts int      `toml:"attempts" doc:"tries per call, the first included (3 = one call and up to two retries)"`
	Timeout  Duration `toml:"timeout" doc:"per-try timeout: the caller gives up on an attempt after it (0 = waits forever)"`
	Backoff  Backoff  `toml:"backoff" doc:"wait before a retry"`
	Breaker  Breaker  `toml:"breaker" doc:"circuit breaker on the layer's calls"`
	Hedge    Hedge    `toml:"hedge" doc:"hedged requests: a second copy of a slow call"`
}

func (l *Layer) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"attempts", "", Range{1, 1000, ""}, &l.Attempts}, Bound{"timeout", "", span(0, LongestWait), &l.Timeout})
}

// Hedge sends a second copy of a call that has no answer after a delay;
// the first success wins and the other copy is cancelled.
type Hedge struct {
	Delay      Duration `toml:"delay" doc:"stochastic, bottom layer: send a hedge when a call has no answer after this long (0 = no hedging)"`
	Percentile float64  `toml:"percentile" doc:"instead of delay, once answers have been seen: the latency percentile of the layer's successes (e.g. 95), delay until then"`
	MaxShare   float64  `toml:"max_share" doc:"hedges at most this share of the layer's tries over the last 10 s (Finagle's backup-request budget); each is also charged to the retry budget as a retry"`
}

// Breaker is a circuit breaker on a layer's calls, one per client when the
// load is split over clients.
type Breaker struct {
	Kind      string   `toml:"kind" doc:"stochastic: none, consecutive (trips after threshold failures in a row) or ratio (trips when failures are at least ratio of the calls over window, once min_calls were made)"`
	Threshold int      `toml:"threshold" doc:"consecutive: failures in a row that trip it"`
	Ratio     float64  `toml:"ratio" doc:"ratio: share of failed calls that trips it"`
	MinCalls  int      `toml:"min_calls" doc:"ratio: calls in the window before it may trip"`
	Window    Duration `toml:"window" doc:"ratio: the span calls are counted over"`
	Open      Duration `toml:"open" doc:"how long it stays open, failing calls at once, before it lets probes through"`
	Probes    int      `toml:"probes" doc:"half-open: calls let through to test the dependency; a success closes it, a failure opens it again"`
	Placement string   `toml:"placement" doc:"where it sits against the layer's retries: inside_retry (it guards each try and counts each try's outcome: failsafe-go's With(retryPolicy, circuitBreaker), Resilience4j's Retry around a CircuitBreaker) or outside_retry (it is asked once per call, before the first try, and counts the call's final outcome once, so retries neither pass it again nor add to its failures: failsafe-go's With(circuitBreaker, retryPolicy), Resilience4j's CircuitBreaker around a Retry, the lab client of \"Retries can make an outage worse: designing a retry budget\")"`
}

// Point is a point of a load shape.
type Point struct {
	At   Duration `toml:"at" doc:"when"`
	Load float64  `toml:"load" doc:"new user requests per second then"`
}

func (p *Point) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"at", "", span(0, LongestRun), &p.At}, Bound{"load", "", Range{0, MaxRate, "requests/s"}, &p.Load})
}

// Backoff is the wait before a retry, after the failure is seen.
type Backoff struct {
	Kind   string   `toml:"kind" doc:"none (retry in the next tick), constant or exponential"`
	Base   Duration `toml:"base" doc:"first wait (constant: every wait)"`
	Factor float64  `toml:"factor" doc:"exponential: growth per retry"`
	Cap    Duration `toml:"cap" doc:"exponential: longest wait (0 = no cap)"`
	Jitter string   `toml:"jitter" doc:"none, full (uniform 0..wait), equal (wait/2 + uniform 0..wait/2) or decorrelated (uniform base..3×previous, capped)"`
	// JitterStep trades exactness for speed: see the README's "Jitter steps".
	JitterStep Duration `toml:"jitter_step" doc:"an approximation for speed: a jittered wait is drawn in steps of this length and taken at the step's middle, so retries stay grouped (0 = exact, to the tick)"`
}

// Budget limits retries as a share of traffic rather than per request.
type Budget struct {
	Kind                string   `toml:"kind" doc:"none, per_tick (retries per tick ≤ round(ratio × arrivals that tick)), ratio (retries so far ≤ ratio × first tries so far), token_bucket (a bucket that starts full: a deposit adds ratio, a retry costs 1, none below 1; deposit says what deposits), grpc (gRPC retry throttling), finagle (Finagle's RetryBudget), envoy (Envoy's retry budget), aws (the AWS SDK standard retry quota) or adaptive (SRE client-side adaptive throttling of every try)"`
	Ratio               float64  `toml:"ratio" doc:"per_tick, ratio: retries allowed per request; token_bucket: tokens a deposit adds"`
	Deposit             string   `toml:"deposit" doc:"token_bucket: what earns ratio tokens, success (each success, the FIG. 1 bucket) or request (each call it covers earns once, as its first try is sent, whatever the call's outcome — the user's requests for a chain or client budget, the layer's calls for a layer's — as the per-origin budget of \"Retries can make an outage worse: designing a retry budget\" earns per logical call)"`
	Count               string   `toml:"count" doc:"ratio: when a retry counts, sent (when it starts) or granted (when it is allowed, as the deadlines article's asyncio call() counts)"`
	MaxTokens           float64  `toml:"max_tokens" doc:"token_bucket, grpc: bucket size; it starts full"`
	TokenRatio          float64  `toml:"token_ratio" doc:"grpc: tokens a successful call adds (a failed try takes 1; retries pass only while tokens > max_tokens / 2)"`
	TTL                 Duration `toml:"ttl" doc:"finagle: deposits expire after it"`
	MinRetriesPerSec    float64  `toml:"min_retries_per_sec" doc:"finagle: retries allowed per second on top of the share (a reserve of min_retries_per_sec × ttl)"`
	PercentCanRetry     float64  `toml:"percent_can_retry" doc:"finagle: share of requests that may be retried (each request deposits)"`
	BudgetPercent       float64  `toml:"budget_percent" doc:"envoy: retries in flight ≤ budget_percent of the tries in flight"`
	MinRetryConcurrency int      `toml:"min_retry_concurrency" doc:"envoy: retries in flight allowed whatever the share"`
	Quota               float64  `toml:"quota" doc:"aws: tokens in the retry quota; it starts full"`
	RetryCost           float64  `toml:"retry_cost" doc:"aws: tokens a retry after an error takes"`
	TimeoutCost         float64  `toml:"timeout_cost" doc:"aws: tokens a retry after a timeout takes"`
	NoRetryIncrement    float64  `toml:"no_retry_increment" doc:"aws: tokens a success on the first try adds (a success on a retry gives back what the retry took)"`
	K                   float64  `toml:"k" doc:"adaptive: a try is rejected on the client with probability max(0, (tries − k × accepted) / (tries + 1)) over the window"`
	Window              Duration `toml:"window" doc:"adaptive: the span tries and accepted ones are counted over"`
	Scope               string   `toml:"scope" doc:"chain (one budget for the whole chain, retries tagged), layer (each layer its own), client (each client its own) or dependency (one for the calls to the dependency; the layers above have none)"`
}

// Dependency is the service at the bottom of the chain.
type Dependency struct {
	Capacity           float64  `toml:"capacity" doc:"calls served per second"`
	Queue              string   `toml:"queue" doc:"waiting room: fifo, lifo or none (a loss server: calls beyond the tick's capacity fail at once)"`
	QueueLimit         int      `toml:"queue_limit" doc:"calls that may wait; more are rejected at once (0 = unbounded)"`
	DropExpired        bool     `toml:"drop_expired" doc:"discard waiting calls whose caller gave up instead of serving them"`
	FailureProbability float64  `toml:"failure_probability" doc:"chance that a served call fails anyway"`
	FlakyShare         float64  `toml:"flaky_share" doc:"stochastic: share of requests whose first flaky_failures tries at the dependency fail at once, whatever its load (a transient error that a retry clears)"`
	FlakyFailures      int      `toml:"flaky_failures" doc:"stochastic: tries that fail for a flaky request"`
	FatalShare         float64  `toml:"fatal_share" doc:"stochastic: share of the dependency's error answers that no caller retries (like a 4xx)"`
	Pushback           int      `toml:"pushback" doc:"stochastic: with more calls than this waiting, the dependency answers arriving calls at once with \"overloaded, don't retry\", which no caller retries (0 = never)"`
	Latency            Duration `toml:"latency" doc:"stochastic: service time of one call (0 = answered within the tick)"`
	LatencySlope       Duration `toml:"latency_slope" doc:"stochastic, with capacity = 0: latency grows by this per call in flight (congestive-collapse server)"`
	Collapse           Collapse `toml:"collapse" doc:"useful throughput lost to overload"`
	Network            Network  `toml:"network" doc:"delay between layers"`
}

func (d *Dependency) bounds(dst []Bound) []Bound {
	return append(dst,
		Bound{"capacity", "", Range{0, MaxRate, "calls/s"}, &d.Capacity},
		Bound{"queue_limit", "", Range{0, MaxCalls, "calls"}, &d.QueueLimit},
		Bound{"failure_probability", "", Range{0, 1, ""}, &d.FailureProbability},
		Bound{"flaky_share", "", Range{0, 1, ""}, &d.FlakyShare},
		Bound{"flaky_failures", "", Range{0, 1000, ""}, &d.FlakyFailures},
		Bound{"fatal_share", "", Range{0, 1, ""}, &d.FatalShare},
		Bound{"pushback", "", Range{0, MaxCalls, "calls"}, &d.Pushback},
		Bound{"latency", "", span(0, LongestWait), &d.Latency},
		Bound{"latency_slope", "", span(0, LongestWait), &d.LatencySlope},
	)
}

// Collapse makes an overloaded dependency do less useful work: above
// capacity, throughput = capacity × max(floor, 1 − slope × (demand/capacity − 1)),
// where demand is the work waiting plus arriving in the tick. The stochastic
// engine can measure demand over a fixed span instead of one tick (Window), so
// the curve does not change with the tick, and can measure it as the calls
// offered rather than the calls waiting (Demand): the overload ratio is then
// demand / (capacity × window).
type Collapse struct {
	Slope  float64  `toml:"slope" doc:"throughput lost per unit of overload (0 = no collapse)"`
	Floor  float64  `toml:"floor" doc:"share of capacity kept however deep the overload"`
	Window Duration `toml:"window" doc:"stochastic: span demand is measured over (0 = one tick)"`
	Demand string   `toml:"demand" doc:"stochastic: queue (calls waiting, arrivals of the tick included) or offered (calls that arrived during the window before the tick, retries and calls that will expire included); empty = queue, offered for a loss server"`
}

// Network is the delay a call spends between two layers, each way.
type Network struct {
	Kind  string   `toml:"kind" doc:"none, constant or exponential"`
	Delay Duration `toml:"delay" doc:"the delay, or its mean"`
}

// Fault is a trigger over a window.
type Fault struct {
	Kind     string   `toml:"kind" doc:"outage (capacity 0), degradation (capacity reduced to capacity), slowdown (service slower by factor) or spike (arrivals × factor)"`
	Start    Duration `toml:"start" doc:"when it begins"`
	Length   Duration `toml:"length" doc:"how long it lasts"`
	Capacity float64  `toml:"capacity" doc:"degradation: capacity during the window"`
	Factor   float64  `toml:"factor" doc:"slowdown: latency multiplier; spike: arrival multiplier"`
}

// bounds: a slowdown by a factor below 1/1000 would be a speed-up to a
// capacity no tick can count; a spike of factor 0 stops the arrivals.
func (f *Fault) bounds(dst []Bound) []Bound {
	return append(dst,
		Bound{"start", "", span(0, LongestRun), &f.Start},
		Bound{"length", "", span(0, LongestRun), &f.Length},
		Bound{"capacity", "degradation", Range{0, MaxRate, "calls/s"}, &f.Capacity},
		Bound{"factor", "slowdown", Range{0.001, 1e6, ""}, &f.Factor},
		Bound{"factor", "spike", Range{0, 1e6, ""}, &f.Factor},
	)
}

func (f *Fault) kind() string { return f.Kind }

// Health says what counts as healthy, as the user at the edge sees it. The
// queue rule: the work waiting at the dependency is at most capacity × (the
// top layer's timeout − service latency − network round trip), so a new
// request is answered before the user gives up. The goodput rule: over the
// last window, successes are at least goodput × arrivals. Plan.Health holds
// the resolved rule and limit.
type Health struct {
	Rule    string   `toml:"rule" doc:"queue (calls waiting ≤ capacity × (edge timeout − latency − network round trip)), goodput, or empty: queue where calls wait for a capacity and the user at the edge gives up, goodput otherwise"`
	Goodput float64  `toml:"goodput" doc:"goodput rule: share of arrivals that must succeed"`
	Window  Duration `toml:"window" doc:"goodput rule: the window it is measured over"`
}

func (h *Health) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"goodput", "", Range{0.001, 1, ""}, &h.Goodput}, Bound{"window", "", span(Duration(time.Microsecond), LongestWait), &h.Window})
}

// Default returns the scenario every experiment starts from: the 30-second
// blip article's system without its blip (capacity 100/s, 70 new requests/s,
// 1 s timeout, one attempt, 1 s ticks, one hour).
func Default() Scenario {
	return Scenario{
		Engine:   "queue",
		Tick:     Duration(time.Second),
		Duration: Duration(time.Hour),
		Load:     70,
		Arrivals: "constant",
		RetryAt:  "every",
		Layer:    []Layer{DefaultLayer()},
		Budget: Budget{Kind: "none", Scope: "chain", Count: "sent", Deposit: "success", TokenRatio: 0.1, TTL: Duration(10 * time.Second),
			MinRetriesPerSec: 10, PercentCanRetry: 0.2, BudgetPercent: 20, MinRetryConcurrency: 3,
			Quota: 500, RetryCost: 5, TimeoutCost: 10, NoRetryIncrement: 1, K: 2, Window: Duration(2 * time.Minute)},
		Dependency: Dependency{Capacity: 100, Queue: "fifo", Network: Network{Kind: "none"}},
		Health:     Health{Goodput: 0.95, Window: Duration(time.Second)},
		RNG:        "pcg",
		Replicates: 1,
	}
}

// DefaultLayer is what a [[scenario.layer]] entry holds before its keys apply.
func DefaultLayer() Layer {
	return Layer{Attempts: 1, Timeout: Duration(time.Second), Backoff: Backoff{Kind: "none", Factor: 2, Jitter: "none"},
		Breaker: Breaker{Kind: "none", Threshold: 5, Ratio: 0.5, MinCalls: 10, Window: Duration(10 * time.Second), Open: Duration(30 * time.Second), Probes: 1, Placement: "inside_retry"},
		Hedge:   Hedge{MaxShare: 0.02}}
}

// DefaultFault is what a [[scenario.fault]] entry holds before its keys apply.
func DefaultFault() Fault { return Fault{Kind: "outage", Factor: 1} }

// ChainLayers returns the effective chain, top first: Layer stretched or cut
// to Layers entries, the last entry repeating.
func (s *Scenario) ChainLayers() []Layer {
	out := make([]Layer, s.chainLen())
	for i := range out {
		out[i] = *s.chainLayer(i)
	}
	return out
}

// chainLen is the number of layers in the effective chain.
func (s *Scenario) chainLen() int {
	if s.Layers > 0 {
		return s.Layers
	}
	return len(s.Layer)
}

// chainLayer is layer i of the effective chain: the last entry of Layer
// repeats.
func (s *Scenario) chainLayer(i int) *Layer { return &s.Layer[min(i, len(s.Layer)-1)] }

// FlatAttempts is the attempts one user request may put on the dependency
// when every call fails: the product of the layers' attempts.
func (s *Scenario) FlatAttempts() int {
	p := 1
	for i := range s.chainLen() {
		p *= s.chainLayer(i).Attempts
		if p > math.MaxInt32 {
			return math.MaxInt32
		}
	}
	return p
}

// ChainMode is Chain with the engine's default filled in.
func (s *Scenario) ChainMode() string {
	if s.Chain != "" {
		return s.Chain
	}
	if s.Engine == "queue" {
		return "flat"
	}
	return "nested"
}

// FaultWindow returns the first fault's start and the last fault's end; ok is
// false when there is no fault.
func (s *Scenario) FaultWindow() (start, end Duration, ok bool) {
	for _, f := range s.Fault {
		if f.Length <= 0 {
			continue
		}
		if !ok || f.Start < start {
			start = f.Start
		}
		if e := f.Start + f.Length; !ok || e > end {
			end = e
		}
		ok = true
	}
	return start, end, ok
}

// Bounds on rates and counts, so that no count overflows and every count a
// run reports is exact in a float64.
const (
	MaxRate  = 1e9     // requests or calls per second (load, capacity)
	MaxCalls = 1 << 53 // calls one run can make: requests × attempts per request
)

// peakRate is the highest arrival rate of the run: the load (the highest
// point of its shape) times the largest product of spike factors that can
// overlap.
func (s *Scenario) peakRate() float64 {
	r := s.Load
	if len(s.Shape) > 0 {
		r = 0
		for _, pt := range s.Shape {
			r = math.Max(r, pt.Load)
		}
	}
	for _, f := range s.Fault {
		if f.Kind == "spike" && f.Factor > 1 && f.Length > 0 {
			r *= f.Factor
		}
	}
	if s.Arrivals == "closed" {
		r = math.Max(r, float64(s.Clients)/math.Max(s.Tick.Seconds(), s.Think.Seconds()))
	}
	return r
}

// mostCalls bounds the calls one run can put on the dependency: every
// request that can arrive (at the peak rate for the whole run, a burst's,
// the initial backlog) making every attempt the chain allows, each with a
// hedge where the bottom layer hedges them all.
func (s *Scenario) mostCalls() float64 {
	requests := s.peakRate()*s.Duration.Seconds() + float64(s.Initial.Backlog)
	if s.Arrivals == "burst" {
		requests += float64(s.Clients)
	}
	calls := requests * float64(s.FlatAttempts())
	if h := s.chainLayer(s.chainLen() - 1).Hedge; h.Delay > 0 {
		calls *= 1 + h.MaxShare
	}
	return calls
}

// indexed is the path prefix of item i of a list of tables ("layer.2."),
// for the messages of bad input.
func indexed(list string, i int) string { return list + "." + strconv.Itoa(i) + "." }

// FieldError is a problem with one scenario key; Path is the key's dotted
// TOML path below [scenario] (for example "dependency.capacity" or
// "layer.1.timeout").
type FieldError struct {
	Path string
	Msg  string
}

func (e *FieldError) Error() string { return e.Path + ": " + e.Msg }

func bad(path, format string, args ...any) *FieldError {
	return &FieldError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

func oneOf(path, v string, allowed ...string) *FieldError {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	shown := make([]string, 0, len(allowed))
	for _, a := range allowed {
		if a != "" { // "" is the default, written as one of the others
			shown = append(shown, a)
		}
	}
	return bad(path, "%q is not allowed; use one of %s", v, strings.Join(shown, ", "))
}

// Validate checks every value and the combinations the engines need. The
// error is a *FieldError naming the key.
func (s *Scenario) Validate() error {
	check := []*FieldError{
		oneOf("engine", s.Engine, "queue", "stochastic"),
		oneOf("arrivals", s.Arrivals, "constant", "poisson", "closed", "burst"),
		oneOf("retry_at", s.RetryAt, "", "every", "edge", "bottom"),
		oneOf("chain", s.Chain, "", "nested", "flat"),
		oneOf("rng", s.RNG, "pcg", "minstd"),
		oneOf("budget.kind", s.Budget.Kind, budgetNames()...),
		oneOf("budget.scope", s.Budget.Scope, "chain", "layer", "client", "dependency"),
		oneOf("budget.count", s.Budget.Count, "", "sent", "granted"),
		oneOf("budget.deposit", s.Budget.Deposit, "", "success", "request"),
		oneOf("dependency.queue", s.Dependency.Queue, "fifo", "lifo", "none"),
		oneOf("dependency.network.kind", s.Dependency.Network.Kind, "none", "constant", "exponential"),
		oneOf("dependency.collapse.demand", s.Dependency.Collapse.Demand, "", "queue", "offered"),
		oneOf("health.rule", s.Health.Rule, "", "queue", "goodput"),
	}
	for i, l := range s.Layer {
		p := indexed("layer", i)
		check = append(check, oneOf(p+"backoff.kind", l.Backoff.Kind, "none", "constant", "exponential"),
			oneOf(p+"backoff.jitter", l.Backoff.Jitter, "none", "full", "equal", "decorrelated"),
			oneOf(p+"breaker.kind", l.Breaker.Kind, "", "none", "consecutive", "ratio"),
			oneOf(p+"breaker.placement", l.Breaker.Placement, "", "inside_retry", "outside_retry"))
	}
	for i, f := range s.Fault {
		check = append(check, oneOf(indexed("fault", i)+"kind", f.Kind, "outage", "degradation", "slowdown", "spike"))
	}
	for _, e := range check {
		if e != nil {
			return e
		}
	}
	if e := s.checkRanges(); e != nil {
		return e
	}
	tick := s.Tick
	switch {
	case s.Duration < tick:
		return bad("duration", "must be at least one tick (%v), got %v", tick, s.Duration)
	case s.Duration/tick > 1e8:
		return bad("duration", "%v of %v ticks is more than 100,000,000 ticks", s.Duration, tick)
	case (s.Arrivals == "closed" || s.Arrivals == "burst") && s.Clients == 0:
		return bad("clients", "%s arrivals need clients ≥ 1", s.Arrivals)
	case s.Deadline/tick > 2e9:
		return bad("deadline", "%v is more than 2,000,000,000 ticks of %v; a deadline that long is none (0)", s.Deadline, tick)
	case len(s.Layer) == 0:
		return bad("layer", "at least one layer is needed")
	}
	for i, l := range s.Layer {
		p := indexed("layer", i)
		switch h := l.Hedge; {
		case l.Backoff.JitterStep > 0 && l.Backoff.Jitter == "none":
			return bad(p+"backoff.jitter_step", "steps a jittered wait; this backoff has jitter = \"none\"")
		case h.Percentile > 0 && h.Delay == 0:
			return bad(p+"hedge.delay", "percentile hedging needs a delay too: the one used until answers have been seen")
		case h.Delay > 0 && h.MaxShare == 0:
			return bad(p+"hedge.max_share", "hedging needs a cap: max_share > 0 (e.g. 0.02)")
		case h.Delay > 0 && i < len(s.Layer)-1 && s.Layers == 0:
			return bad(p+"hedge.delay", "hedging is modelled on the calls to the dependency: set it on the bottom layer")
		}
	}
	for i, pt := range s.Shape {
		if i > 0 && pt.At <= s.Shape[i-1].At {
			return bad(indexed("shape", i)+"at", "the points' times must rise from 0, got %v after %v", pt.At, s.Shape[i-1].At)
		}
	}
	if s.FlatAttempts() > 1_000_000 {
		return bad("layer", "the chain allows %d attempts per request; more than 1,000,000 is not simulated", s.FlatAttempts())
	}
	// Every count must stay exact: the calls a run can make, requests ×
	// attempts, below 2^53 (and far below an int64's limit).
	switch i := s.Initial; {
	case float64(i.Backlog)*float64(s.FlatAttempts()) > MaxCalls:
		return bad("initial.backlog", "times the %d attempts a request may make, must be at most %.3g, got %d", s.FlatAttempts(), float64(MaxCalls), i.Backlog)
	case s.mostCalls() > MaxCalls:
		return bad("load", "%v requests/s (%v at the highest spike or point of the shape) over %v with %d attempts each could make %.3g calls, more than the %.3g whose counts stay exact; shorten the run, lower the load or the attempts",
			s.Load, s.peakRate(), s.Duration, s.FlatAttempts(), s.mostCalls(), float64(MaxCalls))
	case i.Abandoned > 0 && s.Dependency.Queue == "none" && !(s.Dependency.Capacity == 0 && s.Dependency.LatencySlope > 0):
		return bad("initial.abandoned", "a loss server (queue = \"none\") holds no calls")
	}
	if e := s.Budget.validate(); e != nil {
		return e
	}
	return s.validateChanges()
}

func (b Budget) validate() *FieldError {
	if k, ok := lookupBudget(b.Kind); ok && k.check != nil {
		return k.check(b)
	}
	return nil
}

// Check validates sc and that its engine models everything it asks for.
func Check(sc *Scenario) error {
	_, err := sc.Resolve()
	return err
}
