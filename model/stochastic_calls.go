package model

// The calls of the stochastic engine: a try started, passed down the chain
// and handed to the dependency (see doc.go, "A tick of the stochastic engine").

// schedule adds an event, which pins its group until it has run.
func (s *stoch) schedule(at int64, ph uint8, ev event) {
	if ev.g != nil {
		ev.g.refs++
	}
	s.cal.add(s.now, at, ph, ev)
}

// ---- the chain ----

// startRoots starts n new user requests of client c: one group, or with
// Single one group each; in a graph with several entry points, a group for
// each entry point's part.
func (s *stoch) startRoots(c int32, n int64) {
	dl := never
	if s.p.Deadline >= 0 {
		dl = s.now + s.p.Deadline
	}
	if s.entries != nil {
		for i, k := range s.entries.split(s.r, n) {
			if k > 0 {
				s.start(nil, s.entries.nodes[i], 1, c, 0, 0, dl, s.now, k)
			}
		}
		return
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
// the network delay; a concurrency limiter sits between the breaker and
// the budget (stochastic_limits.go), and tries it let in after a wait
// (startAdmitted) pass neither again. f says what kind of try it is; a try after the first
// is a retry whatever f says. arrived is the tick the user request arrived,
// for a try of the top layer (parent nil). It reports whether it opened a
// group (which took the reference to the parent f says is handed over).
func (s *stoch) start(parent *group, layer int8, attempt, client, wait int32, f startFlags, dl, arrived, n int64) bool {
	if s.graph != nil && attempt == 1 && f&startAdmitted == 0 {
		s.graph.health.called(layer, n) // calls made, whatever becomes of their first try
	}
	if dl <= s.now {
		s.refuse(byDeadline, n)
		if attempt > 1 { // a retry: its call is past the breaker
			s.failCall(parent, layer, client, n, answerFail, arrived)
		} else {
			s.failUp(parent, layer, client, n, answerFail, arrived)
		}
		return false
	}
	if s.gated && f&startAdmitted == 0 {
		if s.breakers != nil && (attempt == 1 || !s.p.Chain[layer].Breaker.PerCall) {
			if n = s.throughBreaker(parent, layer, client, n, arrived); n == 0 {
				return false
			}
		}
		if s.lims != nil {
			if n = s.throughLimiter(parent, layer, attempt, client, wait, f, dl, arrived, n); n == 0 {
				return false
			}
		}
	}
	if s.budgets.on() {
		ok := s.budgets.send(layer, client, attempt > 1, n)
		if refused := n - ok; refused > 0 {
			s.refuse(byBudget, refused)
			if s.lims != nil {
				s.unlimitRefused(layer, client, refused)
			}
			s.failCall(parent, layer, client, refused, answerFail, arrived)
		}
		if n = ok; n == 0 {
			return false
		}
	}
	if attempt > 1 {
		f |= startRetry
	}
	if s.graph != nil {
		s.graph.sent(layer, attempt, n)
	}
	g := s.open(parent, layer, attempt, client, wait, f, dl, arrived, n)
	if s.hedgerOf(layer) != nil {
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
	s.gs.reuse(g)
	deadline := dl
	if t := s.p.Chain[layer].Timeout; t >= 0 {
		deadline = min(s.now+t, dl)
	}
	g.parent, g.waiting, g.queued, g.deadline = parent, n, 0, deadline
	g.attempt, g.client, g.prevWait, g.refs = int16(attempt), client, wait, 1 // pinned while it starts
	g.layer, g.state, g.retry, g.afterTimeout, g.flaky, g.gave = layer, gsOpen, f.has(startRetry), f.has(startAfterTimeout), f.has(startFlaky), false
	g.setReqDL(dl)
	if s.stamps {
		if s.hedgerOf(layer) != nil {
			x := s.gs.ext(g)
			x.born, x.stamped = s.now, true
		}
		if s.okLat != nil && parent == nil {
			s.gs.ext(g).arrived = arrived
		}
		if s.lims != nil {
			s.limitStamp(g)
		}
	}
	if parent != nil {
		if !f.has(startPinned) {
			parent.refs++
		}
		if s.p.Cancel {
			x := s.gs.ext(parent)
			x.kids = append(x.kids, g)
		}
	}
	return g
}

// launch passes an opened group's calls down (to the layer below, or to
// the dependency from the bottom; in a graph, to the service called), after
// the network delay, and sets its deadline.
func (s *stoch) launch(g *group) {
	n := g.waiting
	if s.p.Network.Kind == NetworkNone {
		s.down(g, n)
	} else {
		var buf [8]split // s.split is reused below
		for _, x := range append(buf[:0], s.netSplit(n, 0)...) {
			switch {
			case x.d == 0:
				s.down(g, x.n)
			case s.now+x.d < s.p.Ticks:
				s.schedule(s.now+x.d, phStart, event{kind: evDown, g: g, n: x.n})
			}
		}
	}
	if g.state == gsOpen && g.waiting > 0 && g.deadline < s.p.Ticks {
		s.schedule(g.deadline, phTimeout, event{kind: evTimeout, g: g})
	}
	s.gs.release(g)
}

// downEvent runs an evDown: calls of ev.g that crossed the network reach
// what is below it, as launch's calls without a delay do (down). With
// cancel_abandoned, calls whose caller no longer waits start no calls
// below (a group started for a closed one would be cancelled at once);
// calls that reach a server are queued there all the same, as the server
// cannot know.
func (s *stoch) downEvent(ev *event) {
	if s.p.Cancel && ev.g.state != gsOpen && !s.toAServer(ev.g) {
		return
	}
	s.down(ev.g, ev.n)
}

// toAServer reports whether g's calls go to a server: the dependency below
// a chain's bottom layer, or in a graph the server of the service called.
func (s *stoch) toAServer(g *group) bool {
	if s.graph != nil {
		return s.graph.nodes[g.layer].Server >= 0
	}
	return g.layer == s.bottom
}

// down passes n calls of g to what is below it now: the next layer, or the
// dependency; in a graph, the service called (graphDown).
func (s *stoch) down(g *group, n int64) {
	if s.graph != nil {
		s.graphDown(g, n)
		return
	}
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

// completeServed answers k calls of g that a capacity server serves now,
// each after its service time: the latency (serviceTicks) under the
// constant law, else a time drawn per call from dependency.service, times
// a slowdown's factor, split over the ticks exactly (serviceSplit).
func (s *stoch) completeServed(g *group, k int64) {
	if _, ok := s.p.Service.(atomic); ok || s.p.Service == nil {
		s.complete(g, k, s.serviceTicks())
		return
	}
	p := s.p
	s.svcSplit = serviceSplit(s.svcSplit[:0], s.r, s.svcTicks.use(p.Service, p.TPS, p.Faults[s.seg].LatFactor), p.Ticks-s.now, k)
	for _, sp := range s.svcSplit {
		s.complete(g, sp.n, sp.d)
	}
}

// serviceTicks is how long a capacity server takes to answer a call it
// serves now: the service latency, times a slowdown's factor.
func (s *stoch) serviceTicks() int64 { return s.p.ServiceTicks(s.seg) }
