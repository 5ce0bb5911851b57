package model

// The concurrency limits of the stochastic engine: a try takes a slot of
// its layer's limiter when it is sent, waits for one or is refused, and
// gives it back when it ends (limiter.go says what each kind does).

// limitOutcome is what a try that gives its slot back tells an adaptive
// limit.
type limitOutcome uint8

const (
	limitOK     limitOutcome = iota // a success: a sample
	limitDrop                       // an error answer or a timeout: a sample that counts as a drop
	limitIgnore                     // cancelled, or an error no retry fixes: no sample
)

// throughLimiter lets n tries of a layer for a client through its limiter
// and returns how many took a slot now. With full = "queue" the others
// wait for a slot, as far as the queue has room (the wait pins the
// parent); the rest fail their call at once and count as refused.
func (s *stoch) throughLimiter(parent *group, layer int8, attempt, client, wait int32, f startFlags, dl, arrived, n int64) int64 {
	l := s.lims.of(layer, client)
	if l == nil {
		return n
	}
	ok := min(n, l.room(s.now))
	l.inflight += ok
	rest := n - ok
	lp := &s.lims.plans[layer]
	if q := rest; q > 0 && lp.Queue {
		if lp.QueueLimit > 0 {
			q = min(q, max(0, lp.QueueLimit-l.waiting.len()))
		}
		if q > 0 {
			if parent != nil {
				parent.refs++ // the waiting tries' own reference
			}
			l.waiting.push(waitingTries{parent: parent, since: s.now, dl: dl, arrived: arrived, n: q,
				attempt: attempt, client: client, wait: wait, layer: layer, f: f &^ startPinned})
			s.wakeLimiter(l, layer, client, s.now+lp.QueueTicks, &l.expireAt)
			rest -= q
		}
	}
	if rest > 0 {
		s.refuse(byLimiter, rest)
		s.failCall(parent, layer, client, rest, answerFail, arrived)
	}
	return ok
}

// wakeLimiter schedules the admission of a limiter's waiting tries at tick
// at, unless one is already scheduled then (*last) or the run ends first.
func (s *stoch) wakeLimiter(l *limiter, layer int8, client int32, at int64, last *int64) {
	if at >= s.p.Ticks || *last == at {
		return
	}
	*last = at
	s.schedule(at, phStart, event{kind: evAdmit, layer: layer, client: client})
}

// limitStamp records, for an adaptive limit, when g's tries were sent and
// how many were in flight then.
func (s *stoch) limitStamp(g *group) {
	if l := s.lims.of(g.layer, g.client); l != nil && l.adapts {
		x := s.gs.ext(g)
		x.born, x.stamped, x.limIn = s.now, true, int32(l.inflight)
	}
}

// limitEnded gives back the slots of k tries of g that ended, tells an
// adaptive limit how they ended, and has the waiting tries let in next
// tick if some wait.
func (s *stoch) limitEnded(g *group, k int64, o limitOutcome) {
	l := s.lims.of(g.layer, g.client)
	if l == nil {
		return
	}
	s.unlimit(l, g.layer, g.client, k)
	if l.adapts && o != limitIgnore {
		l.rule.sample(s.now, k, s.now-g.x.born, int64(g.x.limIn), o == limitDrop)
	}
}

// unlimitRefused gives back the slots of k tries of a layer for a client
// that the retry budget refused after the limiter let them in.
func (s *stoch) unlimitRefused(layer int8, client int32, k int64) {
	if l := s.lims.of(layer, client); l != nil {
		s.unlimit(l, layer, client, k)
	}
}

// unlimit gives back k slots of a limiter.
func (s *stoch) unlimit(l *limiter, layer int8, client int32, k int64) {
	l.inflight -= k
	if l.waiting.len() > 0 {
		s.wakeLimiter(l, layer, client, s.now+1, &l.admitAt)
	}
}

// admitWaiting lets the waiting tries of a layer's limiter for a client
// take the slots free now, oldest first; then the tries that have waited
// queue_timeout fail their call.
func (s *stoch) admitWaiting(layer int8, client int32) {
	l := s.lims.of(layer, client)
	q := &l.waiting
	for q.len() > 0 {
		free := l.free(s.now)
		if free == 0 {
			break
		}
		w := *q.front()
		k := min(free, w.n)
		gone := q.take(k)
		s.admit(l, &w, k)
		if gone && w.parent != nil {
			s.gs.release(w.parent) // the waiting tries' reference
		}
	}
	for q.len() > 0 && s.now-q.front().since >= s.lims.plans[layer].QueueTicks {
		w := *q.front()
		q.take(w.n)
		s.refuse(byLimiter, w.n)
		s.failCall(w.parent, w.layer, w.client, w.n, answerFail, w.arrived)
		if w.parent != nil {
			s.gs.release(w.parent)
		}
	}
}

// admit starts k of the waiting tries w: none whose caller gave up and
// cancelled them (as startEvent), none past the request's deadline.
func (s *stoch) admit(l *limiter, w *waitingTries, k int64) {
	switch {
	case s.p.Cancel && w.parent != nil && w.parent.state != gsOpen:
		return
	case w.dl <= s.now:
		s.refuse(byDeadline, k)
		s.failCall(w.parent, w.layer, w.client, k, answerFail, w.arrived)
		return
	}
	l.inflight += k
	s.start(w.parent, w.layer, w.attempt, w.client, w.wait, w.f|startAdmitted, w.dl, w.arrived, k)
}

// limitOutcomeOf is what an answer tells an adaptive limit: a success, a
// drop (an error a retry may fix: the library's UNAVAILABLE), or nothing
// (an error no retry fixes: the library ignores other statuses).
func limitOutcomeOf(o outcome) limitOutcome {
	switch o {
	case answerOK:
		return limitOK
	case answerFatal:
		return limitIgnore
	}
	return limitDrop
}
