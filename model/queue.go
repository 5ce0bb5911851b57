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
	p        *Plan
	attempts int32
	timeout  int64   // ticks a caller waits; −1 = forever
	delay    []int64 // wait in ticks before the retry after attempt i+1 fails
	loss     bool
	lifo     bool
	drop     bool
	limit    int64

	arr     *arrivals
	budgets budgets
	health  health
	rec     *recorder
	cr      credit
	cl      collapse

	rows    [][]cohort // ring: rows[e % len], the cohorts enqueued in tick e that can still time out
	backlog int64      // calls waiting whose row is gone: abandoned (with a timeout), or, without one, just waiting
	queued  int64      // all calls waiting
	due     [][]cohort // ring: retries due in tick t, in the order they were scheduled
	late    int64      // retries due after the run: their requests stay pending
	seg     int

	c  counts
	tk tickCounts
}

func runQueue(p *Plan, seed uint64, series bool) (Metrics, *Series, []string) {
	s := newQueueSim(p, seed, series)
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
	for t := int64(0); t < p.Ticks; t++ {
		s.step(t)
	}
	m := s.c.metrics(p, p.Load)
	m.Recovered, m.RecoveryS = s.health.recovery(p.Ticks, p.TickS, p.Fault.End.Seconds())
	return m
}

func newQueueSim(p *Plan, seed uint64, series bool) *queueSim {
	l := p.Chain[0]
	s := &queueSim{
		p:        p,
		attempts: l.Attempts,
		timeout:  l.Timeout,
		loss:     p.Server == ServerLoss,
		lifo:     p.Server == ServerLIFO,
		drop:     p.DropExpired,
		limit:    p.QueueLimit,
		arr:      newArrivals(p, newRNG(p, seed)),
		budgets:  newBudgets(p, 1, 1),
		health:   newHealth(p, series),
		cl:       newCollapse(p.Collapse),
	}
	if series {
		s.rec = newRecorder(p)
	}
	w := newWaits(l)
	maxDelay := int64(0)
	s.delay = make([]int64, max(0, l.Attempts-1))
	for i := range s.delay {
		s.delay[i] = min(w.fixed[i].fixed, p.Ticks)
		maxDelay = max(maxDelay, s.delay[i])
	}
	s.due = make([][]cohort, maxDelay+2)
	s.rows = make([][]cohort, max(s.timeout, 0)+1)
	return s
}

// step runs tick t.
func (s *queueSim) step(t int64) {
	p := s.p
	s.seg = p.SegmentAt(s.seg, t)
	sg := &p.Faults[s.seg]
	s.tk = tickCounts{}
	row := t % int64(len(s.rows))

	// 1. arrivals, then the retries due now.
	var n int64
	if t == s.arr.next {
		n = s.arr.draw(t)
	}
	s.c.requests += n
	s.tk.requests = n
	if s.budgets.on() {
		s.budgets.tick([]int64{n})
		s.budgets.sent(0, 0, 1, n)
	}
	s.send(t, row, 1, n)
	slot := t % int64(len(s.due))
	for _, r := range s.due[slot] {
		k := r.n
		if s.budgets.on() {
			k = s.budgets.gate(0, 0, r.n)
			if refused := r.n - k; refused > 0 {
				s.c.refused += refused
				s.tk.refused += refused
				s.c.failed += refused
				s.tk.failures += refused
			}
			s.budgets.sent(0, 0, r.attempt, k)
		}
		s.tk.retries += k
		s.send(t, row, r.attempt, k)
	}
	s.due[slot] = s.due[slot][:0]
	sent := n + s.tk.retries
	s.c.calls += sent
	s.tk.calls = sent
	s.c.peakCalls = max(s.c.peakCalls, sent)
	if t >= p.Fault.From && t < p.Fault.To {
		s.c.windowCalls += sent
	}

	// 2. the dependency works.
	c := s.cr.take(sg.CapRate * s.cl.keep(sg.CapRate, s.queued) / p.TPS)
	used := s.serve(t, row, c)
	s.cr.spend(used)

	// 3. callers give up on attempts still waiting after the timeout; rows
	// that can no longer time out join the backlog.
	switch {
	case s.timeout < 0:
		s.retire(row)
	case t >= s.timeout:
		e := (t - s.timeout) % int64(len(s.rows))
		for _, co := range s.rows[e] {
			if co.n > 0 {
				s.tk.timeouts += co.n
				s.fail(t, co.attempt, co.n)
			}
		}
		s.retire(e)
	}

	// 4. measurements
	s.c.peakQueue = max(s.c.peakQueue, s.queued)
	unhealthy := s.health.observe(t, s.tk.ok, s.tk.requests, s.queued)
	if s.rec != nil {
		s.rec.add(t, &s.tk, sg.CapRate, unhealthy, s.queued, s.c.requests-s.c.ok-s.c.failed)
	}
}

// retire moves what is left of row e into the backlog.
func (s *queueSim) retire(e int64) {
	for _, co := range s.rows[e] {
		s.backlog += co.n
	}
	s.rows[e] = s.rows[e][:0]
}

// send puts n calls of the given attempt in row (tick t's). A full queue
// turns away what does not fit: those calls failed now.
func (s *queueSim) send(t, row int64, attempt int32, n int64) {
	if n <= 0 {
		return
	}
	if s.limit > 0 {
		acc := max(0, min(n, s.limit-s.queued))
		if rej := n - acc; rej > 0 {
			s.fail(t, attempt, rej)
		}
		if n = acc; n == 0 {
			return
		}
	}
	r := s.rows[row]
	if k := len(r) - 1; k >= 0 && r[k].attempt == attempt {
		r[k].n += n
	} else {
		s.rows[row] = append(r, cohort{attempt, n})
	}
	s.queued += n
}

// fail records that n attempts failed in tick t: they retry after the
// backoff, as far as the budget admits, or, with no attempts left, the
// requests fail.
func (s *queueSim) fail(t int64, attempt int32, n int64) {
	if attempt < s.attempts && s.budgets.on() {
		ok := s.budgets.admit(0, 0, n)
		if refused := n - ok; refused > 0 {
			s.c.refused += refused
			s.tk.refused += refused
			s.c.failed += refused
			s.tk.failures += refused
		}
		n = ok
	}
	if attempt >= s.attempts {
		s.c.failed += n
		s.tk.failures += n
		return
	}
	if at := t + 1 + s.delay[attempt-1]; at >= s.p.Ticks {
		s.late += n // never sent: its request stays pending
	} else if n > 0 {
		slot := at % int64(len(s.due))
		s.due[slot] = append(s.due[slot], cohort{attempt + 1, n})
	}
}

// serve lets the dependency complete up to c waiting calls in tick t (whose
// row is row) and returns how many it completed.
func (s *queueSim) serve(t, row, c int64) int64 {
	expired := s.timeout >= 0 // the backlog's calls: their callers gave up
	if s.drop && expired {
		s.queued -= s.backlog
		s.backlog = 0
	}
	c0 := c
	fromBacklog := func() {
		k := min(c, s.backlog)
		s.backlog -= k
		s.queued -= k
		c -= k
		s.completed(k, expired)
	}
	fromRow := func(e int64) {
		r := s.rows[e]
		for i := range r {
			if c == 0 {
				return
			}
			j := i
			if s.lifo {
				j = len(r) - 1 - i
			}
			k := min(c, r[j].n)
			r[j].n -= k
			s.queued -= k
			c -= k
			s.completed(k, false)
		}
	}
	live := min(t, max(s.timeout, 0)) // rows t−live..t can still time out
	if s.lifo {
		for e := t; e >= t-live && c > 0; e-- {
			fromRow(e % int64(len(s.rows)))
		}
		fromBacklog()
	} else {
		fromBacklog()
		for e := t - live; e <= t && c > 0; e++ {
			fromRow(e % int64(len(s.rows)))
		}
	}
	if s.loss {
		// A loss server keeps no queue: what it could not serve failed now.
		for i, co := range s.rows[row] {
			if co.n > 0 {
				s.rows[row][i].n = 0
				s.queued -= co.n
				s.fail(t, co.attempt, co.n)
			}
		}
	}
	return c0 - c
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
	s.budgets.succeeded(0, 0, true, k)
}
