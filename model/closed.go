package model

import "slices"

// The closed loop: each of the clients sends its first request at a
// uniformly drawn tick within the first think time (all at tick 0 when
// think is under a tick), then, once a request is answered, thinks for
// think (at least one tick) and sends the next.

// scheduleClients spreads the closed loop's first requests.
func (s *stoch) scheduleClients() {
	p := s.p
	span := p.ThinkSpan
	perClient := p.Single || p.Budget.Scope == ScopeClient
	if span <= 1 {
		if perClient {
			for c := int32(0); c < p.Clients; c++ {
				s.cal.add(-1, 0, phStart, event{kind: evWake, client: c, n: 1})
			}
		} else {
			s.cal.add(-1, 0, phStart, event{kind: evWake, n: int64(p.Clients)})
		}
		return
	}
	if perClient {
		type w struct {
			at int64
			c  int32
		}
		ws := make([]w, p.Clients)
		for c := range ws {
			ws[c] = w{int64(s.r.Float64() * float64(span)), int32(c)}
		}
		slices.SortStableFunc(ws, func(a, b w) int { return int(a.at - b.at) })
		for _, x := range ws {
			s.cal.add(-1, x.at, phStart, event{kind: evWake, client: x.c, n: 1})
		}
		return
	}
	for _, x := range uniformSplit(nil, s.r, 0, float64(span), 0, int64(p.Clients)) {
		s.cal.add(-1, x.d, phStart, event{kind: evWake, n: x.n})
	}
}

// finished lets closed-loop clients of an answered request think before
// their next one.
func (s *stoch) finished(client int32, k int64) {
	if s.p.Arrivals == ArriveClosed {
		s.think(client, k)
	}
}

// think schedules the next request of k closed-loop clients.
func (s *stoch) think(client int32, k int64) {
	at := s.now + s.p.ThinkTicks
	if at >= s.p.Ticks {
		return
	}
	if !s.p.Single {
		if e := s.cal.last(s.now, at, phStart); e != nil && e.kind == evWake && e.client == client {
			e.n += k
			return
		}
	}
	s.cal.add(s.now, at, phStart, event{kind: evWake, client: client, n: k})
}
