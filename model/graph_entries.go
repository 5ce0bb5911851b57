package model

// The users' requests of a graph with several entry points: each comes in
// through one of them, by the entry edges' shares (see "Service graphs" in
// doc.go).

// entrySplit splits new user requests over a graph's entry points. Drawn
// arrivals (Poisson, a closed loop's clients) are split by a multinomial
// draw, so that each entry point's arrivals are Poisson with its share of
// the load; constant arrivals and bursts are apportioned, each entry's
// fractions carried over, so that every entry point gets a steady stream.
type entrySplit struct {
	nodes  []int8    // the entry points' nodes
	shares []float64 // their shares, summing to 1
	drawn  bool      // split by a draw rather than apportioned
	acc    []float64 // apportioned: each entry's fraction carried over
	out    []int64   // the last split, by entry
}

// newEntrySplit is the split of p's graph; nil for one entry point.
func newEntrySplit(p *Plan) *entrySplit {
	gp := p.Graph
	if gp == nil || len(gp.Entries) < 2 {
		return nil
	}
	n := len(gp.Entries)
	return &entrySplit{nodes: gp.Entries, shares: gp.Shares, acc: make([]float64, n), out: make([]int64, n),
		drawn: p.Arrivals == ArrivePoisson || p.Arrivals == ArriveClosed}
}

// split splits n requests over the entry points, into e.out.
func (e *entrySplit) split(r source, n int64) []int64 {
	if e.drawn {
		left, rest := n, 1.0
		for i, sh := range e.shares {
			k := left
			if i < len(e.shares)-1 && left > 0 {
				k = binomial(r, left, min(1, sh/rest))
			}
			e.out[i], left, rest = k, left-k, rest-sh
		}
		return e.out
	}
	// Each entry gets the whole part of its fractions so far; the few
	// requests left go one each to the entries whose fractions are largest.
	left := n
	for i, sh := range e.shares {
		e.acc[i] += sh * float64(n)
		k := int64(e.acc[i] + 1e-9)
		e.acc[i] -= float64(k)
		e.out[i], left = k, left-k
	}
	for ; left > 0; left-- {
		best := 0
		for i := range e.acc {
			if e.acc[i] > e.acc[best] {
				best = i
			}
		}
		e.acc[best]--
		e.out[best]++
	}
	return e.out
}

// entryLayers are the layers of p's Chain the users call: the entry points
// of a graph, the edge of a chain.
func (p *Plan) entryLayers() []int8 {
	if p.Graph != nil {
		return p.Graph.Entries
	}
	return []int8{0}
}
