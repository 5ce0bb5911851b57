package model

// begin readies the run for its first tick: the closed loop's clients, the
// arrivals.
func (s *stoch) begin() {
	s.now = -1
	if s.p.Arrivals == ArriveClosed {
		s.scheduleClients()
	}
	s.arr = newArrivals(s.p, s.r)
	s.last = -1
}

// advance runs the ticks after s.last and before end (at most the plan's
// ticks): each tick in which something can happen, and the ticks between
// them as idle stretches cut at the series' row boundaries, so that a run
// stopped at the end of a row and advanced again (a Stepper) runs exactly
// what a run that never stopped does. It returns false when the guard ends
// the run.
func (s *stoch) advance(end int64) bool {
	end = min(end, s.p0.Ticks)
	s.until = end
	for {
		t := min(s.nextTick(s.last), end)
		if t > s.last+1 {
			s.idleRows(s.last+1, t)
		}
		if t >= end {
			s.last = end - 1
			return true
		}
		s.step(t)
		s.last = t
		if s.g != nil && !s.g.tick(s.live(), float64(t)*s.p.TickS) {
			return false
		}
	}
}

// idleRows accounts for the idle ticks a..b−1 a row of the series at a
// time.
func (s *stoch) idleRows(a, b int64) {
	bin := s.p0.seriesBinTicks()
	for a < b {
		e := min(b, (a/bin+1)*bin)
		s.idle(a, e)
		a = e
	}
}

// replan makes the run follow np from tick next on (a Stepper's Replan):
// np agrees with the plan so far before next, and may hold changes from
// next on.
func (s *stoch) replan(np *Plan, next int64) {
	s.p0 = np
	s.changeAt = np.nextChange(next - 1)
}

func (s *stoch) setGuard(g *guard)   { s.g = g }
func (s *stoch) recorder() *recorder { return s.rec }
func (s *stoch) release()            { s.r.release() }
