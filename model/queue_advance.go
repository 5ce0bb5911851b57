package model

// advance runs the ticks from s.next up to end (at most the plan's ticks),
// jumping over repeating ticks where the steady state allows (never while
// a series is recorded); false when the guard ends the run.
func (s *queueSim) advance(end int64) bool {
	p := s.p
	end = min(end, p.Ticks)
	t := s.next
	for ; t < end; t++ {
		b0, l0 := s.backlog, s.late
		s.step(t)
		if !s.g.tick(s.live(), float64(t)*p.TickS) {
			s.next = t + 1
			return false
		}
		if s.st == nil {
			continue
		}
		sig := s.st.next()
		s.sign(sig, t, b0, l0)
		if k := s.st.after(s, t); k > 0 {
			s.jump(t, k, sig)
			s.st.jumped += k
			t += k
			s.st.snapAt = t
		}
	}
	s.next = t
	return true
}

// replan makes the run follow np from tick next on (a Stepper's Replan):
// np agrees with the plan so far before next, and may hold changes from
// next on.
func (s *queueSim) replan(np *Plan, next int64) {
	s.p0 = np
	s.changeAt = np.nextChange(next - 1)
}

func (s *queueSim) setGuard(g *guard)   { s.g = g }
func (s *queueSim) recorder() *recorder { return s.rec }
func (s *queueSim) release()            {}
