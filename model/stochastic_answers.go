package model

import "math"

// The answers of the stochastic engine: a call served, failed, refused,
// timed out or cancelled, and what each does to its try, its retries and
// the layer above (see doc.go, "A tick of the stochastic engine").

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
	switch {
	case k-f > 0 && s.graph != nil && s.graph.callsOut(g):
		s.servedOut(g, k-f, extra)
	case k-f > 0:
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
		if s.r.Float64() < s.p.FailureP {
			return 1
		}
		return 0
	}
	return binomialPow(s.r, k, s.p.FailureP, &s.pows)
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
	if s.ends {
		s.budgets.end(g.layer, g.client, g.attempt > 1, k)
		if s.lims != nil {
			s.limitEnded(g, k, limitOutcomeOf(out))
		}
	}
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
	if h := s.hedgerOf(g.layer); h != nil {
		if at, ok := g.sentAt(); ok { // unknown for a try sent before a change turned hedging on
			h.succeeded(s.now, s.now-at, k)
		}
	}
	s.succeed(g, k)
}

// succeed passes k successes of g's layer up: their calls succeeded.
func (s *stoch) succeed(g *group, k int64) {
	s.budgets.succeed(g.layer, g.client, k, g.sentAsRetry(), g.afterTimeout)
	if s.graph != nil {
		s.graph.health.succeeded(g.layer, k)
	}
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
	s.up(g.parent, g.layer, k, answerOK)
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
	if s.graph != nil {
		s.graph.failed[layer] += k
	}
	if parent == nil {
		s.c.failed += k
		s.tk.failures += k
		if s.errLat != nil {
			s.errLat.add(s.now-arrived, k)
		}
		s.finished(client, k)
		return
	}
	s.up(parent, layer, k, out)
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
		g.waiting, g.state = 0, gsClosed
		if s.ends {
			s.budgets.end(g.layer, g.client, g.attempt > 1, k)
			if s.lims != nil {
				s.limitEnded(g, k, limitDrop)
			}
		}
	}
	s.tk.timeouts += k
	if s.breakers != nil {
		s.count(g, k, false)
	}
	if g.queued > 0 && s.dropsExpired(g) {
		s.srv.withdraw(g, g.queued)
	}
	if s.p.Cancel {
		s.cancelBelow(g)
	}
	if k > 0 {
		s.retryOrFail(g, k, true, answerFail)
	}
}

// dropsExpired reports whether the server where g's calls wait discards
// them once their caller gives up (drop_expired, or cancel_abandoned): its
// own setting, which in a graph is its service's server's whatever plan
// is in force.
func (s *stoch) dropsExpired(g *group) bool {
	if s.graph != nil {
		return s.graph.servers.dropsExpired(g)
	}
	return s.p.DropExpired
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
		if k.state != gsOpen {
			continue
		}
		k.state = gsCancelled
		if !k.isHop() { // a hop is no try: only its calls end
			if s.lims != nil {
				s.limitEnded(k, k.awaitedCopies(), limitIgnore)
			}
			s.budgets.end(k.layer, k.client, k.sentAsRetry(), k.awaitedCopies())
			if k.queued > 0 {
				s.srv.withdraw(k, k.queued)
			}
			if k.pair() != nil {
				s.pairOver(k.x.hg)
			}
		}
		s.cancelBelow(k)
	}
	g.x.kids = nil
}
