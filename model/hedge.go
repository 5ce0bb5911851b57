package model

// hedge is a hedged try at a server: the group of the calls of a layer
// that hedges (a chain's bottom layer, a graph's call to a service with a
// server that calls no other) (side 0) and the group of their hedges (side 1), second copies sent
// to those still without an answer after the hedge delay. The first
// success of a pair answers the try and the other copy is cancelled: the
// caller stops waiting for it and, while it still waits at the dependency,
// it is withdrawn. A failed copy leaves its twin to carry the try alone;
// the try fails, and may retry, when no copy is left. Both copies share the
// try's deadline. The pair pins both groups while either is open.
//
// Each instance of a side is paired (its twin is awaited too), single
// (awaited alone: never hedged, or its twin failed) or dead (its twin
// decided the try; nobody waits for it). Instances of a group are
// exchangeable, so which kind an answer belongs to is drawn
// (hypergeometric), exact in distribution. While a side's group is open,
// its waiting instances are single + paired + dead.
type hedge struct {
	g      [2]*group
	paired int64
	single [2]int64
	dead   [2]int64
}

// hedgerOf is the hedger of layer; nil when the layer does not hedge.
func (s *stoch) hedgerOf(layer int8) *hedger {
	if s.hedgers == nil {
		return nil
	}
	return s.hedgers[layer]
}

// hedgeLater records a try of a layer that hedges with its hedger and
// schedules its hedge, if it would come before the try's deadline.
func (s *stoch) hedgeLater(g *group) {
	h := s.hedgers[g.layer]
	h.sent(s.now, g.waiting)
	at := s.now + h.after(s.now)
	if at < g.deadline && at < s.p.Ticks {
		s.schedule(at, phTimeout, event{kind: evHedge, g: g})
	}
}

// hedgeNow sends hedges for g's instances still waiting: as many as the
// hedger's cap and the retry budget allow.
func (s *stoch) hedgeNow(g *group) {
	if g.state != gsOpen || g.waiting == 0 || g.pair() != nil {
		return
	}
	m := s.hedgers[g.layer].take(s.now, g.waiting)
	if m > 0 {
		m = s.budgets.hedge(g.layer, g.client, m)
	}
	if m == 0 {
		return
	}
	s.c.hedges += m
	s.tk.hedges += m
	hg := &hedge{paired: m, single: [2]int64{g.waiting - m, 0}}
	h := s.open(g.parent, g.layer, int32(g.attempt), g.client, g.prevWait, flagsOf(true, g.flaky, g.afterTimeout), g.reqDL(), g.arrivedAt(), m)
	gx, hx := s.gs.ext(g), s.gs.ext(h)
	h.deadline, hx.born, hx.stamped = g.deadline, gx.born, gx.stamped
	hg.g = [2]*group{g, h}
	gx.hg, hx.hg, hx.side = hg, hg, 1
	g.refs++
	h.refs++
	s.launch(h)
}

// sentAsRetry reports whether g's calls count as retries for the budgets:
// retries, and hedges.
func (g *group) sentAsRetry() bool { return g.attempt > 1 || g.pair() != nil && g.x.side == 1 }

// awaitedCopies is how many of g's waiting instances someone waits for.
func (g *group) awaitedCopies() int64 {
	if g.pair() == nil {
		return g.waiting
	}
	return g.waiting - g.x.hg.dead[g.x.side]
}

// answerHedged delivers k answers to g, a side of a hedged try that is
// still open: the answers to dead instances are dropped, the others settle
// their try or leave it to the twin.
func (s *stoch) answerHedged(g *group, k int64, out outcome) {
	hg, i := g.x.hg, g.x.side
	j := 1 - i
	twin := hg.g[j]
	d := hypergeometric(s.r, g.waiting, hg.dead[i], k)
	x := hypergeometric(s.r, g.waiting-hg.dead[i], hg.paired, k-d)
	y := k - d - x
	g.waiting -= k
	hg.dead[i] -= d
	hg.paired -= x
	hg.single[i] -= y
	if d > 0 && out == answerOK {
		s.waste(d) // the try was answered by the twin
	}
	s.budgets.end(g.layer, g.client, g.sentAsRetry(), x+y)
	var settled int64 = y
	if x > 0 {
		if out == answerFail {
			hg.single[j] += x // the twin carries on alone
		} else {
			settled += x // a success, or an answer not to retry, decides the try
			hg.dead[j] += x
			s.budgets.end(twin.layer, twin.client, twin.sentAsRetry(), x)
			s.cancelCopies(twin, x)
		}
	}
	s.closeIfSettled(g)
	if settled > 0 {
		s.settle(g, settled, out)
	}
}

// cancelCopies withdraws from the dependency's waiting room the ones of x
// newly dead instances of g that wait there, and closes g once nothing it
// still waits for is left.
func (s *stoch) cancelCopies(g *group, x int64) {
	if g.state != gsOpen {
		return
	}
	if g.queued > 0 {
		if w := hypergeometric(s.r, g.waiting, g.queued, x); w > 0 {
			s.srv.withdraw(g, w)
			g.waiting -= w
			g.x.hg.dead[g.x.side] -= w
		}
	}
	s.closeIfSettled(g)
}

// closeIfSettled marks a side done when it has no waiting instance, and
// cancels it when only dead ones are left.
func (s *stoch) closeIfSettled(g *group) {
	switch {
	case g.state != gsOpen:
	case g.waiting == 0:
		g.state = gsDone
	case g.waiting == g.x.hg.dead[g.x.side]:
		g.state = gsCancelled
		if g.queued > 0 {
			s.srv.withdraw(g, g.queued)
		}
	}
	s.pairOver(g.x.hg)
}

// pairOver lets go of a hedged pair's groups once neither is open: nothing
// looks at the pair any more.
func (s *stoch) pairOver(hg *hedge) {
	a, b := hg.g[0], hg.g[1]
	if a == nil || a.state == gsOpen || b.state == gsOpen {
		return
	}
	hg.g = [2]*group{}
	s.gs.release(a)
	s.gs.release(b)
}

// timeoutHedged gives up on a hedged try's side at its deadline: its single
// instances and the pairs still waiting fail once each (the twin's copies
// of those pairs are given up too; the twin's own deadline, the same tick,
// deals with its singles).
func (s *stoch) timeoutHedged(g *group) (tries int64) {
	hg, i := g.x.hg, g.x.side
	j := 1 - i
	tries = hg.single[i] + hg.paired
	s.budgets.end(g.layer, g.client, g.sentAsRetry(), tries)
	if twin := hg.g[j]; hg.paired > 0 && twin.state == gsOpen {
		s.budgets.end(twin.layer, twin.client, twin.sentAsRetry(), hg.paired)
		hg.dead[j] += hg.paired
	}
	hg.single[i], hg.paired = 0, 0
	return tries
}

func (h *Hedge) bounds(dst []Bound) []Bound {
	return append(dst,
		Bound{"delay", "", span(0, LongestWait), &h.Delay},
		Bound{"percentile", "", Range{0, 99.99, ""}, &h.Percentile},
		Bound{"max_share", "", Range{0, 1, ""}, &h.MaxShare},
	)
}
