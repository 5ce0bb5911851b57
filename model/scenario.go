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
// description; the loader, the key reference and the reports read them.
// Every numeric key has a range and unit, declared beside its kind (the
// bounds method of its table, or of its budget kind) and checked by
// Validate.
type Scenario struct {
	Engine     string     `toml:"engine" oneof:"queue,stochastic,markov" doc:"engine: queue (deterministic cohorts), stochastic (seeded, request level) or markov (the server with retries as a Markov chain, solved rather than simulated)"`
	Tick       Duration   `toml:"tick" doc:"length of one simulation step"`
	Duration   Duration   `toml:"duration" doc:"simulated time"`
	Load       float64    `toml:"load" doc:"new user requests per second (open loop)"`
	Arrivals   string     `toml:"arrivals" doc:"constant, poisson (open loop), closed (clients with one request outstanding) or burst (clients requests at once at the start, none after)"`
	Shape      []Point    `toml:"shape" engines:"queue,stochastic" doc:"open loop: the load over time, a list of { at, load } points joined by straight lines (a ramp is two), flat before the first and after the last; replaces load"`
	Clients    int        `toml:"clients" doc:"closed loop: number of clients; open loop: callers the load is split over (0 = 1)"`
	Think      Duration   `toml:"think" doc:"closed loop: pause between a client's requests"`
	Layers     int        `toml:"layers" doc:"depth of the caller chain; the last [[scenario.layer]] repeats to fill it (0 = as many as written)"`
	Layer      []Layer    `toml:"layer" doc:"the callers, top (edge) first"`
	Chain      string     `toml:"chain" oneof:",nested,flat" doc:"nested (each layer's retry is a new call down the chain) or flat (one caller with the product of the attempts); empty = the engine's own (queue: flat, stochastic: nested)"`
	RetryAt    string     `toml:"retry_at" oneof:",every,edge,bottom" doc:"every (each layer retries as its attempts say), edge or bottom (only that layer retries; the others make one try and pass failures up)"`
	Deadline   Duration   `toml:"deadline" engines:"stochastic" doc:"the edge's deadline for a request, passed down the chain: every try waits at most min(the time left, its own timeout), and no try starts without time left (0 = none)"`
	Budget     Budget     `toml:"budget" doc:"retry budget"`
	Dependency Dependency `toml:"dependency" doc:"the dependency at the bottom of the chain"`
	Fault      []Fault    `toml:"fault" doc:"faults, each over a window"`
	Health     Health     `toml:"health" doc:"what counts as healthy"`
	Initial    Initial    `toml:"initial" doc:"the state the run starts in"`
	Change     []Change   `toml:"change" engines:"queue,stochastic" doc:"interventions: keys that take new values at a moment of the run"`
	RNG        string     `toml:"rng" oneof:"pcg,minstd" doc:"random generator: pcg (default) or minstd (Park-Miller 48271 with Knuth's Poisson sampler)"`
	Replicates int        `toml:"replicates" doc:"seeded runs per cell; results report their mean and spread"`
	Markov     MarkovKeys `toml:"markov" doc:"the markov engine's chain"`
	Graph      Graph      `toml:"graph" engines:"stochastic" doc:"a service graph instead of the chain: services, each with its own server or none, and the calls between them (graph.go); replaces layer, layers and dependency; budget.scope may then be edge (each edge its own budget), caller (one per service, for the calls it makes) or callee (one per service, for the calls made to it)"`

	// CancelAbandoned propagates a caller's give-up down the chain (stochastic engine).
	CancelAbandoned bool `toml:"cancel_abandoned" engines:"stochastic" doc:"a caller that gives up on a call cancels everything below it (retries stop, calls still waiting at the dependency are withdrawn); false = the abandoned subtree keeps running"`

	// MeasureLatency asks for the quantiles of user requests' latency
	// (stochastic engine); a run without it pays nothing for them.
	MeasureLatency bool `toml:"measure_latency" engines:"stochastic" doc:"measure each user request's latency, from its arrival to its answer, in whole ticks: the latency_p50_s, latency_p95_s and latency_p99_s columns (successes) and error_latency_p50_s and error_latency_p99_s (errors)"`
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
	Backlog   int64 `toml:"backlog" engines:"queue,stochastic" doc:"requests already sent when the run starts: all sent in its first tick, before that tick's arrivals, so their calls wait at the dependency from the start, their callers' timers running"`
	Abandoned int64 `toml:"abandoned" engines:"queue,stochastic" doc:"calls waiting at the dependency when the run starts whose callers have given up: work nobody waits for (dropped at once with drop_expired)"`
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
	Limiter  Limiter  `toml:"limiter" doc:"client-side concurrency limit on the layer's tries: a bulkhead or an adaptive limit"`
	// From and To make the layer an edge of a service graph (graph.go).
	From string `toml:"from" doc:"graph edges only: the service that makes the call (empty: the users, an entry point)"`
	To   string `toml:"to" doc:"graph edges only: the service called"`
}

func (l *Layer) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"attempts", "", Range{1, 1000, ""}, &l.Attempts}, Bound{"timeout", "", span(0, LongestWait), &l.Timeout})
}

// Hedge sends a second copy of a call that has no answer after a delay;
// the first success wins and the other copy is cancelled.
type Hedge struct {
	Delay      Duration `toml:"delay" engines:"stochastic" doc:"bottom layer: send a hedge when a call has no answer after this long (0 = no hedging)"`
	Percentile float64  `toml:"percentile" doc:"instead of delay, once answers have been seen: the latency percentile of the layer's successes (e.g. 95), delay until then"`
	MaxShare   float64  `toml:"max_share" doc:"hedges at most this share of the layer's tries over the last 10 s (Finagle's backup-request budget); each is also charged to the retry budget as a retry"`
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
	// JitterStep trades exactness for speed: see "Jitter steps" in doc.go.
	JitterStep Duration `toml:"jitter_step" doc:"an approximation for speed: a jittered wait is drawn in steps of this length and taken at the step's middle, so retries stay grouped (0 = exact, to the tick)"`
}

// Dependency is the service at the bottom of the chain.
type Dependency struct {
	Capacity           float64   `toml:"capacity" doc:"calls served per second"`
	Queue              string    `toml:"queue" doc:"waiting room: fifo, lifo or none (a loss server: calls beyond the tick's capacity fail at once)"`
	QueueLimit         int       `toml:"queue_limit" doc:"calls that may wait; more are rejected at once (0 = unbounded)"`
	DropExpired        bool      `toml:"drop_expired" engines:"queue,stochastic" doc:"discard waiting calls whose caller gave up instead of serving them"`
	FailureProbability float64   `toml:"failure_probability" engines:"stochastic" doc:"chance that a served call fails anyway"`
	FlakyShare         float64   `toml:"flaky_share" engines:"stochastic" doc:"share of requests whose first flaky_failures tries at the dependency fail at once, whatever its load (a transient error that a retry clears)"`
	FlakyFailures      int       `toml:"flaky_failures" engines:"stochastic" doc:"tries that fail for a flaky request"`
	FatalShare         float64   `toml:"fatal_share" engines:"stochastic" doc:"share of the dependency's error answers that no caller retries (like a 4xx)"`
	Pushback           int       `toml:"pushback" engines:"stochastic" doc:"with more calls than this waiting, the dependency answers arriving calls at once with \"overloaded, don't retry\", which no caller retries (0 = never)"`
	Latency            Duration  `toml:"latency" engines:"stochastic" doc:"service time of one call (0 = answered within the tick)"`
	LatencySlope       Duration  `toml:"latency_slope" engines:"stochastic" doc:"with capacity = 0: latency grows by this per call in flight (congestive-collapse server)"`
	Workers            int       `toml:"workers" engines:"stochastic" doc:"with capacity = 0: a worker pool of this many workers, each call holding one for its service time; the waiting room in front is queue's (none: calls finding every worker busy fail at once) (0 = no pool)"`
	Service            Service   `toml:"service" doc:"the law of a call's service time: how long a worker pool's worker holds it, or how long after a capacity server serves it its answer comes"`
	Admission          Admission `toml:"admission" doc:"the waiting room's admission rule: which waiting calls are shed instead of served, and in which order the room serves"`
	Collapse           Collapse  `toml:"collapse" doc:"useful throughput lost to overload"`
	Network            Network   `toml:"network" doc:"delay between layers"`
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
		Bound{"workers", "", Range{0, MaxWorkers, "workers"}, &d.Workers},
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
	Slope  float64  `toml:"slope" engines:"queue,stochastic" doc:"throughput lost per unit of overload (0 = no collapse)"`
	Floor  float64  `toml:"floor" doc:"share of capacity kept however deep the overload"`
	Window Duration `toml:"window" engines:"stochastic" doc:"span demand is measured over (0 = one tick)"`
	Demand string   `toml:"demand" oneof:",queue,offered" doc:"queue (calls waiting, arrivals of the tick included) or offered (calls that arrived during the window before the tick, retries and calls that will expire included); empty = queue, offered for a loss server"`
}

// Network is the delay a call spends between two layers, each way.
type Network struct {
	Kind  string   `toml:"kind" doc:"none, constant or exponential"`
	Delay Duration `toml:"delay" doc:"the delay, or its mean"`
}

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
		Engine:     "queue",
		Tick:       Duration(time.Second),
		Duration:   Duration(time.Hour),
		Load:       70,
		Arrivals:   "constant",
		RetryAt:    "every",
		Layer:      []Layer{DefaultLayer()},
		Budget:     Budget{Kind: "none", Scope: "chain"},
		Dependency: Dependency{Capacity: 100, Queue: "fifo", Network: Network{Kind: "none"}, Service: Service{Kind: "constant"}, Admission: Admission{Kind: "none"}},
		Health:     Health{Goodput: 0.95, Window: Duration(time.Second)},
		RNG:        "pcg",
		Replicates: 1,
	}
}

// DefaultLayer is what a [[scenario.layer]] entry holds before its keys apply.
func DefaultLayer() Layer {
	return Layer{Attempts: 1, Timeout: Duration(time.Second), Backoff: Backoff{Kind: "none", Factor: 2, Jitter: "none"},
		Breaker: Breaker{Kind: "none", Open: Duration(30 * time.Second), Probes: 1, Placement: "inside_retry"},
		Hedge:   Hedge{MaxShare: 0.02},
		Limiter: Limiter{Kind: "none", Scope: "client", Full: "reject", QueueTimeout: Duration(time.Second)}}
}

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
// when every call fails: the product of the layers' attempts (a graph's:
// their sum over its servers, Graph.attempts).
func (s *Scenario) FlatAttempts() int {
	if s.Graph.on() {
		if sh, e := s.Graph.shape(); e == nil {
			return s.Graph.attempts(sh)
		}
	}
	p := 1
	for i := range s.chainLen() {
		p *= s.chainLayer(i).Attempts
		if p > math.MaxInt32 {
			return math.MaxInt32
		}
	}
	return p
}

// attemptsWords is the attempts the chain allows a request, as the layers'
// attempts multiply ("6^16 ≈ 2.8e+12 attempts per request (6 on each of
// 16 layers)", "3 × 4 × 5 = 60 attempts per request"), where FlatAttempts
// stops counting at 2^31.
func (s *Scenario) attemptsWords() string {
	n := s.chainLen()
	f, same := 1.0, true
	parts := make([]string, n)
	for i := range n {
		a := s.chainLayer(i).Attempts
		f *= float64(a)
		parts[i] = strconv.Itoa(a)
		same = same && a == s.chainLayer(0).Attempts
	}
	total := strconv.FormatFloat(f, 'f', 0, 64)
	if f > 1e9 {
		total = "≈ " + strconv.FormatFloat(f, 'g', 2, 64)
	} else {
		total = "= " + total
	}
	if same && n > 1 {
		return fmt.Sprintf("%s^%d %s attempts per request (%s on each of %d layers)", parts[0], n, total, parts[0], n)
	}
	return strings.Join(parts, " × ") + " " + total + " attempts per request"
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
	// MaxWorkers is the largest worker pool.
	MaxWorkers = 1e6
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
		checkKind("arrivals", s.Arrivals, arrivalKinds()),
		budgetTable().checkKind("budget", s.Budget.Kind),
		serviceTable().checkKind("dependency.service", s.Dependency.Service.Kind),
		admissionTable().checkKind("dependency.admission", s.Dependency.Admission.Kind),
		checkKind("dependency.queue", s.Dependency.Queue, queueNames()),
		checkKind("dependency.network.kind", s.Dependency.Network.Kind, networkKinds()),
	}
	if s.Health.Rule != "" {
		check = append(check, checkKind("health.rule", s.Health.Rule, healthRules()))
	}
	for i, l := range s.Layer {
		p := indexed("layer", i)
		check = append(check, checkKind(p+"backoff.kind", l.Backoff.Kind, backoffKinds()),
			checkKind(p+"backoff.jitter", l.Backoff.Jitter, jitterKinds()),
			breakerTable().check(p+"breaker", l.Breaker.Kind, l.Breaker.Params))
	}
	for i, f := range s.Fault {
		check = append(check, checkKind(indexed("fault", i)+"kind", f.Kind, faultKinds()))
		if f.Service != "" && !s.Graph.on() {
			check = append(check, bad(indexed("fault", i)+"service", "names a service of a graph; this scenario has none (its fault hits the dependency)"))
		}
	}
	for _, e := range check {
		if e != nil {
			return e
		}
	}
	choice, outside := s.checkTables()
	if choice != nil {
		return choice
	}
	if e := s.modelled(s.Engine); e != nil {
		return e
	}
	if outside != nil {
		return outside
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
		if e := limiterTable().check(p+"limiter", l.Limiter.Kind, l.Limiter.Params); e != nil {
			return e
		}
		switch h := l.Hedge; {
		case l.From != "" || l.To != "":
			return bad(p+"from", "from and to are a graph edge's keys (graph.edge), not a layer's")
		case l.Backoff.JitterStep > 0 && l.Backoff.Jitter == "none":
			return bad(p+"backoff.jitter_step", "steps a jittered wait; this backoff has jitter = \"none\"")
		case h.Percentile > 0 && h.Delay == 0:
			return bad(p+"hedge.delay", "percentile hedging needs a delay too: the one used until answers have been seen")
		case h.Delay > 0 && h.MaxShare == 0:
			return bad(p+"hedge.max_share", "hedging needs a cap: max_share > 0 (e.g. 0.02)")
		case h.Delay > 0 && i < len(s.Layer)-1 && s.Layers == 0:
			return bad(p+"hedge.delay", "hedging is modelled on the calls to the dependency: set it on the bottom layer")
		case h.Delay > 0 && l.Limiter.on():
			return bad(p+"limiter.kind", "a concurrency limit on a layer that hedges is not modelled: set it on another layer, or hedge.delay = 0")
		case i == 0 && l.Limiter.on() && s.ChainMode() == "flat" && s.chainLayer(s.chainLen()-1).Hedge.Delay > 0:
			return bad(p+"limiter.kind", "a flat chain is one caller, which hedges as the bottom layer says: a concurrency limit on it is not modelled with hedging")
		}
	}
	for i, pt := range s.Shape {
		if i > 0 && pt.At <= s.Shape[i-1].At {
			return bad(indexed("shape", i)+"at", "the points' times must rise from 0, got %v after %v", pt.At, s.Shape[i-1].At)
		}
	}
	if s.FlatAttempts() > 1_000_000 {
		return bad("layer", "the chain allows %s; more than 1,000,000 is not simulated", s.attemptsWords())
	}
	// Every count must stay exact: the calls a run can make, requests ×
	// attempts, below 2^53 (and far below an int64's limit).
	switch i := s.Initial; {
	case float64(i.Backlog)*float64(s.FlatAttempts()) > MaxCalls:
		return bad("initial.backlog", "times the %d attempts a request may make, must be at most %.3g, got %d", s.FlatAttempts(), float64(MaxCalls), i.Backlog)
	case s.mostCalls() > MaxCalls:
		return bad("load", "%v requests/s (%v at the highest spike or point of the shape) over %v with %d attempts each could make %.3g calls, more than the %.3g whose counts stay exact; shorten the run, lower the load or the attempts",
			s.Load, s.peakRate(), s.Duration, s.FlatAttempts(), s.mostCalls(), float64(MaxCalls))
	case i.Abandoned > 0 && s.Dependency.Queue == "none" && !s.Dependency.latencyPicked():
		return bad("initial.abandoned", "a loss server (queue = \"none\") holds no calls")
	}
	if e := budgetTable().checkParams("budget", s.Budget.Kind, s.Budget.Params); e != nil {
		return e
	}
	if e := serviceTable().checkParams("dependency.service", s.Dependency.Service.Kind, s.Dependency.Service.Params); e != nil {
		return e
	}
	if e := admissionTable().checkParams("dependency.admission", s.Dependency.Admission.Kind, s.Dependency.Admission.Params); e != nil {
		return e
	}
	return s.validateChanges()
}

// Check validates sc and that its engine models everything it asks for.
func Check(sc *Scenario) error {
	_, err := sc.Resolve()
	return err
}
