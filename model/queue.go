package model

// The queue engine is the deterministic model of "Retry Storms: Simulate How
// a 30-Second Blip Becomes an Outage That Never Ends", generalised. Calls
// travel in cohorts: the calls enqueued in the same tick on the same attempt
// are one cohort, and a tick's cohorts form its row. One tick, in order:
//
//  1. New requests arrive (attempt 1), then the retries due this tick, in
//     the order they were scheduled, as far as the budget's gate lets them;
//     a queue limit turns away calls beyond it at once (the caller sees the
//     error now and may retry from the next tick).
//  2. The dependency serves up to its capacity, oldest first (fifo) or
//     newest first (lifo). A call served within its caller's timeout is a
//     success; one served later is wasted work. With drop_expired, calls
//     whose caller gave up are discarded instead of served. A loss server
//     (queue = "none") fails the calls beyond the tick's capacity at once.
//  3. Callers whose attempt, enqueued timeout ticks ago, is still waiting give
//     up; the attempt stays queued, and the request retries in the next tick
//     plus its backoff (as the budget admits), or fails when its attempts are
//     used up.
//
// An attempt enqueued in tick e is therefore served usefully in ticks
// e..e+timeout, and its retry joins the queue in tick e+timeout+1. Once its
// callers have given up, a row's calls differ in nothing that matters — they
// will be wasted work when served — so they join one count, the abandoned
// backlog, and a storm's backlog of millions of calls costs nothing per
// tick. Only the rows that can still time out keep their cohorts.
//
// A chain of layers is flattened to one caller with the product of the
// layers' attempts, the top layer's backoff and the bottom layer's timeout:
// the count every layer's retries add up to when every call fails. Health,
// budgets, faults, the capacity credit, overload collapse and the series are
// the parts the stochastic engine uses.

// cohort is calls of one attempt enqueued in the same tick: n of them still
// waiting, or, in a retry list, due.
type cohort struct {
	attempt int32
	n       int64
}

// queueSim is the state of one queue-engine run.
type queueSim struct {
	p         *Plan
	attempts  int32
	timeout   int64   // ticks a caller waits; −1 = forever
	delay     []int64 // wait in ticks before the retry after attempt i+1 fails
	sameDelay int64   // that wait when it is the same for every attempt, else −1
	loss      bool
	lifo      bool
	drop      bool
	limit     int64

	arr     *arrivals
	budgets budgets
	health  health
	rec     *recorder
	cr      credit
	cl      collapse

	rows    [][]cohort // ring (a power of two long): rows[e mod len], the cohorts enqueued in tick e that can still time out
	busy    busyRows   // the ticks whose rows may hold calls still waiting, oldest first
	backlog int64      // calls waiting whose row is gone: abandoned (with a timeout), or, without one, just waiting
	queued  int64      // all calls waiting
	due     [][]cohort // ring (a power of two long): retries due in tick t, in the order they were scheduled
	late    int64      // retries due after the run: their requests stay pending
	seg     int
	st      *steady // jumps over repeating ticks; nil when they cannot repeat

	fromBacklog, backlogCap int64 // this tick: calls served from the backlog, and the capacity it was offered

	r        *rng
	p0       *Plan // the run's plan (s.p: the one in force)
	changeAt int64 // the tick of the next change; never when none
	next     int64 // the first tick not yet run (queue_advance.go)

	g       *guard // nil: no cancellation, no cap
	cohorts int64  // cohorts held in rows and retry lists, for the memory cap

	c  counts
	tk tickCounts
}

func runQueue(p *Plan, seed uint64, series bool, g *guard) (Metrics, *Series, []string) {
	s := newQueueSim(p, seed, series)
	s.g = g
	m := s.run()
	var ser *Series
	if s.rec != nil {
		ser = s.rec.done(s.queued, s.c.requests-s.c.ok-s.c.failed)
	}
	return m, ser, nil
}

// run runs every tick and returns the metrics.
func (s *queueSim) run() Metrics {
	p := s.p
	s.advance(p.Ticks)
	m := s.c.metrics(p, p.BaseRate())
	s.health.verdict(&m, p)
	return m
}

func newQueueSim(p *Plan, seed uint64, series bool) *queueSim {
	l := p.Chain[0]
	r := newRNG(p, seed)
	s := &queueSim{
		p:        p,
		p0:       p,
		r:        r,
		changeAt: p.nextChange(-1),
		attempts: l.Attempts,
		timeout:  l.Timeout,
		loss:     p.Server == ServerLoss,
		lifo:     p.Server == ServerLIFO,
		drop:     p.DropExpired,
		limit:    p.QueueLimit,
		arr:      newArrivals(p, r),
		budgets:  newBudgets(p, 1, 1, r),
		health:   newHealth(p),
		cl:       newCollapse(p.Collapse),
	}
	if series {
		s.rec = newRecorder(p)
	}
	if steadyApplies(p, series) {
		s.st = &steady{snapAt: -1}
	}
	s.setWaits(l, 0)
	s.rows = make([][]cohort, rowsRing(p, s.timeout))
	s.c.peakRate = newPeakRate(p)
	return s
}

// setWaits sets the waits before each retry from the caller's backoff,
// growing the ring of retries due if a wait needs it (t: the current tick,
// whose retries are not taken yet).
func (s *queueSim) setWaits(l LayerPlan, t int64) {
	w := newWaits(l)
	maxDelay := int64(0)
	s.delay = make([]int64, max(0, l.Attempts-1))
	for i := range s.delay {
		s.delay[i] = min(w.fixed[i].fixed, s.p.Ticks)
		maxDelay = max(maxDelay, s.delay[i])
	}
	s.sameDelay = -1
	if len(s.delay) > 0 {
		s.sameDelay = s.delay[0]
		for _, d := range s.delay {
			if d != s.sameDelay {
				s.sameDelay = -1
			}
		}
	}
	if n := pow2(maxDelay + 2); n > int64(len(s.due)) {
		due := make([][]cohort, n)
		for x := t; x < t+int64(len(s.due)); x++ {
			due[x&(n-1)] = s.due[x&int64(len(s.due)-1)]
		}
		s.due = due
	}
}

// adopt makes the run follow np, a change's plan, from tick t on: the
// attempts and waits of retries decided from now on, a budget afresh if its
// keys changed, the queue's settings, the arrivals, the healthy limit.
func (s *queueSim) adopt(np *Plan, t int64) {
	old := s.p
	s.p = np
	s.seg = np.SegmentAt(0, t)
	s.attempts = np.Chain[0].Attempts
	s.setWaits(np.Chain[0], t)
	if old.Budget != np.Budget {
		s.budgets = newBudgets(np, 1, 1, s.r)
	}
	s.limit, s.drop = np.QueueLimit, np.DropExpired
	if old.Collapse != np.Collapse {
		s.cl = newCollapse(np.Collapse)
	}
	s.arr.restart(np, t)
	s.health.limit = np.Health.Limit
	s.st = nil
	if steadyApplies(np, s.rec != nil) {
		s.st = &steady{snapAt: -1}
	}
}

// step runs tick t.
func (s *queueSim) step(t int64) {
	if t == s.changeAt {
		s.adopt(s.p0.planAt(t), t)
		s.changeAt = s.p0.nextChange(t)
	}
	p := s.p
	s.seg = p.SegmentAt(s.seg, t)
	sg := &p.Faults[s.seg]
	s.tk = tickCounts{}
	s.fromBacklog, s.backlogCap = 0, 0
	row := t & int64(len(s.rows)-1)

	// 1. arrivals, then the retries due now.
	var n int64
	if t == s.arr.next {
		n = s.arr.draw(t)
	}
	if t == 0 {
		// The initial state: the backlog's requests arrive first; the
		// abandoned calls wait, for callers that are gone.
		n += p.Backlog
		s.backlog += p.Abandoned
		s.queued += p.Abandoned
	}
	s.c.requests += n
	s.tk.requests = n
	if s.budgets.ticks() {
		s.budgets.tick(t, []int64{n})
	}
	slot := t & int64(len(s.due)-1)
	due := s.due[slot]
	r := s.rows[row]
	if n > 0 {
		r = s.send(t, r, []cohort{{1, n}})
	}
	if len(due) > 0 {
		r = s.send(t, r, due)
	}
	s.rows[row] = r
	s.due[slot] = due[:0]
	s.cohorts -= int64(len(due))
	sent := n + s.tk.retries
	s.c.calls += sent
	s.tk.calls = sent
	s.c.peakCalls = max(s.c.peakCalls, sent)
	s.c.peakRate.add(t, t+1, sent)
	if t >= p.Fault.From && t < p.Fault.To {
		s.c.windowCalls += sent
	}

	// 2. the dependency works.
	c, whole := int64(0), false
	if !s.cl.On() {
		c, whole = s.cr.takeWhole(sg.PerTick)
	}
	if !whole {
		c = s.cr.take(sg.CapRate * s.cl.keep(sg.CapRate, s.queued) / p.TPS)
	}
	used := s.serve(t, row, c)
	s.cr.spend(used)

	// 3. callers give up on attempts still waiting after the timeout; rows
	// that can no longer time out join the backlog.
	switch {
	case s.timeout < 0:
		s.retire(row)
		s.busy.drop(t)
	case t >= s.timeout:
		s.busy.drop(t - s.timeout)
		e := (t - s.timeout) & int64(len(s.rows)-1)
		r := s.rows[e]
		for _, co := range r {
			s.tk.timeouts += co.n
		}
		s.backlog += s.fail(t, r, true)
		s.rows[e] = r[:0]
		s.cohorts -= int64(len(r))
	}

	// 4. measurements
	s.c.peakQueue = max(s.c.peakQueue, s.queued)
	unhealthy := s.health.observe(t, s.tk.ok, s.tk.requests, s.queued, s.work())
	if s.rec != nil {
		s.rec.add(t, &s.tk, sg.CapRate, unhealthy, s.queued, s.c.requests-s.c.ok-s.c.failed)
	}
}

// work is what the dependency holds for the verdict's end watch: the calls
// waiting, or at a loss server the requests without an answer yet.
func (s *queueSim) work() int64 {
	if s.loss {
		return s.c.requests - s.c.ok - s.c.failed
	}
	return s.queued
}

// retire moves what is left of row e into the backlog.
func (s *queueSim) retire(e int64) {
	for _, co := range s.rows[e] {
		s.backlog += co.n
	}
	s.cohorts -= int64(len(s.rows[e]))
	s.rows[e] = s.rows[e][:0]
}

// send adds the calls of cs to r, tick t's row, in order, and returns it:
// retries pass the budget's gate first (refused ones fail their requests);
// a full queue turns away what does not fit (those calls failed now).
// Without a budget or a queue limit nothing can turn calls away, and the
// cohorts join the row as they are (unmerged, which changes nothing then).
func (s *queueSim) send(t int64, r []cohort, cs []cohort) []cohort {
	if !s.budgets.on() && s.limit == 0 {
		var queued, retries int64
		for _, co := range cs {
			queued += co.n
			if co.attempt > 1 {
				retries += co.n
			}
		}
		s.queued += queued
		s.tk.retries += retries
		s.cohorts += int64(len(cs))
		if queued > 0 {
			s.busy.add(t)
		}
		if len(cs) == 1 {
			return append(r, cs[0])
		}
		return append(r, cs...)
	}
	for _, co := range cs {
		n := co.n
		if s.budgets.on() {
			n = s.budgets.send(0, 0, co.attempt > 1, co.n)
			if refused := co.n - n; refused > 0 {
				s.refuse(refused)
				s.c.failed += refused
				s.tk.failures += refused
			}
		}
		if co.attempt > 1 {
			s.tk.retries += n
		}
		if s.limit > 0 {
			acc := max(0, min(n, s.limit-s.queued))
			if rej := n - acc; rej > 0 {
				s.fail(t, []cohort{{co.attempt, rej}}, false)
			}
			n = acc
		}
		if n > 0 {
			s.queued += n
			s.busy.add(t)
			if k := len(r) - 1; k >= 0 && r[k].attempt == co.attempt {
				r[k].n += n // one cohort per tick and attempt: the gate and the limit see it whole
			} else {
				r = append(r, cohort{co.attempt, n})
				s.cohorts++
			}
		}
	}
	return r
}

// refuse counts k tries or retries the budget turned away.
func (s *queueSim) refuse(k int64) {
	s.c.refused += k
	s.tk.refused += k
	s.c.refusedBy[byBudget] += k
	s.tk.refusedBy[byBudget] += k
}

// fail records that the calls of cs failed in tick t: they retry after
// the backoff, as far as the budget admits, or, with no attempts left, their
// requests fail. It returns how many calls cs held.
func (s *queueSim) fail(t int64, cs []cohort, timeout bool) (calls int64) {
	due, mask, delay, attempts, ticks, budget := s.due, int64(len(s.due)-1), s.delay, s.attempts, s.p.Ticks, s.budgets.on()
	var failed, late int64
	// The slot being filled: with one wait for every attempt (no backoff,
	// or a constant one) every retry goes to the same slot.
	at, dst := int64(-1), []cohort(nil)
	if s.sameDelay >= 0 {
		at = t + 1 + s.sameDelay
		if at < ticks {
			dst = due[at&mask]
		}
	}
	for _, co := range cs {
		n := co.n
		if n <= 0 {
			continue
		}
		calls += n
		last := co.attempt >= attempts
		if budget {
			ok := s.budgets.fail(0, 0, n, timeout, last)
			if last {
				ok = n // no retry to refuse: the request fails below
			}
			if refused := n - ok; refused > 0 {
				s.refuse(refused)
				failed += refused
			}
			if n = ok; n == 0 {
				continue
			}
		}
		if last {
			failed += n
			continue
		}
		if s.sameDelay < 0 {
			if next := t + 1 + delay[co.attempt-1]; next != at {
				if at >= 0 && at < ticks {
					due[at&mask] = dst
				}
				at = next
				if at < ticks {
					dst = due[at&mask]
				}
			}
		}
		if at >= ticks {
			late += n // never sent: its request stays pending
			continue
		}
		dst = append(dst, cohort{co.attempt + 1, n})
		s.cohorts++
	}
	if at >= 0 && at < ticks {
		due[at&mask] = dst
	}
	s.late += late
	s.c.failed += failed
	s.tk.failures += failed
	return calls
}

// serve lets the dependency complete up to c waiting calls in tick t (whose
// row is row) and returns how many it completed: the rows that can still
// time out (t−timeout..t) in order, oldest first (fifo) or newest first
// (lifo), going over the busy ones only.
func (s *queueSim) serve(t, row, c int64) int64 {
	expired := s.timeout >= 0 // the backlog's calls: their callers gave up
	if s.drop && expired {
		s.queued -= s.backlog
		s.backlog = 0
	}
	c0 := c
	mask := int64(len(s.rows) - 1)
	if s.lifo {
		for c > 0 && s.busy.len() > 0 {
			if c = s.serveRow(s.rows[s.busy.back()&mask], c, true); c > 0 {
				s.busy.popBack() // served to the last call
			}
		}
		c = s.serveBacklog(c, expired)
	} else {
		c = s.serveBacklog(c, expired)
		for c > 0 && s.busy.len() > 0 {
			if c = s.serveRow(s.rows[s.busy.front()&mask], c, false); c > 0 {
				s.busy.popFront()
			}
		}
	}
	if s.loss {
		// A loss server keeps no queue: what it could not serve failed now.
		r := s.rows[row]
		s.queued -= s.fail(t, r, false)
		s.rows[row] = r[:0]
		s.cohorts -= int64(len(r))
		s.busy.drop(t)
	}
	return c0 - c
}

// serveBacklog completes up to c calls of the backlog and returns the
// capacity left.
func (s *queueSim) serveBacklog(c int64, expired bool) int64 {
	k := min(c, s.backlog)
	s.fromBacklog, s.backlogCap = k, c
	if k == 0 {
		return c
	}
	s.backlog -= k
	s.queued -= k
	s.completed(k, expired)
	return c - k
}

// serveRow completes up to c calls of a row that can still time out, in
// order (newest first when lifo), and returns the capacity left.
func (s *queueSim) serveRow(r []cohort, c int64, lifo bool) int64 {
	var done int64
	for i := range r {
		if c == 0 {
			break
		}
		j := i
		if lifo {
			j = len(r) - 1 - i
		}
		k := min(c, r[j].n)
		r[j].n -= k
		c -= k
		done += k
	}
	s.queued -= done
	s.completed(done, false)
	return c
}

// completed records k calls served: wasted when their callers had given
// up, successes otherwise.
func (s *queueSim) completed(k int64, wasted bool) {
	if k == 0 {
		return
	}
	s.c.served += k
	s.tk.served += k
	if wasted {
		s.c.wasted += k
		s.tk.wasted += k
		return
	}
	s.c.ok += k
	s.tk.ok += k
	s.budgets.succeed(0, 0, k, false, false)
}

// rowsRing is the length of the ring of rows for a caller that waits
// timeout ticks (−1: forever): a row per tick a call can wait in, never
// more than the run has ticks.
func rowsRing(p *Plan, timeout int64) int64 { return pow2(min(max(timeout, 0), p.Ticks) + 1) }

// pow2 is the least power of two ≥ n.
func pow2(n int64) int64 {
	p := int64(1)
	for p < n {
		p <<= 1
	}
	return p
}

// sign writes what tick t did into sig, for steady to compare; b0 and l0
// are the backlog and the late retries before it.
func (s *queueSim) sign(sig *tickSig, t, b0, l0 int64) {
	*sig = tickSig{tk: s.tk, dBacklog: s.backlog - b0, dLate: s.late - l0, fromBacklog: s.fromBacklog,
		capacity: s.backlogCap, acc: s.cr.acc, unhealthy: s.health.lastBad == t, seg: s.seg,
		inWindow: t >= s.p.Fault.From && t < s.p.Fault.To, gpOK: s.health.gp.ok, gpArr: s.health.gp.arr}
	if s.fromBacklog < s.backlogCap || s.backlogCap == 0 {
		sig.backlog = s.backlog // not saturated: the backlog itself must repeat
	}
}

// live is the bytes of state the run holds: its cohorts, its rings and its
// series.
func (s *queueSim) live() int64 {
	b := s.cohorts*entryBytes + int64(len(s.rows)+len(s.due))*24
	if s.rec != nil {
		b += int64(len(s.rec.s.Rows)) * seriesBytes
	}
	return b
}
