package model

import (
	"fmt"
	"math"
	"slices"
)

// The stochastic engine is seeded and works at the level of the calls
// themselves: an explicit chain of callers (each layer's retry is a new call
// down the chain), per-try timeouts, backoff with jitter, network delay,
// bursty or closed-loop arrivals, three kinds of dependency, budgets with
// their own state per client or layer, and cancellation.
//
// # Groups
//
// The unit of work is a try: n instances of one layer, all on the same
// attempt, started in the same tick on behalf of the same parent try (or of
// user requests). Instances of a try are exchangeable, so when some of them
// are served, fail or retry, the try is split by sampling — binomial for
// background failures, multinomial over whole-tick waits for jitter and for
// exponential network delay — which is exact in distribution. Deterministic
// timing keeps groups large: an hour of a 3×3×3 storm at 10,000 requests/s
// costs a few dozen groups per tick, not one object per call. Jitter makes
// requests distinguishable, and the cost then grows towards one group per
// request. Tries are recycled once nothing refers to them (pending events,
// queued calls, live children), so a long run allocates little.
//
// With rng = "minstd" every group holds one instance and calls are handled
// one at a time in the order below; the draws then follow the order of the
// "Retries and Storm Risk" article's loop, which is part of that generator's
// definition (see Minstd).
//
// When every call is answered in the tick it is sent — one caller, a loss
// server, no network delay, no latency — no try objects are needed: a
// pending retry is just its attempt, client and last wait. The engine then
// takes a shorter path through the same steps in the same order, with the
// same results (a test compares the two). With rng = "minstd", open-loop
// Poisson arrivals and no series it goes further: the whole run is one loop
// over ticks with its own compact state, the sequential loss loop of
// stochastic_seq.go (again with the same results, which a test checks).
//
// # A tick, in order
//
//  1. The tick's new requests are drawn (open loop: constant, or Poisson
//     split over the clients; rng = "minstd" draws Knuth's Poisson variate
//     every tick, even when it is zero). Per-tick budgets get their
//     allowance from them.
//  2. Events of the tick run in the order they were scheduled: retries whose
//     backoff ends now, calls reaching a lower layer or the dependency after
//     a network delay, answers arriving, closed-loop clients ending their
//     think time. Then the tick's new requests start, after the retries
//     (those were scheduled earlier). A try that starts counts as sent for
//     the budgets and passes its call down; with no network delay the call
//     reaches the layer below, and finally the dependency, in the same tick.
//     A loss server (queue = "none") answers each call as it comes: the first
//     calls of the tick, up to the tick's capacity, are served, the rest fail
//     at once; a served call fails anyway with failure_probability (drawn only
//     for served calls, and only when that probability is not zero). A server
//     with a waiting room queues the call (a full queue_limit rejects it at
//     once).
//  3. The dependency works: a queueing server serves up to the tick's
//     capacity, oldest first (fifo) or newest first (lifo), skipping calls
//     withdrawn by drop_expired or cancellation; the congestive latency server
//     completes the calls whose latency ends now.
//  4. Tries whose deadline is this tick and that still wait give up: the
//     caller retries (or fails when its attempts are used up) and, with
//     cancel_abandoned, cancels everything below the abandoned call.
//  5. Health is measured at the end of the tick.
//
// Ticks in which nothing can happen are jumped over: the calendar keeps a
// bitmap of busy ticks, and open-loop Poisson arrivals at under half a
// request per tick are placed by drawing the gap to the next tick with one.
// A sparse scenario at 1 ms ticks therefore costs about what it costs at
// 10 ms; a dense one pays for its groups, which finer ticks keep apart.
//
// # Answers, retries and budgets
//
// An answer — success or failure — travels back up the chain, taking the
// network delay at each hop. A try answered in time passes a success up to
// its parent; a failure makes the caller retry in tick f + 1 + wait, where f
// is the tick the failure was seen in and wait is the backoff rounded down to
// whole ticks ("no sooner than the next tick"): none = 0; constant = base;
// exponential = min(cap, base × factor^(attempt−1)); full jitter draws uniform
// in [0, wait); equal jitter uniform in [wait/2, wait); decorrelated draws
// min(cap, uniform in [base, 3 × previous wait)), the previous wait counted in
// whole ticks. Timeouts, think times and constant delays are rounded to the
// nearest tick; a try sent in tick s with a timeout of T ticks is answered in
// time up to tick s + T and given up at the end of it. A retry due at or after
// the end of the run is never sent: its request stays pending. A caller that
// gives up on a try stops waiting for it; the abandoned subtree keeps running
// below (its own retries included) unless cancel_abandoned is set, and an
// answer that arrives for it is ignored.
//
// Budgets are consulted per retry: ratio and token_bucket when the failure is
// seen (ratio: a retry is allowed while retries sent so far ≤ ratio × first
// tries sent so far, a try counting as sent when it starts; token_bucket: the
// bucket starts full at max_tokens, each success deposits ratio up to
// max_tokens, each retry takes one token, retries are refused below one
// token), per_tick when the retry is due (retries started in the tick ≤
// round(ratio × requests arriving in the tick)). Scope "chain" keeps one
// budget for every layer (first tries are the user requests, retries are any
// layer's, successes are the user's); "layer" one per layer (its own first
// tries, retries and successes); "client" one per client (like chain). A
// refused retry fails the instance at once, which its caller sees as a
// failed try.
//
// chain = "flat" runs one caller with FlatAttempts attempts, the top layer's
// backoff and the bottom layer's timeout: the form both the queue engine
// and the "Retries and Storm Risk" article use.
//
// Open loop with clients > 1: each new request belongs to a client drawn
// uniformly (constant arrivals: round robin), which matters only for budgets
// with scope "client". Closed loop: each of the clients sends its first
// request at a uniformly drawn tick within the first think time (all at tick
// 0 when think is under a tick), then, once a request is answered, thinks for
// think (at least one tick) and sends the next.
//
// # The dependency
//
// A capacity server (capacity > 0) serves capacity × tick calls per tick,
// fractions carried over, after the faults (outage: 0; degradation: at most
// the fault's capacity; slowdown: capacity ÷ factor and latency × factor).
// latency delays each served call's answer. Overload collapse multiplies the
// tick's capacity by max(floor, 1 − slope × (x − 1)) when x > 1, where x is
// demand / (capacity × window), window = collapse.window or one tick, and
// demand is, with collapse.demand = "queue" (the default for a waiting
// room), the calls waiting when the server works, arrivals of the tick
// included; with "offered" (the default, and only choice, for a loss server)
// the calls that arrived in the window before the tick — new, retried and
// doomed alike.
//
// With capacity = 0 and latency_slope > 0 the dependency is the congestive
// latency server: no capacity limit, each call takes latency + latency_slope
// × (calls in service, itself included), times a slowdown factor; during an
// outage it completes nothing, so calls in service and calls arriving are
// answered after the outage ends.
//
// # Measurements
//
// Calls are counted when they reach the dependency; PeakCalls per tick;
// PeakQueue is the most calls waiting at the end of a tick (for the latency
// server, calls in service); Served counts calls the dependency completed,
// and WastedServed those that, when served, nobody up the chain waited for
// any more (their caller, or a caller above it, had given up). Health at
// the end of each tick: the queue rule (calls waiting ≤ capacity × the
// bottom layer's timeout; the default with a waiting room and a timeout) or
// the goodput rule (over the last health.window, successes ≥ goodput ×
// requests; a closed loop's requests are those started). Recovered, RecoveryS,
// WindowCalls and the load ratios mean what they mean for the queue engine;
// the ratios use load, or for a closed loop without one, the rate at which
// its clients started requests before the first fault. Series rows are
// per-second bins like the queue engine's; Capacity is the fault-adjusted
// capacity before collapse.

// tryState is where a try is in its life.
type tryState uint8

const (
	tsScheduled tryState = iota // waiting for its start tick
	tsOpen                      // sent; some instances wait for an answer
	tsDone                      // every instance has its answer
	tsClosed                    // the caller gave up on the instances still waiting
	tsCancelled                 // an ancestor gave up and cancel_abandoned is set
	tsFree                      // recycled: nothing may refer to it
)

// try is a group of n instances of one layer on the same attempt, started in
// the same tick for the same parent try.
type try struct {
	parent   *try
	kids     []*try // with cancel_abandoned: tries started for this one
	n        int64  // instances sent
	waiting  int64  // instances with no answer yet
	queued   int64  // bottom layer: calls waiting at the dependency
	deadline int64
	attempt  int32
	client   int32
	prevWait int32 // decorrelated jitter: previous wait in ticks
	refs     int32 // pending events, queue entries and children pointing here, and a running start
	layer    int8
	state    tryState
	retry    bool // a retry somewhere on the way from the user request
}

// qEntry is calls of one try waiting at the dependency; tr is nil once the
// calls are abandoned and merged with their neighbours.
type qEntry struct {
	tr *try
	n  int64
}

type simLayer struct {
	attempts int32
	timeout  int64 // ticks; −1 = forever
	kind     string
	jitter   string
	base     float64 // ticks
	factor   float64
	cap      float64    // ticks; 0 = none
	waits    []waitDist // by failed attempt − 1 (all but decorrelated jitter)
}

// waitDist is the wait before a retry: floor(min(capT, uniform [lo, hi))) in
// ticks, or fixed ticks when hi ≤ lo.
type waitDist struct {
	lo, hi, capT float64
	fixed        int64
}

// segment is a stretch of ticks with the same fault effects.
type segment struct {
	from, to  int64
	capRate   float64 // calls per second
	perTick   int64   // capRate per tick when that is a whole number, else −1
	latFactor float64
	arrFactor float64
	holdUntil int64 // latency server: end of the outage covering this segment (0 = none)
}

type budgetState struct {
	firsts, retries int64
	tokens          float64
	allow, used     int64 // per_tick, this tick
}

type dependencyKind uint8

const (
	depLoss dependencyKind = iota
	depFIFO
	depLIFO
	depLatency
)

type budgetKind uint8

const (
	bkNone budgetKind = iota
	bkPerTick
	bkRatio
	bkToken
)

type budgetScope uint8

const (
	scChain budgetScope = iota
	scLayer
	scClient
)

type split struct {
	d int64
	n int64
}

// tickCounts are one tick's counts, for the health rule and the series.
type tickCounts struct {
	requests, calls, retries, ok, failures, timeouts, refused, served, wasted int64
}

// counts are the run's totals.
type counts struct {
	requests, calls, ok, failed, refused, served, wasted int64
	peakCalls, peakQueue, windowCalls                    int64
}

// stochSim is the state of one stochastic-engine run.
type stochSim struct {
	sc     *Scenario
	r      source
	ms     *Minstd // r, when it is a Minstd
	seq    bool    // one instance per group, one call at a time
	fast   bool    // every call is answered in the tick it is sent: no try objects
	seqOK  bool    // the sequential loss loop applies (runSeq; without a series)
	seqH   int64   // its horizon: the most ticks a retry is scheduled ahead by
	tickNs int64
	tickS  float64
	tps    float64 // ticks per second
	ticks  int64
	now    int64

	lay       []simLayer
	bottom    int
	closed    bool
	constant  bool
	clients   int32
	thinkT    int64
	netKind   string
	netT      float64 // ticks
	dep       dependencyKind
	limit     int64
	dropping  bool
	cancel    bool
	failP     float64
	latS      float64
	slopeS    float64
	colSlope  float64
	colFloor  float64
	colWinS   float64
	colWinT   int64
	healthQ   bool
	healthyQ  float64
	bk        budgetKind
	scope     budgetScope
	bRatio    float64
	bMax      float64
	budgets   []budgetState
	perClient bool // arrivals and budgets per client

	segs   []segment
	segIdx int

	cal       calendar
	calH      int64  // the calendar's horizon; it is built when the run starts
	free      []*try // recycled tries
	slab      []try  // fresh tries, allocated in blocks
	q         []qEntry
	qhead     int
	qCompact  int
	queued    int64
	inflight  int64
	capAcc    float64
	capLeft   int64
	capStart  int64
	capC      float64 // this tick's capacity, for spend
	offered   []int64 // loss server collapse: calls offered per tick, ring of colWinT
	offSum    int64
	offAt     int64 // last tick whose slot in offered was reset
	offDemand int64 // calls offered in the window before this tick

	// arrivals
	nextArr           int64
	arrFrom           int64
	arrAcc            float64
	arrGap            bool
	rr                int64 // constant arrivals over clients: round robin
	arrSplit          []split
	arrFromSeg, arrTo int64   // the segment arrLam belongs to
	arrLam            float64 // mean new requests per tick there
	knuthL            float64 // e^−arrLam
	split             []split

	c           counts
	preRequests int64      // closed loop: requests started before the first fault
	tk          tickCounts // this tick's counts
	tickCall    int64
	from, to    int64 // fault window in ticks
	lastBad     int64
	gp          gpWindow

	ser      *Series
	bin      SeriesRow
	binTicks int64
	binIdx   int64
	binCap   float64
	binN     int64
}

func runStochastic(sc *Scenario, seed uint64, series bool) (Metrics, *Series, []string) {
	s := newStochSim(sc, seed, sc.RNG == "minstd")
	return s.run(series)
}

// ticksOf converts a duration to ticks, rounded to the nearest tick.
func (s *stochSim) ticksOf(d Duration) int64 {
	return (int64(d) + s.tickNs/2) / s.tickNs
}

func newStochSim(sc *Scenario, seed uint64, seq bool) *stochSim {
	s := &stochSim{sc: sc, seq: seq}
	if sc.RNG == "minstd" {
		s.ms = NewMinstd(seed)
		s.r = s.ms
	} else {
		s.r = newPCG(seed)
	}
	s.tickNs = int64(sc.Tick)
	s.tickS = sc.Tick.Seconds()
	s.tps = 1e9 / float64(s.tickNs)
	s.ticks = int64(sc.Duration) / s.tickNs

	layers := sc.ChainLayers()
	mk := func(attempts int, timeout Duration, b Backoff) simLayer {
		l := simLayer{attempts: int32(attempts), timeout: -1, kind: b.Kind, jitter: b.Jitter,
			base: float64(b.Base) / float64(s.tickNs), factor: b.Factor, cap: float64(b.Cap) / float64(s.tickNs)}
		if timeout > 0 {
			l.timeout = s.ticksOf(timeout)
		}
		return l
	}
	if sc.ChainMode() == "flat" {
		s.lay = []simLayer{mk(sc.FlatAttempts(), layers[len(layers)-1].Timeout, layers[0].Backoff)}
	} else {
		for _, l := range layers {
			s.lay = append(s.lay, mk(l.Attempts, l.Timeout, l.Backoff))
		}
	}
	for i := range s.lay {
		l := &s.lay[i]
		if l.jitter == "decorrelated" && l.kind != "none" {
			continue
		}
		l.waits = make([]waitDist, max(0, l.attempts-1))
		for a := range l.waits {
			lo, hi, capT := l.backoff(int32(a+1), 0)
			w := waitDist{lo: lo, hi: hi, capT: capT, fixed: -1}
			if hi <= lo {
				w.fixed = clampWait(lo+1e-9, capT)
			}
			l.waits[a] = w
		}
	}
	s.bottom = len(s.lay) - 1

	s.closed = sc.Arrivals == "closed"
	s.constant = sc.Arrivals == "constant"
	s.clients = int32(max(1, sc.Clients))
	s.thinkT = max(1, s.ticksOf(sc.Think))
	d := sc.Dependency
	s.netKind = d.Network.Kind
	s.netT = float64(d.Network.Delay) / float64(s.tickNs)
	if s.netKind == "none" || d.Network.Delay == 0 {
		s.netKind = "none"
	}
	switch {
	case d.Capacity == 0 && d.LatencySlope > 0:
		s.dep = depLatency
	case d.Queue == "none":
		s.dep = depLoss
	case d.Queue == "lifo":
		s.dep = depLIFO
	default:
		s.dep = depFIFO
	}
	s.limit = int64(d.QueueLimit)
	s.cancel = sc.CancelAbandoned
	s.dropping = d.DropExpired || sc.CancelAbandoned
	s.failP = d.FailureProbability
	s.latS = d.Latency.Seconds()
	s.slopeS = d.LatencySlope.Seconds()
	s.colSlope, s.colFloor = d.Collapse.Slope, d.Collapse.Floor
	s.colWinS = d.Collapse.Window.Seconds()
	if s.colWinS <= 0 {
		s.colWinS = s.tickS
	}
	s.colWinT = max(1, s.ticksOf(Duration(s.colWinS*1e9)))
	offered := d.Collapse.Demand == "offered" || (d.Collapse.Demand == "" && s.dep == depLoss)
	if offered && s.colSlope > 0 && s.dep != depLatency {
		s.offered = make([]int64, s.colWinT)
		s.offAt = -1
	}

	bottomTimeout := s.lay[s.bottom].timeout
	rule := sc.Health.Rule
	if rule == "" {
		rule = "queue"
		if s.dep == depLoss || s.dep == depLatency || bottomTimeout < 0 {
			rule = "goodput"
		}
	}
	s.healthQ = rule == "queue"
	s.healthyQ = d.Capacity * layers[len(layers)-1].Timeout.Seconds()
	s.gp = gpWindow{w: max(1, int64(sc.Health.Window)/s.tickNs), g: sc.Health.Goodput}

	switch sc.Budget.Kind {
	case "per_tick":
		s.bk = bkPerTick
	case "ratio":
		s.bk = bkRatio
	case "token_bucket":
		s.bk = bkToken
	}
	switch sc.Budget.Scope {
	case "layer":
		s.scope = scLayer
	case "client":
		s.scope = scClient
	}
	s.bRatio, s.bMax = sc.Budget.Ratio, sc.Budget.MaxTokens
	nb := 1
	switch {
	case s.scope == scLayer:
		nb = len(s.lay)
	case s.scope == scClient:
		nb = int(s.clients)
	}
	s.perClient = s.scope == scClient && s.clients > 1 && s.bk != bkNone
	s.budgets = make([]budgetState, nb)
	for i := range s.budgets {
		s.budgets[i].tokens = s.bMax
	}

	// Calls answered in the tick they are sent (one caller, a loss server,
	// no delays) need no try objects: a pending retry is just its attempt,
	// client and last wait.
	s.fast = len(s.lay) == 1 && s.dep == depLoss && s.netKind == "none" && s.latS == 0

	s.buildSegments()
	fStart, fEnd, ok := sc.FaultWindow()
	s.from, s.to = 0, 0
	if ok {
		s.from = int64(fStart) / s.tickNs
		s.to = int64(fEnd) / s.tickNs
	}
	s.lastBad = -1

	// Calendar horizon: the longest wait anything is scheduled ahead by.
	h := int64(2)
	for _, l := range s.lay {
		h = max(h, l.timeout+1)
		w := l.base
		if l.kind == "exponential" {
			w = l.base * math.Pow(l.factor, float64(l.attempts-1))
			if l.cap > 0 {
				w = math.Min(w, l.cap)
			}
		}
		if l.jitter == "decorrelated" && l.cap > 0 {
			w = math.Max(w, l.cap)
		}
		h = max(h, int64(math.Min(w, float64(s.ticks)))+2)
	}
	h = max(h, s.thinkT+1, int64(s.netT)*2+2, s.ticksOf(d.Latency)+2)
	s.calH = min(h, s.ticks+1)
	s.seqH, s.seqOK = s.seqHorizon()
	return s
}

// buildSegments cuts the run into stretches with constant fault effects. A
// tick t is inside a fault when start ≤ t × tick < start + length.
func (s *stochSim) buildSegments() {
	cuts := []int64{0, s.ticks}
	ceilT := func(d Duration) int64 { return (int64(d) + s.tickNs - 1) / s.tickNs }
	for _, f := range s.sc.Fault {
		if f.Length <= 0 {
			continue
		}
		cuts = append(cuts, min(s.ticks, ceilT(f.Start)), min(s.ticks, ceilT(f.Start+f.Length)))
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	for i := 0; i+1 < len(cuts); i++ {
		if cuts[i] >= cuts[i+1] {
			continue
		}
		sg := segment{from: cuts[i], to: cuts[i+1], capRate: s.sc.Dependency.Capacity, latFactor: 1, arrFactor: 1}
		now := Duration(cuts[i] * s.tickNs)
		outage := false
		for _, f := range s.sc.Fault {
			if now < f.Start || now >= f.Start+f.Length {
				continue
			}
			switch f.Kind {
			case "outage":
				sg.capRate = 0
				outage = true
			case "degradation":
				sg.capRate = math.Min(sg.capRate, f.Capacity)
			case "slowdown":
				sg.capRate /= f.Factor
				sg.latFactor *= f.Factor
			case "spike":
				sg.arrFactor *= f.Factor
			}
		}
		if outage {
			sg.holdUntil = -1
		}
		sg.perTick = -1
		if c := sg.capRate / s.tps; c == math.Floor(c) && c < 1<<53 {
			sg.perTick = int64(c)
		}
		s.segs = append(s.segs, sg)
	}
	// The latency server holds answers until the outage covering a segment ends.
	for i := len(s.segs) - 1; i >= 0; i-- {
		if s.segs[i].holdUntil == -1 {
			s.segs[i].holdUntil = s.segs[i].to
			if i+1 < len(s.segs) && s.segs[i+1].holdUntil > 0 {
				s.segs[i].holdUntil = s.segs[i+1].holdUntil
			}
		}
	}
}

// segAt returns the segment holding tick t (t never decreases between calls,
// except through segFind).
func (s *stochSim) segAt(t int64) *segment {
	for s.segIdx+1 < len(s.segs) && s.segs[s.segIdx].to <= t {
		s.segIdx++
	}
	return &s.segs[s.segIdx]
}

// segFind returns the segment holding tick t without moving the cursor.
func (s *stochSim) segFind(t int64) *segment {
	i := s.segIdx
	for i+1 < len(s.segs) && s.segs[i].to <= t {
		i++
	}
	return &s.segs[i]
}

// lambda is the mean number of new requests per tick in sg.
func (s *stochSim) lambda(sg *segment) float64 {
	return s.sc.Load * sg.arrFactor / s.tps
}

func (s *stochSim) budgetOf(layer int8, client int32) *budgetState {
	switch s.scope {
	case scLayer:
		return &s.budgets[layer]
	case scClient:
		return &s.budgets[client]
	}
	return &s.budgets[0]
}

func (s *stochSim) newTry(layer int8, attempt int32, parent *try, n int64, client int32, retry bool) *try {
	var t *try
	if k := len(s.free); k > 0 && !poolNoReuse {
		t = s.free[k-1]
		s.free = s.free[:k-1]
	} else {
		if len(s.slab) == 0 {
			s.slab = make([]try, 256)
		}
		t = &s.slab[0]
		s.slab = s.slab[1:]
	}
	*t = try{parent: parent, n: n, attempt: attempt, client: client, layer: layer, retry: retry}
	if parent != nil {
		parent.refs++
		if s.cancel {
			parent.kids = append(parent.kids, t)
		}
	}
	return t
}

// schedule adds an event, which pins its try until it has run.
func (s *stochSim) schedule(at int64, ph uint8, ev event) {
	if ev.tr != nil {
		ev.tr.refs++
	}
	s.cal.add(s.now, at, ph, ev)
}

// release drops one reference to tr. A try nothing refers to any more can
// receive nothing and is recycled, which drops its reference to its parent.
// With cancel_abandoned, parents list their children, so tries are left to
// the garbage collector.
func (s *stochSim) release(tr *try) {
	for tr != nil {
		if tr.state == tsFree {
			panic("stochastic engine: a recycled try was still in use")
		}
		tr.refs--
		if tr.refs > 0 || s.cancel {
			return
		}
		p := tr.parent
		*tr = try{state: tsFree}
		s.free = append(s.free, tr)
		tr = p
	}
}

// poolNoReuse (tests) keeps recycled tries poisoned instead of reusing them,
// so any use after release panics.
var poolNoReuse = false

// ---- arrivals ----

// planArrivals finds the next tick ≥ from that may have new requests.
func (s *stochSim) planArrivals(from int64) {
	s.nextArr = never
	if s.closed || s.sc.Load <= 0 {
		return
	}
	for from < s.ticks {
		sg := s.segFind(from)
		lam := s.lambda(sg)
		if lam <= 0 {
			from = sg.to
			continue
		}
		switch {
		case s.constant:
			// The first k ≥ 0 with acc + (k+1)·λ ≥ 1.
			k := int64(0)
			if need := 1 - 1e-9 - s.arrAcc; need > lam {
				k = int64(math.Ceil(need/lam)) - 1
			}
			if from+k < sg.to {
				s.nextArr, s.arrFrom = from, from
				s.nextArr = from + k
				return
			}
			s.arrAcc += float64(sg.to-from) * lam
			from = sg.to
		case s.ms != nil || s.seq || lam >= 0.5:
			s.nextArr, s.arrGap = from, false
			return
		default:
			g := geometricGap(s.r, lam)
			if g < sg.to-from {
				s.nextArr, s.arrGap = from+g, true
				return
			}
			from = sg.to
		}
	}
}

// drawArrivals returns the new requests of tick t (t == s.nextArr) and plans
// the next.
func (s *stochSim) drawArrivals(t int64) int64 {
	if t >= s.arrTo || t < s.arrFromSeg {
		sg := s.segAt(t)
		s.arrFromSeg, s.arrTo = sg.from, sg.to
		s.arrLam = s.lambda(sg)
		s.knuthL = math.Exp(-s.arrLam)
	}
	lam := s.arrLam
	var n int64
	perTick := false
	switch {
	case s.constant:
		s.arrAcc += float64(t-s.arrFrom+1) * lam
		f := math.Floor(s.arrAcc + 1e-9)
		s.arrAcc = math.Max(0, s.arrAcc-f)
		n = int64(f)
	case s.ms != nil:
		perTick = true
		if lam > 500 {
			n = knuthPoisson(s.ms, lam)
		} else {
			n = s.ms.poissonL(s.knuthL)
		}
	case s.arrGap:
		n = poissonPositive(s.r, lam)
	default:
		perTick = true
		n = poissonDraw(s.r, lam)
	}
	if perTick && t+1 < s.arrTo {
		s.nextArr = t + 1 // same segment: a draw every tick
	} else {
		s.planArrivals(t + 1)
	}
	return n
}

// splitClients splits n new requests over the clients into s.arrSplit
// (d = client).
func (s *stochSim) splitClients(n int64) {
	s.arrSplit = s.arrSplit[:0]
	if n == 0 {
		return
	}
	if !s.perClient {
		s.arrSplit = append(s.arrSplit, split{0, n})
		return
	}
	c := int64(s.clients)
	switch {
	case s.constant:
		for i := int64(0); i < n; i++ {
			s.arrSplit = append(s.arrSplit, split{s.rr % c, 1})
			s.rr++
		}
		s.arrSplit = groupSplits(s.arrSplit)
	case s.seq || n <= c:
		for i := int64(0); i < n; i++ {
			s.arrSplit = append(s.arrSplit, split{int64(s.r.Float64() * float64(c)), 1})
		}
		if !s.seq {
			s.arrSplit = groupSplits(s.arrSplit)
		}
	default:
		rest := n
		for k := int64(0); k < c && rest > 0; k++ {
			m := rest
			if k < c-1 {
				m = binomial(s.r, rest, 1/float64(c-k))
			}
			if m > 0 {
				s.arrSplit = append(s.arrSplit, split{k, m})
			}
			rest -= m
		}
	}
}

// groupSplits merges splits with the same d, ordered by d.
func groupSplits(x []split) []split {
	if len(x) < 2 {
		return x
	}
	slices.SortStableFunc(x, func(a, b split) int {
		switch {
		case a.d < b.d:
			return -1
		case a.d > b.d:
			return 1
		}
		return 0
	})
	out := x[:1]
	for _, v := range x[1:] {
		if v.d == out[len(out)-1].d {
			out[len(out)-1].n += v.n
		} else {
			out = append(out, v)
		}
	}
	return out
}

// ---- waits and delays ----

// uniform is one draw from the run's generator (without an interface call
// for MINSTD).
func (s *stochSim) uniform() float64 {
	if s.ms != nil {
		return s.ms.Float64()
	}
	return s.r.Float64()
}

// failures draws how many of k served calls fail anyway: one draw per call
// (failing below failure_probability) for a single call, binomial otherwise.
func (s *stochSim) failures(k int64) int64 {
	if k == 1 {
		if s.uniform() < s.failP {
			return 1
		}
		return 0
	}
	return binomial(s.r, k, s.failP)
}

// clampWait is floor(min(x, capT)) (capT = 0: no cap), kept far below
// overflow for waits that outgrow any run.
func clampWait(x, capT float64) int64 {
	if capT > 0 && x > capT {
		x = capT
	}
	if !(x < 1e15) {
		return 1e15
	}
	return int64(math.Floor(x))
}

// waitOne draws the wait in ticks before retry number attempt for a single
// instance: one draw, the same as uniformSplit for n = 1.
func (s *stochSim) waitOne(l *simLayer, attempt, prev int32) int64 {
	if l.waits != nil {
		w := &l.waits[attempt-1]
		if w.fixed >= 0 {
			return w.fixed
		}
		return clampWait(w.lo+s.uniform()*(w.hi-w.lo), w.capT)
	}
	lo, hi, capT := l.backoff(attempt, prev)
	if hi <= lo {
		return clampWait(lo+1e-9, capT)
	}
	return clampWait(lo+s.uniform()*(hi-lo), capT)
}

// uniformSplit spreads n instances over whole ticks floor(x), x uniform in
// [lo, hi) and then capped at capT (0 = no cap), into s.split. One instance
// takes one draw: x = lo + U × (hi − lo).
func (s *stochSim) uniformSplit(lo, hi, capT float64, n int64) []split {
	s.split = s.split[:0]
	clampT := func(x float64) int64 { return clampWait(x, capT) }
	if hi <= lo {
		s.split = append(s.split, split{clampT(lo + 1e-9), n})
		return s.split
	}
	top := hi
	if capT > 0 && capT < hi {
		top = capT
	}
	buckets := int64(math.Ceil(top)) - int64(math.Floor(lo))
	if n <= 16 || n <= buckets {
		if n == 1 {
			s.split = append(s.split, split{clampT(lo + s.r.Float64()*(hi-lo)), 1})
			return s.split
		}
		for i := int64(0); i < n; i++ {
			s.split = append(s.split, split{clampT(lo + s.r.Float64()*(hi-lo)), 1})
		}
		s.split = groupSplits(s.split)
		return s.split
	}
	// Sequential binomials over the buckets.
	rest, mass := n, 1.0
	width := hi - lo
	for k := int64(math.Floor(lo)); rest > 0; k++ {
		a, b := math.Max(float64(k), lo), math.Min(float64(k+1), hi)
		pk := math.Max(0, b-a) / width
		last := capT > 0 && float64(k+1) > capT
		if last {
			pk = mass // everything at or above the cap
		}
		var m int64
		if pk >= mass || last {
			m = rest
		} else if pk > 0 {
			m = binomial(s.r, rest, pk/mass)
		}
		if m > 0 {
			s.split = append(s.split, split{k, m})
		}
		rest -= m
		mass -= pk
		if mass <= 0 {
			mass = 0
		}
	}
	return s.split
}

// backoff returns the distribution of the wait before retry number attempt
// (attempt = the failed try's number) as a uniform [lo, hi) capped at capT.
func (l *simLayer) backoff(attempt, prev int32) (lo, hi, capT float64) {
	var w float64
	switch l.kind {
	case "constant":
		w = l.base
	case "exponential":
		w = l.base * math.Pow(l.factor, float64(attempt-1))
		if l.cap > 0 {
			w = math.Min(w, l.cap)
		}
	default:
		return 0, 0, 0
	}
	switch l.jitter {
	case "full":
		return 0, w, 0
	case "equal":
		return w / 2, w, 0
	case "decorrelated":
		p := l.base
		if prev > 0 {
			p = math.Max(l.base, float64(prev))
		}
		return l.base, math.Max(l.base, 3*p), l.cap
	}
	return w, w, 0
}

// netSplit spreads n calls over network delays in ticks into s.split.
// Exponential delays of mean μ are rounded to the nearest tick: one call
// takes one draw, a group is split by sequential binomials.
func (s *stochSim) netSplit(n int64, extra int64) []split {
	s.split = s.split[:0]
	switch s.netKind {
	case "none":
		s.split = append(s.split, split{extra, n})
	case "constant":
		s.split = append(s.split, split{extra + int64(math.Round(s.netT)), n})
	default:
		mu := s.netT
		if n <= 4 {
			for i := int64(0); i < n; i++ {
				d := math.Round(-mu * math.Log(1-s.r.Float64()))
				s.split = append(s.split, split{extra + int64(math.Min(d, float64(s.ticks))), 1})
			}
			s.split = groupSplits(s.split)
			return s.split
		}
		rest := n
		p0 := -math.Expm1(-0.5 / mu) // P(delay < 0.5 tick)
		q := -math.Expm1(-1 / mu)    // P(next tick | not yet)
		m := binomial(s.r, rest, p0)
		if m > 0 {
			s.split = append(s.split, split{extra, m})
		}
		rest -= m
		for k := int64(1); rest > 0; k++ {
			m := binomial(s.r, rest, q)
			if k > s.ticks {
				m = rest
			}
			if m > 0 {
				s.split = append(s.split, split{extra + k, m})
			}
			rest -= m
		}
	}
	return s.split
}

// ---- the chain ----

// startRoots starts n new user requests of client c.
func (s *stochSim) startRoots(c int32, n int64) {
	if s.fast {
		if s.seq {
			for range n {
				s.fastSend(1, c, 0, 1)
			}
		} else {
			s.fastSend(1, c, 0, n)
		}
		return
	}
	if s.seq {
		for range n {
			s.start(s.newTry(0, 1, nil, 1, c, false))
		}
		return
	}
	s.start(s.newTry(0, 1, nil, n, c, false))
}

// start sends a scheduled try.
func (s *stochSim) start(tr *try) {
	if tr.state != tsScheduled {
		if tr.state == tsFree {
			panic("stochastic engine: starting a recycled try")
		}
		return // cancelled while it waited
	}
	tr.refs++ // pinned while it starts
	s.send(tr)
	s.release(tr)
}

// send is start's work: budget checks and counts, the deadline, and the call
// passed down (to the layer below, or to the dependency from the bottom).
func (s *stochSim) send(tr *try) {
	l := &s.lay[tr.layer]
	b := s.budgetOf(tr.layer, tr.client)
	if tr.attempt > 1 && s.bk == bkPerTick {
		ok := min(tr.n, max(0, b.allow-b.used))
		b.used += ok
		if refused := tr.n - ok; refused > 0 {
			s.refuse(refused)
			tr.n = ok
			s.failUp(tr, refused)
		}
		if tr.n == 0 {
			tr.state = tsDone
			return
		}
	}
	if tr.attempt == 1 {
		if tr.layer == 0 || s.scope == scLayer {
			b.firsts += tr.n
		}
	} else {
		b.retries += tr.n
	}
	tr.state = tsOpen
	tr.waiting = tr.n
	tr.deadline = never
	if l.timeout >= 0 {
		tr.deadline = s.now + l.timeout
	}
	if int(tr.layer) == s.bottom {
		sp := s.netSplit(tr.n, 0)
		if len(sp) == 1 && sp[0].d == 0 {
			s.arrive(tr, tr.n)
		} else {
			for _, x := range append([]split(nil), sp...) {
				if x.d == 0 {
					s.arrive(tr, x.n)
				} else if s.now+x.d < s.ticks {
					s.schedule(s.now+x.d, phStart, event{kind: evArrive, tr: tr, n: x.n})
				}
			}
		}
	} else {
		sp := s.netSplit(tr.n, 0)
		if len(sp) == 1 && sp[0].d == 0 {
			s.start(s.newTry(tr.layer+1, 1, tr, tr.n, tr.client, tr.retry))
		} else {
			sp = append([]split(nil), sp...)
			for _, x := range sp {
				child := s.newTry(tr.layer+1, 1, tr, x.n, tr.client, tr.retry)
				if x.d == 0 {
					s.start(child)
				} else if s.now+x.d < s.ticks {
					s.schedule(s.now+x.d, phStart, event{kind: evStart, tr: child})
				}
			}
		}
	}
	if tr.state == tsOpen && tr.waiting > 0 && tr.deadline < s.ticks {
		s.schedule(tr.deadline, phTimeout, event{kind: evTimeout, tr: tr})
	}
}

// arrive puts n calls of the bottom try tr on the dependency.
func (s *stochSim) arrive(tr *try, n int64) {
	if tr.state == tsFree {
		panic("stochastic engine: calls of a recycled try")
	}
	s.c.calls += n
	s.tickCall += n
	if s.offered != nil {
		s.offered[s.now%s.colWinT] += n
		s.offSum += n
	}
	s.tk.calls += n
	if tr.retry || tr.attempt > 1 {
		s.tk.retries += n
	}
	if s.now >= s.from && s.now < s.to {
		s.c.windowCalls += n
	}
	switch s.dep {
	case depLoss:
		k := min(n, s.capLeft)
		s.capLeft -= k
		if k > 0 {
			s.complete(tr, k)
		}
		if r := n - k; r > 0 {
			s.reply(tr, r, false, 0)
		}
	case depFIFO, depLIFO:
		if s.limit > 0 {
			acc := min(n, max(0, s.limit-s.queued))
			if rej := n - acc; rej > 0 {
				s.reply(tr, rej, false, 0)
			}
			n = acc
		}
		if n > 0 {
			if k := len(s.q) - 1; k >= s.qhead && s.q[k].tr == tr {
				s.q[k].n += n
			} else {
				s.q = append(s.q, qEntry{tr: tr, n: n})
				tr.refs++
			}
			tr.queued += n
			s.queued += n
		}
	case depLatency:
		s.inflight += n
		sg := s.segAt(s.now)
		lat := int64(math.Min(1e15, math.Round((s.latS+s.slopeS*float64(s.inflight))*sg.latFactor*s.tps)))
		at := s.now + lat
		if sg.holdUntil > 0 {
			at = sg.holdUntil + lat
		}
		if at < s.ticks {
			s.schedule(at, phService, event{kind: evDone, tr: tr, n: n})
		}
	}
}

// awaited reports whether a call of tr served now would still be waited for
// all the way up to the user.
func awaited(tr *try) bool {
	for x := tr; x != nil; x = x.parent {
		if x.state == tsFree {
			panic("stochastic engine: a recycled try on a call's path")
		}
		if x.state != tsOpen {
			return false
		}
	}
	return true
}

// complete records that the dependency finished k calls of tr now and
// answers them.
func (s *stochSim) complete(tr *try, k int64) {
	s.c.served += k
	s.tk.served += k
	if tr.state != tsOpen {
		s.waste(k) // nobody waits for it
		return
	}
	var f int64
	if s.failP > 0 {
		if f = s.failures(k); f > 0 && !awaited(tr) {
			s.waste(f) // a failure nobody up the chain waits for
		}
	}
	var lat int64
	if s.dep != depLatency && s.latS > 0 {
		lat = int64(math.Round(s.latS * s.segAt(s.now).latFactor * s.tps))
	}
	if k-f > 0 {
		s.reply(tr, k-f, true, lat)
	}
	if f > 0 {
		s.reply(tr, f, false, lat)
	}
}

// waste records k served calls whose work reaches nobody.
func (s *stochSim) waste(k int64) {
	s.c.wasted += k
	s.tk.wasted += k
}

// reply sends k answers to tr; they take extra ticks plus the network delay.
// Successes always come from calls the dependency served: one that reaches a
// caller who gave up, at whatever hop, is wasted work.
func (s *stochSim) reply(tr *try, k int64, ok bool, extra int64) {
	if tr.state != tsOpen {
		if ok {
			s.waste(k)
		}
		return
	}
	sp := s.netSplit(k, extra)
	if len(sp) == 1 && sp[0].d == 0 {
		s.answer(tr, k, ok)
		return
	}
	sp = append([]split(nil), sp...)
	for _, x := range sp {
		if x.d == 0 {
			s.answer(tr, x.n, ok)
		} else if s.now+x.d < s.ticks {
			s.schedule(s.now+x.d, phStart, event{kind: evAnswer, tr: tr, n: x.n, ok: ok})
		}
	}
}

// answer delivers k answers to tr's waiting instances.
func (s *stochSim) answer(tr *try, k int64, ok bool) {
	if tr.state != tsOpen {
		if tr.state == tsFree {
			panic("stochastic engine: an answer for a recycled try")
		}
		if ok {
			s.waste(k) // given up or cancelled: the success is ignored
		}
		return
	}
	if k > tr.waiting {
		panic(fmt.Sprintf("stochastic engine: %d answers for %d waiting instances", k, tr.waiting))
	}
	tr.waiting -= k
	if tr.waiting == 0 {
		tr.state = tsDone
	}
	if ok {
		s.succeed(tr, k)
	} else {
		s.retryOrFail(tr, k)
	}
}

// succeed passes k successes of tr's layer up.
func (s *stochSim) succeed(tr *try, k int64) {
	if s.bk == bkToken && (s.scope == scLayer || tr.parent == nil) {
		b := s.budgetOf(tr.layer, tr.client)
		b.tokens = math.Min(s.bMax, b.tokens+s.bRatio*float64(k))
	}
	if tr.parent == nil {
		s.c.ok += k
		s.tk.ok += k
		s.finished(tr.client, k)
		return
	}
	s.reply(tr.parent, k, true, 0)
}

// failUp reports that k instances of tr's layer failed for good.
func (s *stochSim) failUp(tr *try, k int64) {
	if tr.parent == nil {
		s.c.failed += k
		s.tk.failures += k
		s.finished(tr.client, k)
		return
	}
	s.reply(tr.parent, k, false, 0)
}

// finished lets closed-loop clients think before their next request.
func (s *stochSim) finished(client int32, k int64) {
	if !s.closed {
		return
	}
	at := s.now + s.thinkT
	if at >= s.ticks {
		return
	}
	if !s.seq {
		if e := s.cal.last(s.now, at, phStart); e != nil && e.kind == evWake && e.client == client {
			e.n += k
			return
		}
	}
	s.cal.add(s.now, at, phStart, event{kind: evWake, client: client, n: k})
}

func (s *stochSim) refuse(k int64) {
	s.c.refused += k
	s.tk.refused += k
}

// admit asks the budget of a layer and client how many of k failed
// instances may retry, when the failure is seen: a ratio budget lets all of
// them retry while retries so far ≤ ratio × first tries so far, and none
// otherwise; a token bucket lets as many retry as it has whole tokens, and
// takes them. Other budgets (none, per_tick) admit all k here.
func (s *stochSim) admit(layer int8, client int32, k int64) int64 {
	switch s.bk {
	case bkRatio:
		if b := s.budgetOf(layer, client); !(float64(b.retries) <= s.bRatio*float64(b.firsts)) {
			return 0
		}
	case bkToken:
		b := s.budgetOf(layer, client)
		allowed := min(k, int64(math.Max(0, math.Floor(b.tokens))))
		b.tokens -= float64(allowed)
		return allowed
	}
	return k
}

// retryOrFail handles k instances whose try tr failed now.
func (s *stochSim) retryOrFail(tr *try, k int64) {
	l := &s.lay[tr.layer]
	if tr.attempt >= l.attempts {
		s.failUp(tr, k)
		return
	}
	allowed := s.admit(tr.layer, tr.client, k)
	if refused := k - allowed; refused > 0 {
		s.refuse(refused)
		s.failUp(tr, refused)
	}
	if allowed == 0 {
		return
	}
	var sp []split
	if allowed == 1 {
		s.split = append(s.split[:0], split{s.waitOne(l, tr.attempt, tr.prevWait), 1})
		sp = s.split
	} else {
		lo, hi, capT := l.backoff(tr.attempt, tr.prevWait)
		sp = s.uniformSplit(lo, hi, capT, allowed)
	}
	for _, x := range sp { // nothing below reuses s.split
		due := s.now + 1 + x.d
		if due >= s.ticks {
			continue // due after the run: still pending when it ends
		}
		if !s.seq {
			if e := s.cal.last(s.now, due, phStart); e != nil && e.kind == evStart {
				if o := e.tr; o.state == tsScheduled && o.parent == tr.parent && o.layer == tr.layer &&
					o.attempt == tr.attempt+1 && o.client == tr.client && o.prevWait == int32(x.d) {
					o.n += x.n
					continue
				}
			}
		}
		nt := s.newTry(tr.layer, tr.attempt+1, tr.parent, x.n, tr.client, true)
		nt.prevWait = int32(min(x.d, math.MaxInt32))
		s.schedule(due, phStart, event{kind: evStart, tr: nt})
	}
}

// timeout makes tr's caller give up on the instances still waiting.
func (s *stochSim) timeout(tr *try) {
	if tr.state == tsFree {
		panic("stochastic engine: a deadline for a recycled try")
	}
	if tr.state != tsOpen || tr.waiting == 0 {
		return
	}
	k := tr.waiting
	tr.waiting = 0
	tr.state = tsClosed
	s.tk.timeouts += k
	if s.dropping && tr.queued > 0 {
		s.queued -= tr.queued
		tr.queued = 0
	}
	if s.cancel {
		s.cancelBelow(tr)
	}
	s.retryOrFail(tr, k)
}

// cancelBelow cancels every try started for tr that is still scheduled or
// open, and their own, withdrawing their calls from the dependency's queue.
func (s *stochSim) cancelBelow(tr *try) {
	for _, k := range tr.kids {
		switch k.state {
		case tsScheduled:
			k.state = tsCancelled
		case tsOpen:
			k.state = tsCancelled
			if k.queued > 0 {
				s.queued -= k.queued
				k.queued = 0
			}
			s.cancelBelow(k)
		}
	}
	tr.kids = nil
}

// ---- calls answered at once ----

// fastSend is start, arrive and complete for n calls of the one caller when
// the dependency answers every call in the tick it arrives (s.fast): the
// same steps in the same order as the general path, without try objects.
func (s *stochSim) fastSend(attempt, client, prev int32, n int64) {
	b := s.budgetOf(0, client)
	if attempt > 1 && s.bk == bkPerTick {
		ok := min(n, max(0, b.allow-b.used))
		b.used += ok
		if refused := n - ok; refused > 0 {
			s.refuse(refused)
			s.userFail(client, refused)
		}
		if n = ok; n == 0 {
			return
		}
	}
	if attempt == 1 {
		b.firsts += n
	} else {
		b.retries += n
	}
	s.c.calls += n
	s.tickCall += n
	if s.offered != nil {
		s.offered[s.now%s.colWinT] += n
		s.offSum += n
	}
	s.tk.calls += n
	if attempt > 1 {
		s.tk.retries += n
	}
	if s.now >= s.from && s.now < s.to {
		s.c.windowCalls += n
	}
	k := min(n, s.capLeft)
	s.capLeft -= k
	if k > 0 {
		s.c.served += k
		s.tk.served += k
		var f int64
		if s.failP > 0 {
			f = s.failures(k)
		}
		if ok := k - f; ok > 0 {
			if s.bk == bkToken {
				b.tokens = math.Min(s.bMax, b.tokens+s.bRatio*float64(ok))
			}
			s.c.ok += ok
			s.tk.ok += ok
			s.finished(client, ok)
		}
		if f > 0 {
			s.fastRetry(attempt, client, prev, f)
		}
	}
	if r := n - k; r > 0 {
		s.fastRetry(attempt, client, prev, r)
	}
}

// userFail records that k requests of client failed.
func (s *stochSim) userFail(client int32, k int64) {
	s.c.failed += k
	s.tk.failures += k
	s.finished(client, k)
}

// fastRetry is retryOrFail for the immediate-answer path.
func (s *stochSim) fastRetry(attempt, client, prev int32, k int64) {
	l := &s.lay[0]
	if attempt >= l.attempts {
		s.userFail(client, k)
		return
	}
	allowed := s.admit(0, client, k)
	if refused := k - allowed; refused > 0 {
		s.refuse(refused)
		s.userFail(client, refused)
	}
	if allowed == 0 {
		return
	}
	if allowed == 1 {
		d := s.waitOne(l, attempt, prev)
		if due := s.now + 1 + d; due < s.ticks {
			s.scheduleRetry(due, attempt+1, client, int32(min(d, math.MaxInt32)), 1)
		}
		return
	}
	lo, hi, capT := l.backoff(attempt, prev)
	for _, x := range s.uniformSplit(lo, hi, capT, allowed) {
		due := s.now + 1 + x.d
		if due >= s.ticks {
			continue // due after the run: still pending when it ends
		}
		s.scheduleRetry(due, attempt+1, client, int32(min(x.d, math.MaxInt32)), x.n)
	}
}

// scheduleRetry queues n retries of the immediate-answer path for tick due,
// merged with the last group queued there when they are alike.
func (s *stochSim) scheduleRetry(due int64, attempt, client, w int32, n int64) {
	if !s.seq {
		if e := s.cal.last(s.now, due, phStart); e != nil && e.kind == evRetry &&
			e.attempt == attempt && e.client == client && e.wait == w {
			e.n += n
			return
		}
	}
	s.cal.add(s.now, due, phStart, event{kind: evRetry, attempt: attempt, client: client, wait: w, n: n})
}

// ---- the dependency ----

// credit starts a tick's service: it adds the tick's capacity c (calls,
// maybe fractional) to the server's credit and returns the whole calls it
// may serve; spend ends the tick. A busy server carries the fraction it has
// not used to the next tick, so it serves c calls per tick on average. A
// whole call of credit left unused means the server was idle: with c ≥ 1 it
// is lost, as in the queue engine (a server of 6 per tick serves at most 6
// in any tick); with c < 1 the server stays ready for one call, so a call
// reaching an idle server of 20/s at 10 ms ticks is served at once rather
// than in whichever tick its credit happens to round up, and the call's work
// starts then: a tick that begins with the server ready adds nothing. No
// capacity, no credit.
func (s *stochSim) credit(c float64) int64 {
	s.capC = c
	if c <= 0 {
		s.capAcc = 0
		return 0
	}
	if c < 1 && s.capAcc >= 1-1e-9 {
		s.capAcc = 1 // ready since before the tick: idling earns nothing
	} else {
		s.capAcc += c
	}
	return int64(math.Floor(s.capAcc + 1e-9))
}

// spend ends a tick's service, in which u calls were served.
func (s *stochSim) spend(u int64) {
	s.capAcc -= float64(u)
	if s.capAcc >= 1-1e-9 {
		if s.capC < 1 {
			s.capAcc = 1
		} else {
			s.capAcc -= math.Floor(s.capAcc + 1e-9)
		}
	}
	if s.capAcc < 0 {
		s.capAcc = 0
	}
}

// collapseKeep is the share of capacity an overloaded dependency keeps.
func (s *stochSim) collapseKeep(capRate float64, demand int64) float64 {
	if s.colSlope <= 0 || capRate <= 0 {
		return 1
	}
	x := float64(demand) / (capRate * s.colWinS)
	if x <= 1 {
		return 1
	}
	return math.Max(s.colFloor, 1-s.colSlope*(x-1))
}

// serve lets a queueing dependency work through the tick's capacity.
func (s *stochSim) serve(sg *segment) {
	demand := s.queued
	if s.offered != nil {
		demand = s.offDemand
	}
	keep := s.collapseKeep(sg.capRate, demand)
	c := s.credit(sg.capRate * keep / s.tps)
	c0 := c
	defer func() { s.spend(c0 - c) }()
	lifo := s.dep == depLIFO
	for c > 0 && s.qhead < len(s.q) {
		i := s.qhead
		if lifo {
			i = len(s.q) - 1
		}
		e := &s.q[i]
		if e.n > 0 && e.tr != nil && e.tr.state != tsOpen && (s.dropping || e.tr.state == tsCancelled) {
			e.n = 0 // withdrawn: no longer counted in s.queued
		}
		if e.n > 0 {
			k := min(c, e.n)
			e.n -= k
			c -= k
			s.queued -= k
			if tr := e.tr; tr != nil && tr.state == tsOpen {
				tr.queued -= k
				s.complete(tr, k)
			} else {
				s.c.served += k
				s.tk.served += k
				s.waste(k)
			}
		}
		if e.n == 0 {
			if e.tr != nil {
				s.release(e.tr)
				e.tr = nil
			}
			if lifo {
				s.q = s.q[:i]
			} else {
				s.qhead++
			}
		}
	}
	if s.qhead == len(s.q) {
		s.q, s.qhead = s.q[:0], 0
	}
	s.compactQueue()
}

// compactQueue merges neighbouring abandoned entries (their calls are only
// counted from now on), drops withdrawn ones and reclaims served ones, when
// the queue has doubled or as much has been served as is left: amortised
// constant time per entry.
func (s *stochSim) compactQueue() {
	live := len(s.q) - s.qhead
	grown := live >= 256 && live >= 2*s.qCompact
	spent := s.qhead >= 1024 && s.qhead >= live // served entries in front
	if !grown && !spent {
		return
	}
	out := s.q[:0]
	for _, e := range s.q[s.qhead:] {
		if e.n == 0 {
			if e.tr != nil {
				s.release(e.tr)
			}
			continue
		}
		if e.tr != nil && e.tr.state != tsOpen {
			dead := s.dropping || e.tr.state == tsCancelled
			s.release(e.tr)
			if dead {
				continue
			}
			e.tr = nil
		}
		if e.tr == nil && len(out) > 0 && out[len(out)-1].tr == nil {
			out[len(out)-1].n += e.n
			continue
		}
		out = append(out, e)
	}
	clear(s.q[len(out):])
	s.q, s.qhead = out, 0
	s.qCompact = len(out)
}

// ---- the run ----

func (s *stochSim) run(series bool) (Metrics, *Series, []string) {
	if s.ms != nil {
		defer s.ms.release()
	}
	if s.seqOK && s.fast && !series {
		s.runSeq()
		return s.metrics(), nil, nil
	}
	s.cal = newCalendar(s.calH)
	if !s.healthQ && s.gp.w < 1<<12 {
		n := 16
		for int64(n) <= s.gp.w {
			n <<= 1
		}
		s.gp.ents = make([]gpEnt, n)
	}
	if series {
		s.binTicks = max(1, int64(math.Round(1/s.tickS)))
		s.ser = &Series{Step: float64(s.binTicks) * s.tickS, Rows: make([]SeriesRow, 0, (s.ticks+s.binTicks-1)/s.binTicks)}
	}
	s.now = -1
	if s.closed {
		s.scheduleClients()
	}
	s.arrTo = -1
	s.planArrivals(0)
	last := int64(-1)
	for t := s.nextTick(-1); t < s.ticks; t = s.nextTick(t) {
		if t > last+1 {
			s.idle(last+1, t)
		}
		s.step(t)
		last = t
	}
	if last+1 < s.ticks {
		s.idle(last+1, s.ticks)
	}
	if s.ser != nil {
		s.binFlush((s.ticks + s.binTicks - 1) / s.binTicks)
	}
	return s.metrics(), s.ser, nil
}

// scheduleClients spreads the closed loop's first requests uniformly over
// the first think time (all at tick 0 when think < one tick).
func (s *stochSim) scheduleClients() {
	span := s.ticksOf(s.sc.Think)
	perClient := s.seq || s.scope == scClient
	if span <= 1 {
		if perClient {
			for c := int32(0); c < s.clients; c++ {
				s.cal.add(-1, 0, phStart, event{kind: evWake, client: c, n: 1})
			}
		} else {
			s.cal.add(-1, 0, phStart, event{kind: evWake, n: int64(s.clients)})
		}
		return
	}
	if perClient {
		type w struct {
			at int64
			c  int32
		}
		ws := make([]w, s.clients)
		for c := range ws {
			ws[c] = w{int64(s.r.Float64() * float64(span)), int32(c)}
		}
		slices.SortStableFunc(ws, func(a, b w) int { return int(a.at - b.at) })
		for _, x := range ws {
			s.cal.add(-1, x.at, phStart, event{kind: evWake, client: x.c, n: 1})
		}
		return
	}
	for _, x := range append([]split(nil), s.uniformSplit(0, float64(span), 0, int64(s.clients))...) {
		s.cal.add(-1, x.d, phStart, event{kind: evWake, n: x.n})
	}
}

// nextTick returns the next tick after t in which something can happen.
func (s *stochSim) nextTick(t int64) int64 {
	if s.nextArr == t+1 {
		return t + 1
	}
	n := min(s.ticks, s.nextArr, s.cal.next(t))
	if s.queued > 0 && (s.dep == depFIFO || s.dep == depLIFO) && n > t+1 {
		if sg := s.segFind(t + 1); sg.capRate > 0 {
			return t + 1
		} else {
			n = min(n, sg.to)
		}
	}
	return n
}

// step runs tick t.
func (s *stochSim) step(t int64) {
	s.now = t
	if len(s.cal.far) > 0 {
		s.cal.migrate(t)
	}
	sg := s.segAt(t)
	s.tk = tickCounts{}
	s.tickCall = 0

	// 1. arrivals and per-tick allowances
	var n int64
	if t == s.nextArr {
		if s.ms != nil && t+1 < s.arrTo && !s.constant && s.arrLam <= 500 {
			n = s.ms.poissonL(s.knuthL) // the common case of drawArrivals
			s.nextArr = t + 1
		} else {
			n = s.drawArrivals(t)
		}
	}
	s.c.requests += n
	s.tk.requests += n
	if s.perClient {
		s.splitClients(n)
	} else {
		s.arrSplit = s.arrSplit[:0]
		if n > 0 {
			s.arrSplit = append(s.arrSplit, split{0, n})
		}
	}
	sl := s.cal.slot(t)
	busy := s.cal.busyAt(t)
	if s.bk == bkPerTick {
		s.perTickAllowance(sl)
	}
	if s.offered != nil {
		s.offDemand = s.advanceOffered(t)
	}
	if s.dep == depLoss {
		if sg.perTick >= 1 && s.capAcc == 0 && s.offered == nil {
			// What credit gives for a whole number of calls per tick.
			s.capLeft, s.capAcc, s.capC = sg.perTick, float64(sg.perTick), float64(sg.perTick)
		} else {
			s.capLeft = s.credit(sg.capRate * s.collapseKeep(sg.capRate, s.offDemand) / s.tps)
		}
		s.capStart = s.capLeft
	}

	// 2. events in scheduling order, then the new requests
	if busy {
		for i := 0; i < len(sl.lists[phStart]); i++ {
			ev := &sl.lists[phStart][i]
			switch ev.kind {
			case evRetry:
				s.fastSend(ev.attempt, ev.client, ev.wait, ev.n)
			case evStart:
				s.start(ev.tr)
				s.release(ev.tr)
			case evArrive:
				s.arrive(ev.tr, ev.n)
				s.release(ev.tr)
			case evAnswer:
				s.answer(ev.tr, ev.n, ev.ok)
				s.release(ev.tr)
			case evWake:
				s.c.requests += ev.n
				s.tk.requests += ev.n
				if t < s.from || s.from == 0 {
					s.preRequests += ev.n
				}
				s.startRoots(ev.client, ev.n)
			}
		}
	}
	for _, a := range s.arrSplit {
		s.startRoots(int32(a.d), a.n)
	}

	if !s.fast {
		// 3. the dependency works
		switch s.dep {
		case depFIFO, depLIFO:
			s.serve(sg)
		case depLatency:
			for i := 0; i < len(sl.lists[phService]); i++ {
				ev := sl.lists[phService][i]
				s.inflight -= ev.n
				s.complete(ev.tr, ev.n)
				s.release(ev.tr)
			}
		}
		// 4. deadlines
		for i := 0; i < len(sl.lists[phTimeout]); i++ {
			tr := sl.lists[phTimeout][i].tr
			s.timeout(tr)
			s.release(tr)
		}
	}
	if busy || len(sl.lists[phTimeout]) > 0 || len(sl.lists[phService]) > 0 {
		s.cal.clear(t)
	}

	if s.dep == depLoss {
		s.spend(s.capStart - s.capLeft)
	}

	// 5. measurements
	s.c.peakCalls = max(s.c.peakCalls, s.tickCall)
	q := s.queued
	if s.dep == depLatency {
		q = s.inflight
	}
	s.c.peakQueue = max(s.c.peakQueue, q)
	// Health before the fault matters only to the series, and to the
	// goodput window once it reaches the fault's start.
	if s.ser == nil && t+s.gp.w < s.from {
		return
	}
	var unhealthy bool
	if s.healthQ {
		unhealthy = float64(q) > s.healthyQ+1e-9
	} else {
		g := &s.gp
		if s.tk.ok != 0 || s.tk.requests != 0 {
			g.add(t, float64(s.tk.ok), float64(s.tk.requests))
		}
		g.expire(t)
		unhealthy = t+1 >= g.w && g.ok < g.g*g.arr-1e-9
	}
	if unhealthy && t >= s.from {
		s.lastBad = t
	}
	if s.ser != nil {
		r := SeriesRow{Requests: float64(s.tk.requests), Calls: float64(s.tk.calls), Retries: float64(s.tk.retries),
			Successes: float64(s.tk.ok), Failures: float64(s.tk.failures), Timeouts: float64(s.tk.timeouts),
			Refused: float64(s.tk.refused), Served: float64(s.tk.served), Wasted: float64(s.tk.wasted),
			Queue: float64(q), Capacity: sg.capRate, Unhealthy: unhealthy}
		s.binAdd(t, &r)
	}
}

// perTickAllowance sets each budget's retry allowance for the tick from the
// requests arriving in it (closed loop: the clients waking in it).
func (s *stochSim) perTickAllowance(sl *calSlot) {
	for i := range s.budgets {
		s.budgets[i].allow, s.budgets[i].used = 0, 0
	}
	add := func(client int32, n int64) {
		switch s.scope {
		case scClient:
			s.budgets[client].allow += n
		case scLayer:
			for i := range s.budgets {
				s.budgets[i].allow += n
			}
		default:
			s.budgets[0].allow += n
		}
	}
	for _, a := range s.arrSplit {
		add(int32(a.d), a.n)
	}
	for _, ev := range sl.lists[phStart] {
		if ev.kind == evWake {
			add(ev.client, ev.n)
		}
	}
	for i := range s.budgets {
		s.budgets[i].allow = int64(math.RoundToEven(s.bRatio * float64(s.budgets[i].allow)))
	}
}

// advanceOffered moves the loss server's window of offered calls to tick t
// and returns the calls offered in ticks t−W..t−1 (W = the collapse window).
func (s *stochSim) advanceOffered(t int64) int64 {
	w := s.colWinT
	if t-s.offAt > w {
		clear(s.offered)
		s.offSum = 0
	} else {
		for x := s.offAt + 1; x < t; x++ { // idle ticks left stale slots
			i := x % w
			s.offSum -= s.offered[i]
			s.offered[i] = 0
		}
	}
	demand := s.offSum
	i := t % w
	s.offSum -= s.offered[i]
	s.offered[i] = 0
	s.offAt = t
	return demand
}

// idle accounts for ticks a..b−1 in which nothing happened.
func (s *stochSim) idle(a, b int64) {
	// service credit accrues while nothing happens
	if s.dep != depLatency {
		for x := a; x < b; {
			sg := s.segFind(x)
			e := min(b, sg.to)
			switch c := sg.capRate / s.tps; {
			case c <= 0:
				s.capAcc = 0
			case c < 1:
				s.capAcc = math.Min(1, s.capAcc+float64(e-x)*c)
			default:
				s.capAcc += float64(e-x) * c
				s.capAcc -= math.Floor(s.capAcc + 1e-9)
				s.capAcc = math.Max(0, s.capAcc)
			}
			x = e
		}
	}
	mark := func(x, y int64, unhealthy bool) {
		if unhealthy && y-1 >= s.from {
			s.lastBad = y - 1
		}
		if s.ser != nil {
			s.binIdle(x, y, unhealthy)
		}
	}
	if s.healthQ {
		q := s.queued
		if s.dep == depLatency {
			q = s.inflight
		}
		mark(a, b, float64(q) > s.healthyQ+1e-9)
		return
	}
	for x := a; x < b; {
		s.gp.expire(x)
		h := s.gp.healthy(x)
		nx := b
		if f := s.gp.first(); f != never {
			nx = min(nx, f+s.gp.w)
		}
		if x < s.gp.w-1 {
			nx = min(nx, s.gp.w-1)
		}
		nx = max(nx, x+1)
		mark(x, nx, !h)
		x = nx
	}
}

// gpWindow keeps successes and arrivals of the ticks in the health window
// that had any (a ring of at most w+1 entries), so idle stretches cost
// nothing.
type gpWindow struct {
	w       int64
	g       float64
	ents    []gpEnt // ring
	head, n int
	ok, arr float64
}

type gpEnt struct {
	t       int64
	ok, arr float64
}

func (g *gpWindow) add(t int64, ok, arr float64) {
	if ok == 0 && arr == 0 {
		return
	}
	if g.n == len(g.ents) {
		grown := make([]gpEnt, max(16, 2*len(g.ents))) // a power of two
		for i := range g.n {
			grown[i] = g.ents[(g.head+i)&(len(g.ents)-1)]
		}
		g.ents, g.head = grown, 0
	}
	g.ents[(g.head+g.n)&(len(g.ents)-1)] = gpEnt{t, ok, arr}
	g.n++
	g.ok += ok
	g.arr += arr
}

// first returns the oldest entry's tick, or never.
func (g *gpWindow) first() int64 {
	if g.n == 0 {
		return never
	}
	return g.ents[g.head].t
}

func (g *gpWindow) expire(t int64) {
	for g.n > 0 && g.ents[g.head].t <= t-g.w {
		e := &g.ents[g.head]
		g.ok -= e.ok
		g.arr -= e.arr
		g.head = (g.head + 1) & (len(g.ents) - 1)
		g.n--
	}
}

// healthy: the goodput rule over the window ending at tick t; healthy until
// the first window is complete, like the queue engine.
func (g *gpWindow) healthy(t int64) bool {
	if t+1 < g.w {
		return true
	}
	return g.ok >= g.g*g.arr-1e-9
}

// ---- series ----

func (s *stochSim) binFlush(upTo int64) {
	for s.binIdx < upTo {
		start := s.binIdx * s.binTicks
		n := min(s.binTicks, s.ticks-start)
		s.bin.T = float64(start) * s.tickS
		s.bin.Capacity = s.binCap / float64(n)
		s.bin.Queue = float64(s.queued)
		if s.dep == depLatency {
			s.bin.Queue = float64(s.inflight)
		}
		s.bin.InFlight = float64(s.c.requests - s.c.ok - s.c.failed)
		s.ser.Rows = append(s.ser.Rows, s.bin)
		s.bin = SeriesRow{}
		s.binCap, s.binN = 0, 0
		s.binIdx++
	}
}

// capacityOver sums the capacity per second over ticks a..b−1.
func (s *stochSim) capacityOver(a, b int64) float64 {
	var c float64
	for x := a; x < b; {
		sg := s.segFind(x)
		e := min(b, sg.to)
		if s.dep != depLatency {
			c += float64(e-x) * sg.capRate
		}
		x = e
	}
	return c
}

// binAdd adds tick t's row to the series.
func (s *stochSim) binAdd(t int64, r *SeriesRow) {
	s.binFlush(t / s.binTicks)
	// ticks of this bin skipped before t are covered by binIdle
	unhealthy := s.bin.Unhealthy
	s.bin.add(r)
	s.bin.Unhealthy = unhealthy || r.Unhealthy
	s.binCap += r.Capacity
	s.binN++
	if (t+1)%s.binTicks == 0 {
		s.binFlush((t + 1) / s.binTicks)
	}
}

// binIdle adds idle ticks a..b−1 to the series.
func (s *stochSim) binIdle(a, b int64, unhealthy bool) {
	for x := a; x < b; {
		s.binFlush(x / s.binTicks)
		e := min(b, (x/s.binTicks+1)*s.binTicks)
		s.binCap += s.capacityOver(x, e)
		s.binN += e - x
		s.bin.Unhealthy = s.bin.Unhealthy || unhealthy
		if e%s.binTicks == 0 {
			s.binFlush(e / s.binTicks)
		}
		x = e
	}
}

// metrics turns the run's counts into Metrics.
func (s *stochSim) metrics() Metrics {
	c := &s.c
	m := Metrics{
		Requests:       float64(c.requests),
		Calls:          float64(c.calls),
		PeakCalls:      float64(c.peakCalls),
		PeakQueue:      float64(c.peakQueue),
		Successful:     float64(c.ok),
		Failed:         float64(c.failed),
		RetriesRefused: float64(c.refused),
		Served:         float64(c.served),
		WastedServed:   float64(c.wasted),
	}
	m.Pending = m.Requests - m.Successful - m.Failed
	base := s.baseRate()
	m.PeakLoadX = ratio(m.PeakCalls*s.tps, base)
	if s.to > s.from {
		m.WindowCalls = float64(c.windowCalls) / (float64(s.to-s.from) * s.tickS)
		m.WindowRateX = ratio(m.WindowCalls, base)
	}
	m.Recovered = s.lastBad != s.ticks-1
	m.RecoveryS = math.NaN()
	if m.Recovered {
		m.RecoveryS = 0
		if s.lastBad >= 0 {
			_, fEnd, _ := s.sc.FaultWindow()
			m.RecoveryS = math.Max(0, float64(s.lastBad+1)*s.tickS-fEnd.Seconds())
		}
	}
	return m
}

// baseRate is the usual arrival rate the load ratios are measured against:
// Load, or for a closed loop without one, the rate at which its clients
// started requests before the first fault (over the whole run if none).
func (s *stochSim) baseRate() float64 {
	if s.sc.Load > 0 || !s.closed {
		return s.sc.Load
	}
	span := s.ticks
	if _, _, ok := s.sc.FaultWindow(); ok && s.from > 0 {
		span = s.from
	}
	return float64(s.preRequests) / (float64(span) * s.tickS)
}
