package model

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// Resolve validates the scenario, checks that its engine models everything
// it asks for, and returns the Plan the engines run. The error is a
// *FieldError naming the key.
func (s *Scenario) Resolve() (*Plan, error) {
	if s.Graph.on() {
		return s.resolveGraph()
	}
	return s.resolve()
}

// resolve is Resolve for a chain, or a graph lowered to the chain of its
// unfolded calls (resolveGraph).
func (s *Scenario) resolve() (*Plan, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var err error
	switch s.Engine {
	case "queue":
		err = queueSupports(s)
	case "stochastic":
		err = stochasticSupports(s)
	case "markov":
		err = markovSupports(s)
	}
	if err != nil {
		return nil, err
	}
	p := &Plan{
		Clock:      Clock{TickNs: int64(s.Tick), TickS: s.Tick.Seconds(), TPS: 1e9 / float64(s.Tick), Tick: s.Tick, Run: s.Duration},
		Replicates: s.Replicates,
		RNGPlan:    RNGPlan{Minstd: s.RNG == "minstd", Single: s.RNG == "minstd"},
		Latencies:  s.MeasureLatency,
		mostCalls:  s.mostCalls(),
	}
	p.Ticks = int64(s.Duration) / p.TickNs
	switch s.Engine {
	case "stochastic":
		p.Engine = EngineStochastic
	case "markov":
		p.Engine = EngineMarkov
		p.resolveMarkov(s)
	}
	p.resolveChain(s)
	p.resolveArrivals(s)
	p.resolveServer(s)
	p.Budget = BudgetPlan{Kind: s.Budget.Kind, Params: s.Budget.TableParams(), TickNs: p.TickNs}
	switch s.Budget.Scope {
	case "layer", "edge", "caller", "callee": // a chain's edges, callers and callees are its layers
		p.Budget.Scope = ScopeLayer
	case "client":
		p.Budget.Scope = ScopeClient
	case "dependency":
		p.Budget.Scope = ScopeDependency
	}
	p.resolveFaults(s)
	p.resolveHealth(s)
	p.Notes = p.warnings(s)
	if err := p.resolveChanges(s); err != nil {
		return nil, err
	}
	return p, nil
}

// resolveChain resolves the chain of callers: its effective layers, what a
// request may put on the dependency, what the user at the edge waits.
func (p *Plan) resolveChain(s *Scenario) {
	layers := s.ChainLayers()
	p.Allowed = s.FlatAttempts()
	p.Written = p.Allowed
	p.EdgeTimeout = layers[0].Timeout
	p.Cancel = s.CancelAbandoned
	for _, l := range s.Layer {
		p.Names = append(p.Names, l.Name)
	}
	retrying := func(i int) bool { // retry_at: the layer that retries
		switch s.RetryAt {
		case "edge":
			return i == 0
		case "bottom":
			return i == len(layers)-1
		}
		return true
	}
	for i := range layers {
		if !retrying(i) {
			layers[i].Attempts = 1
		}
	}
	if s.RetryAt == "edge" || s.RetryAt == "bottom" {
		p.Allowed = 1
		for _, l := range layers {
			p.Allowed *= l.Attempts
		}
	}
	if s.ChainMode() == "flat" {
		p.Flat = true
		p.Chain = []LayerPlan{p.layer(p.Allowed, layers[len(layers)-1].Timeout, layers[0].Backoff, layers[0].Breaker, layers[len(layers)-1].Hedge)}
		p.Chain[0].Limiter = layers[0].Limiter.plan(p.TickNs)
	} else {
		for _, l := range layers {
			p.Chain = append(p.Chain, p.layer(l.Attempts, l.Timeout, l.Backoff, l.Breaker, l.Hedge))
			p.Chain[len(p.Chain)-1].Limiter = l.Limiter.plan(p.TickNs)
		}
	}
	for _, l := range p.Chain {
		p.Breakers = p.Breakers || l.Breaker.Kind != BreakerNone
	}
	p.Deadline = -1
	if s.Deadline > 0 {
		p.Deadline = max(1, p.ticksOf(s.Deadline))
	}
}

// resolveArrivals resolves how requests arrive.
func (p *Plan) resolveArrivals(s *Scenario) {
	switch s.Arrivals {
	case "poisson":
		p.Arrivals = ArrivePoisson
	case "closed":
		p.Arrivals = ArriveClosed
	case "burst":
		p.Arrivals = ArriveBurst
	}
	for _, pt := range s.Shape {
		p.Shape = append(p.Shape, ShapePoint{At: p.ticksOf(pt.At), Load: pt.Load})
	}
	p.Load = s.Load
	p.Clients = int32(max(1, s.Clients))
	p.ThinkTicks = max(1, p.ticksOf(s.Think))
	p.ThinkSpan = p.ticksOf(s.Think)
	p.Backlog, p.Abandoned = s.Initial.Backlog, s.Initial.Abandoned
}

// resolveServer resolves the dependency: its kind from the registry's rule
// (the latency server where capacity = 0 with latency_slope > 0, else
// dependency.queue's), its capacity and waiting room, its failures, its
// latency, its collapse and the network before it.
func (p *Plan) resolveServer(s *Scenario) {
	d := s.Dependency
	name := d.serverName()
	for _, k := range serverKinds() {
		if k.Name == name {
			p.Server = k.server
		}
	}
	p.Capacity = d.Capacity
	p.Service = d.Service.law(d.Latency.Seconds())
	p.ServiceKind, p.AdmissionKind = cmp.Or(d.Service.Kind, "constant"), cmp.Or(d.Admission.Kind, "none")
	p.Admission = d.Admission.admitter(p.TickNs)
	if d.poolPicked() {
		for _, k := range serverKinds() {
			if k.Name == d.Queue {
				p.PoolRoom = k.server
			}
		}
		p.Workers = int64(d.Workers)
		// the pool's capacity: its workers' rate at the law's mean, which
		// the queue health rule and the faults' capacities are measured in
		p.Capacity = float64(d.Workers) / p.Service.mean()
	}
	p.QueueLimit = int64(d.QueueLimit)
	p.DropExpired = d.DropExpired || s.CancelAbandoned
	p.FailureP = d.FailureProbability
	p.FlakyShare, p.FlakyTries = d.FlakyShare, int32(d.FlakyFailures)
	p.FatalShare = d.FatalShare
	p.Pushback = int64(d.Pushback)
	p.Latency = d.Latency.Seconds()
	p.Slope = d.LatencySlope.Seconds()
	p.Collapse = CollapsePlan{Slope: d.Collapse.Slope, Floor: d.Collapse.Floor, WindowS: d.Collapse.Window.Seconds()}
	if p.Collapse.WindowS <= 0 {
		p.Collapse.WindowS = p.TickS
	}
	// A window longer than the run counts every call offered so far,
	// as one as long as the run does.
	p.Collapse.WindowTicks = min(max(1, p.ticksOf(Seconds(p.Collapse.WindowS))), p.Ticks+1)
	p.Collapse.Offered = d.Collapse.Demand == "offered" || (d.Collapse.Demand == "" && p.Server == ServerLoss)
	if d.Network.Delay > 0 {
		switch d.Network.Kind {
		case "constant":
			p.Network = NetworkPlan{Kind: NetworkConstant, Delay: float64(d.Network.Delay) / float64(p.TickNs)}
		case "exponential":
			p.Network = NetworkPlan{Kind: NetworkExponential, Delay: float64(d.Network.Delay) / float64(p.TickNs)}
		}
	}
}

// layer resolves one caller of the chain.
func (p *Plan) layer(attempts int, timeout Duration, b Backoff, br Breaker, hedge Hedge) LayerPlan {
	l := LayerPlan{Attempts: int32(attempts), Timeout: -1}
	if h := hedge; h.Delay > 0 {
		l.Hedge = HedgePlan{Delay: max(1, p.ticksOf(h.Delay)), Percentile: h.Percentile, MaxShare: h.MaxShare}
	}
	l.Breaker = br.plan(p.ticksOf)
	if timeout > 0 {
		l.Timeout = p.ticksOf(timeout)
	}
	l.Backoff = BackoffPlan{Base: float64(b.Base) / float64(p.TickNs), Factor: b.Factor, Cap: float64(b.Cap) / float64(p.TickNs),
		Step: p.ticksOf(b.JitterStep)}
	switch b.Kind {
	case "constant":
		l.Backoff.Kind = BackoffConstant
	case "exponential":
		l.Backoff.Kind = BackoffExponential
	}
	switch b.Jitter {
	case "full":
		l.Backoff.Jitter = JitterFull
	case "equal":
		l.Backoff.Jitter = JitterEqual
	case "decorrelated":
		l.Backoff.Jitter = JitterDecorrelated
	}
	return l
}

// resolveHealth picks the health rule and its threshold. The default is the
// queue rule for a dependency with a waiting room (a worker pool's included)
// and a user who gives up, the goodput rule otherwise.
func (p *Plan) resolveHealth(s *Scenario) {
	h := HealthPlan{Goodput: s.Health.Goodput, WindowTicks: max(1, int64(s.Health.Window)/p.TickNs), Limit: math.NaN()}
	if p.Capacity > 0 && p.EdgeTimeout > 0 {
		h.Limit = p.healthLimit(len(p.Chain))
	}
	switch s.Health.Rule {
	case "queue":
		h.Rule = HealthQueue
	case "goodput":
		h.Rule = HealthGoodput
	default:
		h.Rule = HealthGoodput
		waits := p.Server.Queues() || p.Server == ServerPool && p.PoolRoom.Queues()
		if waits && !math.IsNaN(h.Limit) {
			h.Rule = HealthQueue
		}
	}
	if h.Rule == HealthQueue && math.IsNaN(h.Limit) {
		h.Limit = 0 // the rule was asked for; a user who waits forever sees no healthy backlog
	}
	p.Health = h
}

// healthLimit is the backlog the dependency serves between a call's
// arrival and the user's deadline: its capacity times the edge timeout
// less the latency of serving it and the network's way down and back
// over hops calls (a chain's layers; in a graph, the calls on the path to
// the server whose capacity counts: resolveGraph).
func (p *Plan) healthLimit(hops int) float64 {
	rtt := 0.0
	if p.Network.Kind != NetworkNone {
		rtt = 2 * float64(hops) * p.Network.Delay * p.TickS
	}
	return p.Capacity * math.Max(0, p.EdgeTimeout.Seconds()-p.Latency-rtt)
}

// resolveFaults cuts the run into segments of constant fault effects and
// notes the fault window. A tick t is inside a fault when start ≤ t × tick <
// start + length.
func (p *Plan) resolveFaults(s *Scenario) {
	for _, f := range s.Fault {
		p.FaultList = append(p.FaultList, FaultSpec{Kind: f.Kind, Start: f.Start, Length: f.Length, Capacity: f.Capacity, Factor: f.Factor})
	}
	if start, end, ok := s.FaultWindow(); ok {
		p.Fault = FaultWindow{Has: true, From: int64(start) / p.TickNs, To: int64(end) / p.TickNs, Start: start, End: end}
	}
	cuts := []int64{0, p.Ticks}
	ceilT := func(d Duration) int64 { return (int64(d) + p.TickNs - 1) / p.TickNs }
	known := s.knownFaults(p.TickNs, 0)
	for _, f := range known {
		if f.Length <= 0 {
			continue
		}
		cuts = append(cuts, min(p.Ticks, ceilT(f.Start)), min(p.Ticks, ceilT(f.Start+f.Length)))
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	tps := 1e9 / float64(p.TickNs)
	for i := 0; i+1 < len(cuts); i++ {
		if cuts[i] >= cuts[i+1] {
			continue
		}
		sg := Segment{From: cuts[i], To: cuts[i+1], CapRate: p.Capacity, LatFactor: 1, ArrFactor: 1}
		now := Duration(cuts[i] * p.TickNs)
		outage := false
		for _, f := range known {
			if now < f.Start || now >= f.Start+f.Length {
				continue
			}
			switch f.Kind {
			case "outage":
				sg.CapRate = 0
				outage = true
				if h := f.halt(); h == HaltFail || sg.Halt == HaltFinish {
					sg.Halt = h
				}
			case "degradation":
				sg.CapRate = math.Min(sg.CapRate, f.Capacity)
			case "slowdown":
				sg.CapRate /= f.Factor
				sg.LatFactor *= f.Factor
			case "spike":
				sg.ArrFactor *= f.Factor
			}
		}
		if outage {
			sg.HoldUntil = -1
		}
		sg.PerTick = -1
		if c := sg.CapRate / tps; c == math.Floor(c) && c < 1<<53 {
			sg.PerTick = int64(c)
		}
		p.Faults = append(p.Faults, sg)
	}
	// The latency server holds answers until the outage covering a segment ends.
	for i := len(p.Faults) - 1; i >= 0; i-- {
		if p.Faults[i].HoldUntil == -1 {
			p.Faults[i].HoldUntil = p.Faults[i].To
			if i+1 < len(p.Faults) && p.Faults[i+1].HoldUntil > 0 {
				p.Faults[i].HoldUntil = p.Faults[i+1].HoldUntil
			}
		}
	}
}

// MaxTickRing is the most ticks a list kept per tick may span: the queue
// engine's rows of calls that can still time out and lists of retries due,
// the ticks a collapse counts the calls offered over. Each is allocated
// whole when the run starts; this keeps one within about 100 MB (a
// timeout of 1 h at 1 ms ticks is 3,600,000 of them).
const MaxTickRing = 1 << 22

// tickRing refuses a span at path that a run would keep ticks, a list per
// tick of it, beyond MaxTickRing.
func tickRing(path string, ticks int64, d Duration, tick Duration, what string) error {
	if ticks > MaxTickRing {
		return bad(path, "%v is %d ticks of %v, more than the %d a run keeps %s for; use a coarser tick", d, ticks, tick, MaxTickRing, what)
	}
	return nil
}

// queueSupports reports the scenario settings the queue engine cannot honour,
// so nothing is silently ignored.
func queueSupports(s *Scenario) error {
	tick := time.Duration(s.Tick)
	layers := s.ChainLayers()
	timeout := time.Duration(layers[len(layers)-1].Timeout)
	multiple := func(path string, d Duration) error {
		if time.Duration(d)%tick != 0 {
			return bad(path, "the queue engine needs a whole number of ticks (tick = %v), got %v", s.Tick, d)
		}
		return nil
	}
	switch {
	case s.ChainMode() != "flat":
		return bad("chain", "the queue engine runs the flat form only (set chain = \"flat\" or leave it empty)")
	case s.Clients > 1 && s.Arrivals != "burst":
		return bad("clients", "callers with their own state need engine = \"stochastic\"; the queue engine flattens them into one")
	case s.Budget.Kind != "none" && s.Budget.Scope != "chain" && s.Budget.Scope != "dependency":
		return bad("budget.scope", "the queue engine flattens the chain, so its budget is shared by the chain (scope = \"chain\")")
	case s.Dependency.Collapse.Demand == "offered":
		return bad("dependency.collapse.demand", "offered demand needs engine = \"stochastic\"; the queue engine measures the calls waiting")
	case s.Initial.Abandoned > 0 && timeout == 0:
		return bad("initial.abandoned", "the queue engine keeps abandoned calls only for callers that give up: set a timeout on the bottom layer")
	}
	bottom := indexed("layer", min(len(s.Layer), len(layers))-1)
	if timeout%tick != 0 {
		return bad(bottom+"timeout",
			"the queue engine needs a timeout that is a whole number of ticks (tick = %v), got %v", s.Tick, Duration(timeout))
	}
	runTicks := int64(s.Duration / s.Tick)
	if err := tickRing(bottom+"timeout", min(int64(timeout/tick), runTicks), Duration(timeout), s.Tick, "the queue engine's calls in (a row per tick they may wait)"); err != nil {
		return err
	}
	if b := layers[0].Backoff; b.Kind != "none" {
		longest := b.Base
		if b.Kind == "exponential" {
			longest = Seconds(b.Base.Seconds() * math.Pow(b.Factor, float64(s.FlatAttempts()-1)))
			if b.Cap > 0 {
				longest = min(longest, b.Cap)
			}
		}
		path := "layer.0.backoff.base"
		if b.Kind == "exponential" {
			path = "layer.0.backoff.cap"
		}
		if err := tickRing(path, min(int64(longest/s.Tick), runTicks), longest, s.Tick, "retries due in (a list per tick of the longest wait)"); err != nil {
			return err
		}
	}
	for i, l := range s.Layer {
		p := indexed("layer", i)
		if err := multiple(p+"backoff.base", l.Backoff.Base); err != nil {
			return err
		}
		if err := multiple(p+"backoff.cap", l.Backoff.Cap); err != nil {
			return err
		}
	}
	for i, f := range s.Fault {
		p := indexed("fault", i)
		if err := multiple(p+"start", f.Start); err != nil {
			return err
		}
		if err := multiple(p+"length", f.Length); err != nil {
			return err
		}
	}
	return nil
}

// poolSupports refuses the worker pool's keys where they would be ignored,
// and a pool without a service time.
func poolSupports(d Dependency) *FieldError {
	pool := d.poolPicked()
	switch {
	case d.Workers > 0 && !pool:
		return bad("dependency.workers", "a worker pool is picked by capacity = 0 (and latency_slope = 0); this dependency has a capacity of %v calls/s", d.Capacity)
	case d.latencyPicked() && d.Service.Kind != "" && d.Service.Kind != "constant":
		return bad("dependency.service.kind", "the latency server (capacity = 0, latency_slope > 0) takes latency + latency_slope × the calls in flight; a service-time law needs a capacity server or a worker pool")
	case pool && d.Collapse.Slope > 0:
		return bad("dependency.collapse.slope", "a worker pool's throughput is its workers'; collapse needs a capacity server")
	case pool && !(d.Service.law(d.Latency.Seconds()).mean() > 0):
		return bad("dependency.latency", "a worker pool needs a service time with a positive mean: set latency (the constant and exponential laws' mean) or another law")
	}
	return nil
}

// haltSupports refuses in_service on a fault other than an outage, and an
// outage's in_service but at a worker pool, the only dependency with calls
// on workers.
func haltSupports(s *Scenario) *FieldError {
	for i, f := range s.Fault {
		if f.InService != "" && f.Kind != "outage" {
			return bad(indexed("fault", i)+"in_service", "is an outage's: what becomes of the calls on a worker pool's workers when it starts; a %s has none", f.Kind)
		}
		if f.InService != "" && f.InService != "finish" && !s.Dependency.poolPicked() {
			return bad(indexed("fault", i)+"in_service", "%q acts on the calls on a worker pool's workers; this dependency is %q (a pool is picked by capacity = 0 with workers > 0)", f.InService, s.Dependency.serverName())
		}
	}
	return nil
}

// stochasticSupports reports scenario settings the stochastic engine cannot
// honour, so nothing is silently ignored.
func stochasticSupports(s *Scenario) error {
	d := s.Dependency
	latencyServer := d.latencyPicked()
	if len(s.Shape) > 0 && (s.Arrivals == "closed" || s.Arrivals == "burst") {
		return bad("shape", "a load shape sets an open loop's rate; %s arrivals have none", s.Arrivals)
	}
	for i, f := range s.Fault {
		p := indexed("fault", i)
		switch {
		case f.Kind == "spike" && (s.Arrivals == "closed" || s.Arrivals == "burst"):
			return bad(p+"kind", "a spike multiplies the open-loop arrival rate; a closed loop's rate is set by its clients")
		case f.Kind == "degradation" && latencyServer:
			return bad(p+"kind", "a degradation reduces a capacity; the latency server (capacity = 0, latency_slope > 0) has none: use a slowdown")
		}
	}
	switch {
	case latencyServer && d.QueueLimit > 0:
		return bad("dependency.queue_limit", "the latency server (capacity = 0, latency_slope > 0) has no waiting room")
	case d.Queue == "none" && !latencyServer && d.Collapse.Slope > 0 && d.Collapse.Demand == "queue":
		return bad("dependency.collapse.demand", "nothing waits at a loss server (queue = \"none\"); its demand is the calls offered")
	case latencyServer && d.Collapse.Slope > 0:
		return bad("dependency.collapse.slope", "the latency server (capacity = 0, latency_slope > 0) collapses through its latency; collapse needs a capacity")
	case latencyServer && s.Health.Rule == "queue":
		return bad("health.rule", "the queue rule needs a capacity; the latency server (capacity = 0, latency_slope > 0) is judged by goodput")
	case d.Queue == "none" && d.QueueLimit > 0 && !latencyServer:
		return bad("dependency.queue_limit", "a loss server (queue = \"none\") has no waiting room to limit")
	}
	if e := poolSupports(d); e != nil {
		return e
	}
	if e := haltSupports(s); e != nil {
		return e
	}
	if a := d.Admission; a.on() && (latencyServer || d.Queue == "none") {
		return bad("dependency.admission.kind", "%q acts on calls waiting; this dependency (%s) keeps none waiting", a.Kind, d.serverName())
	}
	if w := d.Collapse.Window; d.Collapse.Slope > 0 && (d.Collapse.Demand == "offered" || d.Collapse.Demand == "" && d.Queue == "none") {
		return tickRing("dependency.collapse.window", min(int64(w/s.Tick), int64(s.Duration/s.Tick)+1), w, s.Tick, "the calls offered in (a count per tick)")
	}
	return nil
}
