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
	front   fronted // the server, when new requests wait behind part of its backlog (healthBacklog)
	budgets budgets
	arr     *arrivals
	health  health
	rec     *recorder
	cal     calendar
	gs      groups

	clientsApart bool  // arrivals are split over clients (per-client budgets or limiters)
	rr           int64 // constant arrivals over clients: round robin
	arrSplit     []split
	split        []split
	svcTicks     serviceTicks // completeServed's law in ticks
	svcSplit     []split      // completeServed's split of a group over its service times (apart from split, which answering uses)
	pows         powers       // failures' draws: q^n remembered
	wakes        []int64      // per-tick budget: requests arriving per client this tick

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
	last     int64        // the last tick run or idled over (stochastic_advance.go)
	until    int64        // the end of the stretch advance runs: nothing is drawn ahead past it
	breakers [][]*breaker // by layer, then client; nil without breakers
	lims     *limiters    // the layers' concurrency limits; nil without
	hedgers  []*hedger    // by layer, the hedging of a layer that hedges (a chain's bottom layer, a graph's calls to a server); nil when none does
	graph    *graphRun    // a service graph's calls and servers; nil for a chain
	entries  *entrySplit  // a graph's entry points, when it has several
	flakyAcc float64      // constant arrivals: the flaky share's fraction carried

	// gated, stamps and ends fold the checks of the policies a try meets
	// into one each on the paths every try takes (see their refresh):
	// some layer has a breaker or a limiter; a group opened needs its
	// extra part stamped (hedging, latencies, an adaptive limit); the
	// budgets or the limiters hear of tries that end.
	gated, stamps, ends bool

	// okLat and errLat count the latencies of user requests answered with
	// a success and with an error (measure_latency); nil without.
	okLat, errLat *latencyHistogram

	warmed uint8 // what warm read, kept so that its reads are made
}

// warmRun is how many of a tick's timeouts warm reads ahead at a time.
const warmRun = 256

// runStochastic runs one seeded replicate of p.
func runStochastic(p *Plan, seed uint64, series bool, g *guard) (Metrics, *Series, []string) {
	return runStochasticTo(p, seed, series, g, nil)
}

// runStochasticTo is runStochastic; with a graph, *graph (when graph is
// not nil) receives the values of its columns (GraphMetrics).
func runStochasticTo(p *Plan, seed uint64, series bool, g *guard, graph *[]float64) (Metrics, *Series, []string) {
	s := newStoch(p, seed, series)
	s.g = g
	defer s.r.release()
	s.run()
	var ser *Series
	if s.rec != nil {
		ser = s.rec.done(s.srv.backlog(), s.inFlight())
		if s.graph != nil {
			ser.Services = s.graph.health.series.done(s.graph.health.held)
		}
	}
	if graph != nil && s.graph != nil {
		*graph = s.graph.values(p, s.c.ok, s.c.failed)
	}
	return s.metrics(), ser, nil
}

func newStoch(p *Plan, seed uint64, series bool) *stoch {
	s := &stoch{p: p, p0: p, r: newRNG(p, seed), bottom: int8(len(p.Chain) - 1), changeAt: p.nextChange(-1)}
	for _, l := range p.Chain {
		s.waits = append(s.waits, newWaits(l))
	}
	if p.Graph != nil {
		s.graph = newGraphRun(s)
		s.srv = s.graph.servers
		s.entries = newEntrySplit(p)
	} else {
		s.srv = newServer(s)
	}
	if f, ok := s.srv.(fronted); ok {
		if _, on := f.front(); on { // priority classes, for the whole run
			s.front = f
		}
	}
	s.budgets = newBudgets(p, len(p.Chain), p.Clients, s.r)
	s.lims = newLimiters(p)
	s.clientsApart = s.budgets.perClient() || s.lims.perClient()
	s.health = newHealth(p)
	s.c.peakRate = newPeakRate(p)
	if series {
		s.rec = newRecorder(p)
		if s.graph != nil {
			s.graph.health.series = newGraphSeries(p, s.graph)
		}
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
	for i, l := range p.Chain {
		if l.Hedge.Delay > 0 {
			s.hedge(i, p, l)
		}
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
	s.refresh()
	s.groupBytes = p.groupSize()
	s.deadlines = p.Deadline >= 0
	return s
}

// ---- the run ----

func (s *stoch) run() {
	s.begin()
	s.advance(s.p.Ticks)
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
	end := min(s.p.Ticks, s.changeAt, s.until)
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
	if p.Server != ServerLoss || p.Collapse.On() || p.Graph != nil {
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
			case evDown:
				s.downEvent(ev)
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
			case evAdmit:
				s.admitWaiting(ev.layer, ev.client)
			case evCallOut:
				s.callOutEvent(ev)
				s.gs.release(ev.g)
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
		if i%warmRun == 0 {
			s.warmed |= warm(sl.lists[phTimeout][i:min(i+warmRun, len(sl.lists[phTimeout]))])
		}
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
	hq := s.healthBacklog(q)
	unhealthy := s.health.observe(t, s.tk.ok, s.tk.requests, hq, s.work(hq))
	if s.graph != nil {
		s.graph.health.observe(t, s.graph.servers)
	}
	if s.rec != nil {
		s.rec.add(t, &s.tk, sg.CapRate, unhealthy, q, s.inFlight())
	}
}

// adopt makes the run follow np, a change's plan, from now on. The parts a
// change may reconfigure are made anew from it where their keys changed: a
// budget or a breaker starts afresh, as a new configuration deployed does
// (a graph's budgets also when the calls they cover change, with their
// scope); the waits, the hedgers, the arrivals and the server's settings
// follow the new keys, layer by layer (a graph's calls, each with its
// edge's policy) and server by server. Groups in flight keep their
// deadlines; a try that fails from now on retries as the new attempts and
// backoff say.
func (s *stoch) adopt(np *Plan) {
	old := s.p
	s.p = np
	s.seg = np.SegmentAt(0, s.now)
	for i, l := range np.Chain {
		s.waits[i] = newWaits(l)
	}
	if old.Budget != np.Budget || !old.Graph.sameBudgets(np.Graph) {
		s.budgets = newBudgets(np, len(np.Chain), np.Clients, s.r)
		s.clientsApart = s.budgets.perClient() || s.lims.perClient()
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
	for i, l := range np.Chain {
		if l.Hedge != old.Chain[i].Hedge {
			s.hedge(i, np, l)
		}
	}
	s.srv.adopt(old, np)
	s.refresh()
	s.jumpEmpty = s.jumpEmpty && emptyJumpsExact(np, s.rec != nil)
	s.deadlines = s.deadlines || np.Deadline >= 0
	s.arr.restart(np, s.now)
	s.health.limit = np.Health.Limit
	if s.graph != nil {
		s.graph.health.adopt(np)
	}
}

// hedge gives layer i of p, l, a new hedger as l.Hedge says, or none
// when it does not hedge: the run's hedgers are nil when no layer has one.
func (s *stoch) hedge(i int, p *Plan, l LayerPlan) {
	if s.hedgers == nil {
		if l.Hedge.Delay == 0 {
			return
		}
		s.hedgers = make([]*hedger, len(p.Chain))
	}
	s.hedgers[i] = nil
	if l.Hedge.Delay > 0 {
		s.hedgers[i] = newHedger(p, l.Hedge, l.Timeout)
	}
	for _, h := range s.hedgers {
		if h != nil {
			return
		}
	}
	s.hedgers = nil
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
	hq := s.healthBacklog(q)
	s.health.idle(a, b, hq, s.work(hq), mark)
	if s.graph != nil {
		s.graph.health.idle(a, b, s.graph.servers)
	}
}

// healthBacklog is the part of the backlog q the health rule reads: the
// calls a new request waits behind (fronted), all of them but with
// priority classes.
func (s *stoch) healthBacklog(q int64) int64 {
	if s.front != nil {
		w, _ := s.front.front()
		return w
	}
	return q
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
	if w, ok := s.srv.(*poolServer); ok {
		w.means.metrics(&m, s.p0.TickS)
	}
	if s.p0.AdmissionKind != "none" {
		m.Shed = float64(s.c.shed)
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

// refresh sets the flags that fold the policies' checks, from the parts
// the run has now.
func (s *stoch) refresh() {
	s.gated = s.breakers != nil || s.lims != nil
	s.stamps = s.hedgers != nil || s.okLat != nil || s.lims.adapts()
	s.ends = s.budgets.on() || s.lims != nil
}

// warm reads the groups that the next events of a tick's hedges and
// deadlines (step 4) will read, and their parents, in a loop of its own
// just before they are handled, warmRun events at a time. A group's
// timeout comes a timeout after it was last touched, and in a storm, with
// millions of groups, it is rarely in cache any more, nor is its parent,
// which a try that fails for good answers: read one by one amid the work
// of each timeout, every read waits for memory in turn; read in this
// loop, with nothing depending on them, the reads wait together. A run of
// 256 events reads at most 32 KiB of groups, which stay in cache until
// their turn, where a tick's whole list, thousands in a storm, may not. It
// changes nothing but what is in cache.
func warm(evs []event) (x uint8) {
	for i := range evs {
		g := evs[i].g
		x |= uint8(g.state)
		if p := g.parent; p != nil {
			x |= uint8(p.state)
		}
	}
	return x
}
