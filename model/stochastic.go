package model

import "math"

// stoch is the state of one run of the stochastic engine (see doc.go for
// the order of a tick and the rules). It owns the parts — arrivals, the
// chain's waits, the budgets, the server, health, the series — and the
// per-call rules that tie them: start, send, answer, retry or fail, time
// out, cancel. Each rule is written once; with Plan.Single every request
// is a group of one and the same rules run call by call.
type stoch struct {
	p   *Plan // the plan in force (a change's, after it)
	p0  *Plan // the run's plan: its changes, its fault window, its base rate
	r   *rng
	now int64
	seg int // segment of now

	waits   []waits // by layer
	bottom  int8
	srv     server
	budgets budgets
	arr     *arrivals
	health  health
	rec     *recorder
	cal     calendar
	gs      groups

	clientsApart bool  // arrivals are split over clients (per-client budgets)
	rr           int64 // constant arrivals over clients: round robin
	arrSplit     []split
	split        []split
	wakes        []int64 // per-tick budget: requests arriving per client this tick

	c           counts
	tk          tickCounts
	preRequests int64 // closed loop: requests started before the first fault

	g          *guard
	events     int   // events handled since the guard was last asked
	groupBytes int64 // a group's share of the live state (Plan.groupSize)
	// deadlines: some request of the run may have a deadline (a plan run
	// so far has one); without, every request's deadline is never.
	deadlines bool
	// jumpEmpty: ticks in which only arrivals are drawn and none comes
	// are jumped over (emptyJumpsExact, for every plan run so far).
	jumpEmpty bool

	changeAt int64        // the tick of the next change; never when none
	breakers [][]*breaker // by layer, then client; nil without breakers
	hedger   *hedger      // the bottom layer's hedging; nil without
	flakyAcc float64      // constant arrivals: the flaky share's fraction carried

	// okLat and errLat count the latencies of user requests answered with
	// a success and with an error (measure_latency); nil without.
	okLat, errLat *latencyHistogram
}

// runStochastic runs one seeded replicate of p.
func runStochastic(p *Plan, seed uint64, series bool, g *guard) (Metrics, *Series, []string) {
	s := newStoch(p, seed, series)
	s.g = g
	defer s.r.release()
	s.run()
	var ser *Series
	if s.rec != nil {
		ser = s.rec.done(s.srv.backlog(), s.inFlight())
	}
	return s.metrics(), ser, nil
}

func newStoch(p *Plan, seed uint64, series bool) *stoch {
	s := &stoch{p: p, p0: p, r: newRNG(p, seed), bottom: int8(len(p.Chain) - 1), changeAt: p.nextChange(-1)}
	for _, l := range p.Chain {
		s.waits = append(s.waits, newWaits(l))
	}
	s.srv = newServer(s)
	s.budgets = newBudgets(p, len(p.Chain), p.Clients, s.r)
	s.clientsApart = s.budgets.perClient()
	s.health = newHealth(p)
	s.c.peakRate = newPeakRate(p)
	if series {
		s.rec = newRecorder(p)
	}
	s.gs.recycle = !p.Cancel
	if p.Breakers {
		s.breakers = make([][]*breaker, len(p.Chain))
		for i, l := range p.Chain {
			if l.Breaker.Kind != BreakerNone {
				s.breakers[i] = make([]*breaker, p.Clients)
			}
		}
	}
	s.gs.poison = p.poison
	if p.Latencies {
		s.okLat, s.errLat = &latencyHistogram{}, &latencyHistogram{}
	}
	if h := p.Chain[s.bottom].Hedge; h.Delay > 0 {
		s.hedger = newHedger(p, h, p.Chain[s.bottom].Timeout)
	}

	// Calendar horizon: the longest wait anything is scheduled ahead by.
	h := int64(2)
	for i, l := range p.Chain {
		h = max(h, l.Timeout+1)
		h = max(h, int64(math.Min(s.waits[i].longest(l.Attempts), float64(p.Ticks)))+2)
	}
	h = max(h, p.ThinkTicks+1, int64(p.Network.Delay)*2+2, int64(math.Round(p.Latency*p.TPS))+2)
	s.cal = newCalendar(min(h, p.Ticks+1))
	s.cal.dropRefs = !s.gs.recycle
	s.jumpEmpty = emptyJumpsExact(p, series)
	s.groupBytes = p.groupSize()
	s.deadlines = p.Deadline >= 0
	return s
}

// ---- the run ----

func (s *stoch) run() {
	p := s.p
	s.now = -1
	if p.Arrivals == ArriveClosed {
		s.scheduleClients()
	}
	s.arr = newArrivals(p, s.r)
	last := int64(-1)
	for t := s.nextTick(-1); t < p.Ticks; t = s.nextTick(t) {
		if t > last+1 {
			s.idle(last+1, t)
		}
		s.step(t)
		last = t
		if s.g != nil && !s.g.tick(s.live(), float64(t)*p.TickS) {
			return
		}
	}
	if last+1 < p.Ticks {
		s.idle(last+1, p.Ticks)
	}
}

// poll counts one event of the tick and asks the guard every 4096 of them:
// false when the run must end now.
func (s *stoch) poll() bool {
	if s.events++; s.events < 4096 {
		return true
	}
	return s.ask()
}

// ask asks the guard whether the run may go on, within a tick.
func (s *stoch) ask() bool {
	s.events = 0
	return s.g.ok(s.live(), float64(s.now)*s.p.TickS)
}

// nextTick returns the next tick after t in which something can happen:
// ticks in which arrivals are drawn but none comes, and nothing else
// happens, are jumped over (their draws are made ahead, in the same order).
func (s *stoch) nextTick(t int64) int64 {
	if t < 0 && (s.p.Backlog > 0 || s.p.Abandoned > 0) {
		return t + 1
	}
	if !s.jumpEmpty {
		if s.arr.next == t+1 {
			return t + 1
		}
		return min(s.p.Ticks, s.arr.next, s.cal.next(t), s.srv.next(t), s.changeAt)
	}
	// The next tick's arrivals may be drawn now unless a change comes
	// first; when there are some, it is the next tick.
	end := min(s.p.Ticks, s.changeAt)
	if x := s.arr.ahead(min(t+2, end)); x == t+1 {
		return x
	}
	return s.arr.ahead(min(end, s.cal.next(t), s.srv.next(t)))
}

// emptyJumpsExact reports whether, in a run of p, a tick in which arrivals
// are drawn and none comes, and nothing else happens, may be jumped over:
// the dependency then accrues in a stretch of such ticks exactly what it
// would tick by tick (a loss server of a whole number of calls per tick,
// without overload collapse), and so does the series (whole capacities
// per second). Otherwise such ticks are run one by one, as the numbers
// they give depend on it in the last bits.
func emptyJumpsExact(p *Plan, series bool) bool {
	if p.Server != ServerLoss || p.Collapse.On() {
		return false
	}
	for i := range p.Faults {
		sg := &p.Faults[i]
		if sg.PerTick < 0 || series && sg.CapRate != math.Trunc(sg.CapRate) {
			return false
		}
	}
	return true
}

// step runs tick t.
func (s *stoch) step(t int64) {
	s.now = t
	if t == s.changeAt {
		s.adopt(s.p0.planAt(t))
		s.changeAt = s.p0.nextChange(t)
	}
	p := s.p
	if len(s.cal.far) > 0 {
		s.cal.migrate(t)
	}
	s.seg = p.SegmentAt(s.seg, t)
	sg := &p.Faults[s.seg]
	s.tk = tickCounts{}

	// 1. the tick's new requests, and the per-tick allowances (the first
	// tick then starts in the initial state)
	var n int64
	if t == s.arr.next {
		n = s.arr.draw(t)
	}
	s.c.requests += n
	s.tk.requests += n
	s.arrSplit = s.arrSplit[:0]
	if n > 0 {
		clients := int64(1)
		if s.clientsApart {
			clients = int64(p.Clients)
		}
		s.arrSplit = splitClients(s.arrSplit, s.r, n, clients, p.Arrivals == ArriveConstant, p.Single, &s.rr)
	}
	sl := s.cal.slot(t)
	busy := s.cal.busyAt(t)
	if s.budgets.ticks() {
		s.tickBudgets(sl)
	}
	s.srv.begin(t, sg)
	if t == 0 {
		s.initial()
	}

	// 2. events in scheduling order, then the new requests
	if busy {
		for i := 0; i < len(sl.lists[phStart]); i++ {
			if !s.poll() {
				return // the run ends here
			}
			ev := &sl.lists[phStart][i]
			switch ev.kind {
			case evStart:
				s.startEvent(ev)
			case evArrive:
				s.toServer(ev.g, ev.n)
				s.gs.release(ev.g)
			case evAnswer:
				s.answer(ev.g, ev.n, ev.out)
				s.gs.release(ev.g)
			case evWake:
				s.c.requests += ev.n
				s.tk.requests += ev.n
				if t < p.Fault.From || p.Fault.From == 0 {
					s.preRequests += ev.n
				}
				s.startRoots(ev.client, ev.n)
			}
		}
	}
	for _, a := range s.arrSplit {
		s.startRoots(int32(a.d), a.n)
	}

	// 3. the dependency works
	s.srv.work(t, sg, sl.lists[phService])
	// 4. hedges and deadlines
	for i := 0; i < len(sl.lists[phTimeout]); i++ {
		ev := &sl.lists[phTimeout][i]
		if ev.kind == evHedge {
			s.hedgeNow(ev.g)
		} else {
			s.timeout(ev.g)
		}
		s.gs.release(ev.g)
	}
	if busy || len(sl.lists[phTimeout]) > 0 || len(sl.lists[phService]) > 0 {
		s.cal.clear(t)
	}
	s.srv.end()

	// 5. measurements
	s.c.peakCalls = max(s.c.peakCalls, s.tk.calls)
	s.c.peakRate.tick(t, s.tk.calls)
	q := s.srv.backlog()
	s.c.peakQueue = max(s.c.peakQueue, q)
	unhealthy := s.health.observe(t, s.tk.ok, s.tk.requests, q, s.work(q))
	if s.rec != nil {
		s.rec.add(t, &s.tk, sg.CapRate, unhealthy, q, s.inFlight())
	}
}

// adopt makes the run follow np, a change's plan, from now on. The parts a
// change may reconfigure are made anew from it where their keys changed: a
// budget or a breaker starts afresh, as a new configuration deployed does;
// the waits, the hedger, the arrivals and the server's settings follow the
// new keys. Groups in flight keep their deadlines; a try that fails from
// now on retries as the new attempts and backoff say.
func (s *stoch) adopt(np *Plan) {
	old := s.p
	s.p = np
	s.seg = np.SegmentAt(0, s.now)
	for i, l := range np.Chain {
		s.waits[i] = newWaits(l)
	}
	if old.Budget != np.Budget {
		s.budgets = newBudgets(np, len(np.Chain), np.Clients, s.r)
		s.clientsApart = s.budgets.perClient()
	}
	if np.Breakers && s.breakers == nil {
		s.breakers = make([][]*breaker, len(np.Chain))
	}
	for i, l := range np.Chain {
		if s.breakers != nil && old.Chain[i].Breaker != l.Breaker {
			s.breakers[i] = nil
			if l.Breaker.Kind != BreakerNone {
				s.breakers[i] = make([]*breaker, np.Clients)
			}
		}
	}
	if h := np.Chain[s.bottom].Hedge; h != old.Chain[s.bottom].Hedge {
		s.hedger = nil
		if h.Delay > 0 {
			s.hedger = newHedger(np, h, np.Chain[s.bottom].Timeout)
		}
	}
	s.srv.adopt(old, np)
	s.jumpEmpty = s.jumpEmpty && emptyJumpsExact(np, s.rec != nil)
	s.deadlines = s.deadlines || np.Deadline >= 0
	s.arr.restart(np, s.now)
	s.health.limit = np.Health.Limit
}

// initial sets up the state the run starts in (in tick 0, before
// anything else): the abandoned calls wait at the dependency, for a caller
// that is gone; the backlog's requests start, spread over the clients.
func (s *stoch) initial() {
	p := s.p
	if p.Abandoned > 0 {
		g := s.open(nil, s.bottom, 1, 0, 0, 0, never, 0, p.Abandoned)
		g.state = gsClosed
		s.srv.arrive(g, p.Abandoned)
		s.gs.release(g)
	}
	if p.Backlog > 0 {
		s.c.requests += p.Backlog
		s.tk.requests += p.Backlog
		per, extra := p.Backlog/int64(p.Clients), p.Backlog%int64(p.Clients)
		for c := range p.Clients {
			if n := per + min(1, max(0, extra-int64(c))); n > 0 {
				s.startRoots(c, n)
			}
		}
	}
}

// tickBudgets gives the budgets the tick's arrivals: the new requests, and
// the closed loop's clients waking now.
func (s *stoch) tickBudgets(sl *calSlot) {
	n := 1
	if s.budgets.scope == ScopeClient {
		n = len(s.budgets.list)
	}
	if cap(s.wakes) < n {
		s.wakes = make([]int64, n)
	}
	w := s.wakes[:n]
	clear(w)
	at := func(c int32) int {
		if n == 1 {
			return 0
		}
		return int(c)
	}
	for _, a := range s.arrSplit {
		w[at(int32(a.d))] += a.n
	}
	for _, ev := range sl.lists[phStart] {
		if ev.kind == evWake {
			w[at(ev.client)] += ev.n
		}
	}
	s.budgets.tick(s.now, w)
}

// idle accounts for ticks a..b−1 in which nothing happened.
func (s *stoch) idle(a, b int64) {
	s.srv.idle(a, b)
	q := s.srv.backlog()
	var mark func(x, y int64, unhealthy bool)
	if s.rec != nil {
		inflight := s.inFlight()
		mark = func(x, y int64, unhealthy bool) { s.rec.idle(x, y, unhealthy, s.capacityOver, q, inflight) }
	}
	s.health.idle(a, b, q, s.work(q), mark)
}

// work is what the dependency holds for the verdict's end watch, with q
// calls waiting or in flight there: those, or at a loss server, which
// holds nothing, the user requests without an answer yet.
func (s *stoch) work(q int64) int64 {
	if s.p.Server == ServerLoss {
		return s.inFlight()
	}
	return q
}

// capacityOver sums the capacity per second over ticks a..b−1.
func (s *stoch) capacityOver(a, b int64) float64 {
	var c float64
	for x, i := a, s.seg; x < b; {
		i = s.p.SegmentAt(i, x)
		sg := &s.p.Faults[i]
		e := min(b, sg.To)
		c += float64(e-x) * sg.CapRate
		x = e
	}
	return c
}

// live is the bytes of state the run holds: its groups, its scheduled
// events, the calls queued at the dependency and its series.
func (s *stoch) live() int64 {
	b := s.gs.live*s.groupBytes + s.cal.n*eventBytes + s.srv.entries()*entryBytes
	if s.rec != nil {
		b += int64(len(s.rec.s.Rows)) * seriesBytes
	}
	return b
}

// inFlight is the user requests without an answer yet.
func (s *stoch) inFlight() int64 { return s.c.requests - s.c.ok - s.c.failed }

// schedule adds an event, which pins its group until it has run.
func (s *stoch) schedule(at int64, ph uint8, ev event) {
	if ev.g != nil {
		ev.g.refs++
	}
	s.cal.add(s.now, at, ph, ev)
}

// ---- the chain ----

// startRoots starts n new user requests of client c: one group, or with
// Single one group each.
func (s *stoch) startRoots(c int32, n int64) {
	dl := never
	if s.p.Deadline >= 0 {
		dl = s.now + s.p.Deadline
	}
	if s.p.Single {
		for range n {
			s.start(nil, 0, 1, c, 0, flagsOf(false, s.flaky(1) > 0, false), dl, s.now, 1)
		}
		return
	}
	if f := s.flaky(n); f > 0 {
		s.start(nil, 0, 1, c, 0, startFlaky, dl, s.now, f)
		n -= f
	}
	if n > 0 {
		s.start(nil, 0, 1, c, 0, 0, dl, s.now, n)
	}
}

// flaky is how many of n new requests are flaky: the share, fractions
// carried over, for constant arrivals and bursts; binomial otherwise.
func (s *stoch) flaky(n int64) int64 {
	if s.p.FlakyShare == 0 || s.p.FlakyTries == 0 {
		return 0
	}
	return s.flakyOf(n)
}

// flakyOf is flaky when some requests are.
func (s *stoch) flakyOf(n int64) int64 {
	p := s.p
	switch {
	case p.Arrivals == ArriveConstant || p.Arrivals == ArriveBurst:
		s.flakyAcc += p.FlakyShare * float64(n)
		f := int64(s.flakyAcc + 1e-9)
		s.flakyAcc -= float64(f)
		return f
	}
	return binomial(s.r, n, p.FlakyShare)
}

// startEvent starts the group an evStart describes. With cancel_abandoned,
// a group whose parent is no longer waiting is not started: its caller
// gave up, or was cancelled from above.
//
// The event's reference to the parent passes to the group it starts, and
// without request deadlines in the run there is none to read from the
// parent, so starting it need not touch the parent (in a storm it is
// rarely in cache).
func (s *stoch) startEvent(ev *event) {
	parent := ev.parent()
	opened := false
	if parent == nil || !s.p.Cancel || parent.state == gsOpen {
		var arrived int64
		f := ev.start
		if f.has(startSibling) {
			arrived = ev.g.arrivedAt()
		} else if parent != nil {
			f |= startPinned
		}
		dl := never
		if s.deadlines {
			dl = ev.reqDL()
		}
		opened = s.start(parent, ev.layer, ev.attempt, ev.client, ev.wait, f&^startSibling, dl, arrived, ev.n)
	}
	if ev.g != nil && !(opened && ev.start&startSibling == 0) {
		s.gs.release(ev.g)
	}
}

// start sends n instances of a layer's try: no try without time left
// before the request's deadline, none through an open breaker (a breaker
// outside the retry is asked by a call's first try only), none the budget
// turns away; then the counts, the try's deadline, and the calls passed
// down (to the layer below, or to the dependency from the bottom), after
// the network delay. f says what kind of try it is; a try after the first
// is a retry whatever f says. arrived is the tick the user request arrived,
// for a try of the top layer (parent nil). It reports whether it opened a
// group (which took the reference to the parent f says is handed over).
func (s *stoch) start(parent *group, layer int8, attempt, client, wait int32, f startFlags, dl, arrived, n int64) bool {
	if dl <= s.now {
		s.refuse(byDeadline, n)
		if attempt > 1 { // a retry: its call is past the breaker
			s.failCall(parent, layer, client, n, answerFail, arrived)
		} else {
			s.failUp(parent, layer, client, n, answerFail, arrived)
		}
		return false
	}
	if s.breakers != nil && (attempt == 1 || !s.p.Chain[layer].Breaker.PerCall) {
		if n = s.throughBreaker(parent, layer, client, n, arrived); n == 0 {
			return false
		}
	}
	if s.budgets.on() {
		ok := s.budgets.send(layer, client, attempt > 1, n)
		if refused := n - ok; refused > 0 {
			s.refuse(byBudget, refused)
			s.failCall(parent, layer, client, refused, answerFail, arrived)
		}
		if n = ok; n == 0 {
			return false
		}
	}
	if attempt > 1 {
		f |= startRetry
	}
	g := s.open(parent, layer, attempt, client, wait, f, dl, arrived, n)
	if layer == s.bottom && s.hedger != nil {
		s.hedgeLater(g)
	}
	s.launch(g)
	return true
}

// open makes the group of n instances of a layer's try, waiting from now;
// it is pinned until launch releases it. A group of the top layer keeps
// the tick its user request arrived when latencies are measured. It holds
// a reference to its parent: one more, or the one handed over
// (startPinned).
func (s *stoch) open(parent *group, layer int8, attempt, client, wait int32, f startFlags, dl, arrived, n int64) *group {
	g := s.gs.get() // a fresh or recycled group
	deadline := dl
	if t := s.p.Chain[layer].Timeout; t >= 0 {
		deadline = min(s.now+t, dl)
	}
	g.parent, g.waiting, g.queued, g.deadline = parent, n, 0, deadline
	g.attempt, g.client, g.prevWait, g.refs = int16(attempt), client, wait, 1 // pinned while it starts
	g.layer, g.state, g.retry, g.afterTimeout, g.flaky, g.gave = layer, gsOpen, f.has(startRetry), f.has(startAfterTimeout), f.has(startFlaky), false
	g.setReqDL(dl)
	if g.x != nil {
		*g.x = groupExtra{}
	}
	if s.hedger != nil && layer == s.bottom {
		g.ext().born = s.now
	}
	if s.okLat != nil && parent == nil {
		g.ext().arrived = arrived
	}
	if parent != nil {
		if !f.has(startPinned) {
			parent.refs++
		}
		if s.p.Cancel {
			x := parent.ext()
			x.kids = append(x.kids, g)
		}
	}
	return g
}

// launch passes an opened group's calls down (to the layer below, or to
// the dependency from the bottom), after the network delay, and sets its
// deadline.
func (s *stoch) launch(g *group) {
	n, layer := g.waiting, g.layer
	if s.p.Network.Kind == NetworkNone {
		s.down(g, n)
	} else {
		var buf [8]split // s.split is reused below
		for _, x := range append(buf[:0], s.netSplit(n, 0)...) {
			switch {
			case x.d == 0:
				s.down(g, x.n)
			case s.now+x.d >= s.p.Ticks:
			case layer == s.bottom:
				s.schedule(s.now+x.d, phStart, event{kind: evArrive, g: g, n: x.n})
			default:
				s.schedule(s.now+x.d, phStart, event{kind: evStart, g: g, layer: layer + 1, attempt: 1,
					client: g.client, start: flagsOf(g.retry, g.flaky, false), n: x.n})
			}
		}
	}
	if g.state == gsOpen && g.waiting > 0 && g.deadline < s.p.Ticks {
		s.schedule(g.deadline, phTimeout, event{kind: evTimeout, g: g})
	}
	s.gs.release(g)
}

// down passes n calls of g to what is below it now: the next layer, or the
// dependency.
func (s *stoch) down(g *group, n int64) {
	if g.layer == s.bottom {
		s.toServer(g, n)
		return
	}
	s.start(g, g.layer+1, 1, g.client, 0, flagsOf(g.retry, g.flaky, false), g.reqDL(), 0, n)
}

// toServer counts n calls of g reaching the dependency and hands them over.
func (s *stoch) toServer(g *group, n int64) {
	if g.state == gsFree {
		panic("stochastic engine: calls of a recycled group")
	}
	s.c.calls += n
	s.tk.calls += n
	if g.retry {
		s.tk.retries += n
	}
	if s.now >= s.p.Fault.From && s.now < s.p.Fault.To {
		s.c.windowCalls += n
	}
	if g.flaky && int32(g.attempt) <= s.p.FlakyTries {
		s.fail(g, n, 0) // a transient error, answered at once
		return
	}
	s.srv.arrive(g, n)
}

// serviceTicks is how long a capacity server takes to answer a call it
// serves now: the service latency, times a slowdown's factor.
func (s *stoch) serviceTicks() int64 {
	if s.p.Latency == 0 {
		return 0
	}
	return int64(math.Round(s.p.Latency * s.p.Faults[s.seg].LatFactor * s.p.TPS))
}

// complete records that the dependency finished k calls of g now and
// answers them, extra ticks later: each fails anyway with the background
// failure probability.
func (s *stoch) complete(g *group, k, extra int64) {
	s.served(k)
	if g.state != gsOpen {
		s.waste(k) // nobody waits for it
		return
	}
	var f int64
	if s.p.FailureP > 0 {
		if f = s.failures(k); f > 0 && !awaited(g) {
			s.waste(f) // a failure nobody up the chain waits for
		}
	}
	if k-f > 0 {
		s.reply(g, k-f, answerOK, extra)
	}
	if f > 0 {
		s.fail(g, f, extra)
	}
}

// fail answers k calls of g with an error from the dependency, extra ticks
// later: a share of them not retryable (fatal_share).
func (s *stoch) fail(g *group, k, extra int64) {
	var fatal int64
	if s.p.FatalShare > 0 {
		fatal = binomial(s.r, k, s.p.FatalShare)
	}
	if k-fatal > 0 {
		s.reply(g, k-fatal, answerFail, extra)
	}
	if fatal > 0 {
		s.reply(g, fatal, answerFatal, extra)
	}
}

// failures draws how many of k served calls fail anyway: one draw per call
// (failing below the probability) for a single call, binomial otherwise.
func (s *stoch) failures(k int64) int64 {
	if k == 1 {
		if s.r.float64() < s.p.FailureP {
			return 1
		}
		return 0
	}
	return binomial(s.r, k, s.p.FailureP)
}

func (s *stoch) served(k int64) {
	s.c.served += k
	s.tk.served += k
}

// waste records k served calls whose work reaches nobody.
func (s *stoch) waste(k int64) {
	s.c.wasted += k
	s.tk.wasted += k
}

// refuse counts k tries not made, or failed tries not retried, and why.
func (s *stoch) refuse(why refusal, k int64) {
	s.c.refusedBy[why] += k
	s.tk.refusedBy[why] += k
	if why != byFatal {
		s.c.refused += k
		s.tk.refused += k
	}
}

// throughBreaker lets n tries of a layer for a client through its breaker
// and returns how many passed; the ones an open breaker turns away fail at
// once, and count as refused (arrived: as for start).
func (s *stoch) throughBreaker(parent *group, layer int8, client int32, n, arrived int64) int64 {
	b := s.breakerOf(layer, client)
	if b == nil {
		return n
	}
	ok := b.allow(s.now, n)
	if refused := n - ok; refused > 0 {
		s.refuse(byBreaker, refused)
		s.failUp(parent, layer, client, refused, answerFail, arrived)
	}
	return ok
}

// breakerOf is the circuit breaker on a layer's calls for a client, or
// nil, in a run with breakers (s.breakers not nil): made on the client's
// first call through the layer.
func (s *stoch) breakerOf(layer int8, client int32) *breaker {
	if s.breakers[layer] == nil {
		return nil
	}
	b := s.breakers[layer][client]
	if b == nil {
		b = newBreaker(s.p.Chain[layer].Breaker)
		s.breakers[layer][client] = b
	}
	return b
}

// count records k of g's tries that ended, ok or failed, with their
// layer's breaker when it sits inside the retry (it counts every try).
func (s *stoch) count(g *group, k int64, ok bool) {
	if !s.p.Chain[g.layer].Breaker.PerCall {
		s.tell(g.layer, g.client, k, ok)
	}
}

// callOver records k calls of a layer for a client that ended, succeeded
// (ok) or failed for good, with the layer's breaker when it sits outside
// the retry: one outcome per call, whatever its tries were.
func (s *stoch) callOver(layer int8, client int32, k int64, ok bool) {
	if s.p.Chain[layer].Breaker.PerCall {
		s.tell(layer, client, k, ok)
	}
}

// tell gives a layer's breaker for a client k outcomes, successes (ok) or
// failures.
func (s *stoch) tell(layer int8, client int32, k int64, ok bool) {
	if b := s.breakerOf(layer, client); b != nil {
		if ok {
			b.record(s.now, k, 0)
		} else {
			b.record(s.now, 0, k)
		}
	}
}

// reply sends k answers to g; they take extra ticks plus the network
// delay. A success that reaches a caller who gave up, at whatever hop, is
// wasted work.
func (s *stoch) reply(g *group, k int64, out outcome, extra int64) {
	if g.state != gsOpen {
		if out == answerOK {
			s.waste(k)
		}
		return
	}
	if s.p.Network.Kind == NetworkNone && extra == 0 {
		s.answer(g, k, out)
		return
	}
	var buf [8]split // s.split is reused below
	for _, x := range append(buf[:0], s.netSplit(k, extra)...) {
		if x.d == 0 {
			s.answer(g, x.n, out)
		} else if s.now+x.d < s.p.Ticks {
			s.schedule(s.now+x.d, phStart, event{kind: evAnswer, g: g, n: x.n, out: out})
		}
	}
}

// answer delivers k answers to g's waiting instances.
func (s *stoch) answer(g *group, k int64, out outcome) {
	if g.state != gsOpen {
		if g.state == gsFree {
			panic("stochastic engine: an answer for a recycled group")
		}
		if out == answerOK {
			s.waste(k) // given up or cancelled: the success is ignored
		}
		return
	}
	if k > g.waiting {
		panic("stochastic engine: more answers than instances waiting")
	}
	if g.pair() != nil {
		s.answerHedged(g, k, out)
		return
	}
	g.waiting -= k
	if g.waiting == 0 {
		g.state = gsDone
	}
	s.budgets.end(g.layer, g.client, g.attempt > 1, k)
	s.settle(g, k, out)
}

// settle passes on k tries of g that have their answer: the breaker counts
// them, successes go up, failures retry or fail.
func (s *stoch) settle(g *group, k int64, out outcome) {
	ok := out == answerOK
	if s.breakers != nil {
		s.count(g, k, ok)
	}
	if !ok {
		s.retryOrFail(g, k, false, out)
		return
	}
	if s.hedger != nil && g.layer == s.bottom {
		s.hedger.succeeded(s.now, s.now-g.x.born, k)
	}
	s.succeed(g, k)
}

// succeed passes k successes of g's layer up: their calls succeeded.
func (s *stoch) succeed(g *group, k int64) {
	s.budgets.succeed(g.layer, g.client, k, g.sentAsRetry(), g.afterTimeout)
	if s.breakers != nil {
		s.callOver(g.layer, g.client, k, true)
	}
	if g.parent == nil {
		s.c.ok += k
		s.tk.ok += k
		if s.okLat != nil {
			s.okLat.add(s.now-g.arrivedAt(), k)
		}
		s.finished(g.client, k)
		return
	}
	s.reply(g.parent, k, answerOK, 0)
}

// failCall reports that k calls of a layer that passed its breaker failed
// for good: a breaker outside the retry counts each once, and their caller
// (parent), or the user whose request arrived in tick arrived, sees the
// failure.
func (s *stoch) failCall(parent *group, layer int8, client int32, k int64, out outcome, arrived int64) {
	if s.breakers != nil {
		s.callOver(layer, client, k, false)
	}
	s.failUp(parent, layer, client, k, out, arrived)
}

// failUp reports that k instances of a layer failed for good to their
// caller (parent), or to the user, whose request arrived in tick arrived;
// an answer no caller retries stays one on its way up. failCall is the way
// for calls a breaker let through.
func (s *stoch) failUp(parent *group, layer int8, client int32, k int64, out outcome, arrived int64) {
	if parent == nil {
		s.c.failed += k
		s.tk.failures += k
		if s.errLat != nil {
			s.errLat.add(s.now-arrived, k)
		}
		s.finished(client, k)
		return
	}
	s.reply(parent, k, out, 0)
}

// retryOrFail handles k instances of g that failed now (by timing out, or
// by an error answer): with attempts left and the budget's leave, each
// retries after its wait; otherwise its caller sees a failure.
func (s *stoch) retryOrFail(g *group, k int64, timeout bool, out outcome) {
	l := &s.p.Chain[g.layer]
	last := int32(g.attempt) >= l.Attempts
	if why, ok := out.noRetry(); ok {
		if !last {
			s.refuse(why, k)
		}
		s.failCall(g.parent, g.layer, g.client, k, out, g.arrivedAt())
		return
	}
	allowed := s.budgets.fail(g.layer, g.client, k, timeout, last)
	if last {
		s.failCall(g.parent, g.layer, g.client, k, answerFail, g.arrivedAt())
		return
	}
	if refused := k - allowed; refused > 0 {
		s.refuse(byBudget, refused)
		s.failCall(g.parent, g.layer, g.client, refused, answerFail, g.arrivedAt())
	}
	if allowed == 0 {
		return
	}
	s.split = s.waits[g.layer].draw(s.split, s.r, int32(g.attempt), g.prevWait, allowed)
	// The retries' event, but for its wait and count; a retry of a user
	// request under a deadline, or whose latency is measured, has no
	// parent to hold what it needs, so g holds it (startSibling).
	ev := event{kind: evStart, g: g.parent, layer: g.layer, attempt: int32(g.attempt) + 1,
		client: g.client, start: flagsOf(true, g.flaky, timeout && s.budgets.timeouts)}
	if g.parent == nil && (g.reqDL() != never || s.okLat != nil) {
		ev.g, ev.start = g, ev.start|startSibling
	}
	for _, x := range s.split { // nothing below reuses s.split
		due := s.now + 1 + x.d
		if due >= s.p.Ticks {
			continue // due after the run: still pending when it ends
		}
		ev.wait, ev.n = int32(min(x.d, math.MaxInt32)), x.n
		if !s.p.Single {
			if e := s.cal.last(s.now, due, phStart); e != nil && s.sameStart(e, &ev, g) {
				e.n += x.n
				continue
			}
		}
		if ev.g == g.parent && g.giveParent() {
			s.cal.add(s.now, due, phStart, ev) // pinned by g's reference
			continue
		}
		s.schedule(due, phStart, ev)
	}
}

// sameStart reports whether e, an event scheduled, starts the same group as
// ev, g's retry, so that ev's instances can join it: the same parent,
// layer, attempt, client, wait, kind of try and request deadline, and for
// retries of user requests (startSibling) the same arrival.
func (s *stoch) sameStart(e, ev *event, g *group) bool {
	return e.kind == evStart && e.parent() == g.parent && e.layer == ev.layer && e.attempt == ev.attempt &&
		e.client == ev.client && e.wait == ev.wait && e.start&^startSibling == ev.start&^startSibling &&
		e.reqDL() == g.reqDL() && (!e.start.has(startSibling) || e.g.arrivedAt() == g.arrivedAt())
}

// timeout makes g's caller give up on the instances still waiting.
func (s *stoch) timeout(g *group) {
	if g.state == gsFree {
		panic("stochastic engine: a deadline for a recycled group")
	}
	if g.state != gsOpen || g.waiting == 0 {
		return
	}
	k := g.waiting
	if hg := g.pair(); hg != nil {
		k = s.timeoutHedged(g) // the tries, not the copies, fail
		g.waiting, g.state = 0, gsClosed
		s.pairOver(hg)
	} else {
		s.budgets.end(g.layer, g.client, g.attempt > 1, k)
		g.waiting, g.state = 0, gsClosed
	}
	s.tk.timeouts += k
	if s.breakers != nil {
		s.count(g, k, false)
	}
	if s.p.DropExpired && g.queued > 0 {
		s.srv.withdraw(g, g.queued)
	}
	if s.p.Cancel {
		s.cancelBelow(g)
	}
	if k > 0 {
		s.retryOrFail(g, k, true, answerFail)
	}
}

// cancelBelow cancels every group started for g that is still open, and
// theirs, withdrawing their calls from the dependency's waiting room.
// Retries and calls not yet started for them see their parent closed and
// do not start.
func (s *stoch) cancelBelow(g *group) {
	if g.x == nil || g.x.kids == nil {
		return
	}
	for _, k := range g.x.kids {
		if k.state == gsOpen {
			k.state = gsCancelled
			s.budgets.end(k.layer, k.client, k.sentAsRetry(), k.awaitedCopies())
			if k.queued > 0 {
				s.srv.withdraw(k, k.queued)
			}
			if k.pair() != nil {
				s.pairOver(k.x.hg)
			}
			s.cancelBelow(k)
		}
	}
	g.x.kids = nil
}

// ---- measurements ----

// metrics turns the run's counts into Metrics.
func (s *stoch) metrics() Metrics {
	m := s.c.metrics(s.p0, s.baseRate())
	s.health.verdict(&m, s.p0)
	if s.okLat != nil {
		ts := s.p0.TickS
		m.LatencyP50, m.LatencyP95, m.LatencyP99 = s.okLat.seconds(0.5, ts), s.okLat.seconds(0.95, ts), s.okLat.seconds(0.99, ts)
		m.ErrorLatencyP50, m.ErrorLatencyP99 = s.errLat.seconds(0.5, ts), s.errLat.seconds(0.99, ts)
	}
	return m
}

// baseRate is the usual arrival rate the load ratios are measured against:
// Load, or for a closed loop without one, the rate at which its clients
// started requests before the first fault (over the whole run if none).
func (s *stoch) baseRate() float64 {
	p := s.p0
	if p.Load > 0 || p.Arrivals != ArriveClosed {
		return p.BaseRate()
	}
	span := p.Ticks
	if p.Fault.Has && p.Fault.From > 0 {
		span = p.Fault.From
	}
	return float64(s.preRequests) / (float64(span) * p.TickS)
}
