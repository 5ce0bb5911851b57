package model

import (
	"math"
	"sync"
)

// netSplit spreads n calls or answers over network delays, in ticks after
// extra ones, into s.split: none; constant, rounded to the nearest tick; or
// exponential of the plan's mean, rounded to the nearest tick, one draw per
// call for up to four calls and sequential binomials over the ticks for a
// larger group.
func (s *stoch) netSplit(n int64, extra int64) []split {
	s.split = s.split[:0]
	nw := s.p.Network
	switch nw.Kind {
	case NetworkNone:
		s.split = append(s.split, split{extra, n})
	case NetworkConstant:
		s.split = append(s.split, split{extra + int64(math.Round(nw.Delay)), n})
	default:
		mu := nw.Delay
		if n <= 4 {
			for range n {
				d := math.Round(-mu * math.Log(1-s.r.Float64()))
				s.split = append(s.split, split{extra + int64(math.Min(d, float64(s.p.Ticks))), 1})
			}
			s.split = groupSplits(s.split)
			return s.split
		}
		rest := n
		p0 := -math.Expm1(-0.5 / mu) // P(delay < 0.5 tick)
		q := -math.Expm1(-1 / mu)    // P(next tick | not yet)
		m := binomial(s.r, rest, p0)
		if m > 0 {
			s.split = append(s.split, split{extra, m})
		}
		rest -= m
		for k := int64(1); rest > 0; k++ {
			m := binomial(s.r, rest, q)
			if k > s.p.Ticks {
				m = rest
			}
			if m > 0 {
				s.split = append(s.split, split{extra + k, m})
			}
			rest -= m
		}
	}
	return s.split
}

func (n *Network) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"delay", "", span(0, LongestWait), &n.Delay})
}

// networkKinds is the registry of the delays between layers.
var networkKinds = sync.OnceValue(func() []Kind {
	return []Kind{
		{Name: "none", Doc: "no delay: a call reaches the layer below (in a service graph, the service it calls) in the tick it is sent", Engines: OnAll},
		{Name: "constant", Doc: "delay each way", Engines: OnStochastic, Reads: []string{"delay"}},
		{Name: "exponential", Doc: "an exponential delay each way, delay on average", Engines: OnStochastic, Reads: []string{"delay"}},
	}
})
