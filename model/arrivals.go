package model

import (
	"math"
	"slices"
	"sync"
)

// arrivals draws an open loop's new requests tick by tick: constant (load ×
// tick per tick, fractions carried over) or Poisson with mean load × tick,
// spikes applied. It knows the next tick that may have any, so the engines
// can jump over the ticks between: constant arrivals of under one request
// per tick are placed exactly, and Poisson arrivals at under half a request
// per tick by drawing the gap to the next tick with one (then drawing how
// many, at least one). With rng = "minstd", or with groups of one, a
// Poisson variate is drawn every tick, even when it is zero, by Knuth's
// product method, as the "Retries and Storm Risk" article does; ahead
// draws such ticks before they come, so the engine can jump over the ones
// that have none.
type arrivals struct {
	p    *Plan
	r    *rng
	next int64 // the next tick that may have new requests; never when none

	// held: next's new requests were drawn ahead (heldN of them), and the
	// tick after them planned (after).
	held         bool
	heldN, after int64

	acc    float64 // constant: fraction carried over
	accAt  int64   // constant: the first tick not yet accounted in acc
	gap    bool    // next was drawn as a gap: it has at least one request
	seg    int     // segment of the last draw
	lam    float64 // mean new requests per tick there
	knuthL float64 // e^−lam
	knuth  bool    // MINSTD draws Knuth's variate for lam every tick
	pt     int     // the shape's point at or before the last tick drawn
	segTo  int64
	segAt  int64
}

func newArrivals(p *Plan, r *rng) *arrivals {
	a := &arrivals{p: p, r: r, segTo: -1}
	a.plan(0)
	return a
}

// restart makes the arrivals follow p from tick t on (a change): the next
// tick is planned afresh; a constant rate's carried fraction is kept.
func (a *arrivals) restart(p *Plan, t int64) {
	a.p, a.seg, a.segTo, a.segAt, a.knuth, a.gap, a.pt = p, 0, -1, 0, false, false, 0
	a.accAt = max(a.accAt, t)
	a.plan(t)
}

// lambda is the mean number of new requests per tick in segment sg.
func (a *arrivals) lambda(sg *Segment) float64 {
	return a.p.Load * sg.ArrFactor / a.p.TPS
}

// perTick reports whether a Poisson variate is drawn every tick.
func (a *arrivals) perTick(lam float64) bool { return a.p.Minstd || a.p.Single || lam >= 0.5 }

// plan finds the next tick ≥ from that may have new requests.
func (a *arrivals) plan(from int64) {
	a.next = never
	p := a.p
	switch {
	case p.Arrivals == ArriveClosed:
		return
	case p.Arrivals == ArriveBurst:
		if from == 0 {
			a.next = 0
		}
		return
	case len(p.Shape) > 0:
		if from < p.Ticks {
			a.next = from // the rate changes: a draw every tick
		}
		return
	case p.Load <= 0:
		return
	}
	i := a.seg
	for from < p.Ticks {
		i = p.SegmentAt(i, from)
		sg := &p.Faults[i]
		lam := a.lambda(sg)
		if lam <= 0 {
			from = sg.To
			continue
		}
		switch {
		case p.Arrivals == ArriveConstant:
			// The first k ≥ 0 with acc + (k+1)·λ ≥ 1.
			k := int64(0)
			if need := 1 - 1e-9 - a.acc; need > lam {
				k = int64(math.Ceil(need/lam)) - 1
			}
			if from+k < sg.To {
				a.next, a.accAt = from+k, from
				return
			}
			a.acc += float64(sg.To-from) * lam
			from = sg.To
		case a.perTick(lam):
			a.next, a.gap = from, false
			return
		default:
			g := geometricGap(a.r, lam)
			if g < sg.To-from {
				a.next, a.gap = from+g, true
				return
			}
			from = sg.To
		}
	}
}

// draw returns the new requests of tick t (t == next) and plans the next.
func (a *arrivals) draw(t int64) int64 {
	if a.held {
		a.held, a.next = false, a.after
		return a.heldN
	}
	if a.knuth && t+1 < a.segTo && t >= a.segAt {
		a.next = t + 1 // the common case: Knuth's draw every tick of a segment
		return a.r.ms.poissonL(a.knuthL)
	}
	return a.drawAt(t)
}

// drawAt is draw for the cases other than arrivals drawn ahead and the
// Knuth draw of a tick within its segment.
func (a *arrivals) drawAt(t int64) int64 {
	p := a.p
	switch {
	case p.Arrivals == ArriveBurst:
		a.next = never
		return int64(p.Clients)
	case len(p.Shape) > 0:
		return a.drawShaped(t)
	}
	if t >= a.segTo || t < a.segAt {
		a.seg = p.SegmentAt(a.seg, t)
		sg := &p.Faults[a.seg]
		a.segAt, a.segTo = sg.From, sg.To
		a.lam = a.lambda(sg)
		a.knuthL = math.Exp(-a.lam)
		a.knuth = a.r.ms != nil && p.Arrivals == ArrivePoisson && a.lam > 0 && a.lam <= 500
	}
	lam := a.lam
	var n int64
	every := false
	switch {
	case p.Arrivals == ArriveConstant && a.acc == 0 && t == a.accAt && lam == math.Trunc(lam):
		n, every = int64(lam), true // a whole number every tick, nothing carried
		a.accAt = t + 1
	case p.Arrivals == ArriveConstant:
		a.acc += float64(t-a.accAt+1) * lam
		f := math.Floor(a.acc + 1e-9)
		a.acc = math.Max(0, a.acc-f)
		n = int64(f)
		a.accAt = t + 1
		every = lam >= 1 // the next tick has at least one
	case a.r.ms != nil:
		every = true
		if lam > 500 {
			n = knuthPoisson(a.r, lam)
		} else {
			n = a.r.ms.poissonL(a.knuthL)
		}
	case a.gap:
		n = poissonPositive(a.r, lam)
	default:
		every = true
		n = a.r.poisson(lam)
	}
	if every && t+1 < a.segTo {
		a.next = t + 1 // same segment: a draw every tick
	} else {
		a.plan(t + 1)
	}
	return n
}

// ahead returns the first tick before limit with new requests, or limit
// when none has any, drawing the ticks from next on until one has some
// (that one's count is kept for draw). The engine asks it when nothing but
// arrivals can happen before limit, so the draws come in the same order as
// tick by tick, and the ticks without arrivals can be jumped over.
func (a *arrivals) ahead(limit int64) int64 {
	for !a.held && a.next < limit {
		t := a.next
		if n := a.draw(t); n > 0 {
			a.held, a.heldN, a.after, a.next = true, n, a.next, t
		}
	}
	return min(a.next, limit)
}

// drawShaped draws tick t's arrivals under a load shape: the shape's load
// at t, spikes applied, constant (fractions carried) or Poisson.
func (a *arrivals) drawShaped(t int64) int64 {
	p := a.p
	a.seg = p.SegmentAt(a.seg, t)
	lam := a.shapeAt(t) * p.Faults[a.seg].ArrFactor / p.TPS
	var n int64
	if p.Arrivals == ArriveConstant {
		a.acc += lam
		f := math.Floor(a.acc + 1e-9)
		a.acc = math.Max(0, a.acc-f)
		n = int64(f)
	} else {
		n = a.r.poisson(lam)
	}
	if a.next = t + 1; a.next >= p.Ticks {
		a.next = never
	}
	return n
}

// shapeAt is the load (requests per second) the shape gives at tick t:
// the points joined by straight lines, flat before the first and after the
// last.
func (a *arrivals) shapeAt(t int64) float64 {
	sh := a.p.Shape
	for a.pt+1 < len(sh) && sh[a.pt+1].At <= t {
		a.pt++
	}
	x := sh[a.pt]
	if t <= x.At || a.pt+1 == len(sh) {
		return x.Load
	}
	y := sh[a.pt+1]
	return x.Load + (y.Load-x.Load)*float64(t-x.At)/float64(y.At-x.At)
}

// every reports whether the ticks from t on in t's segment each draw the
// same whole number of constant arrivals with nothing carried, or none at
// all, so that a run of them can be jumped over with skip.
func (a *arrivals) every(t int64) bool {
	if a.next == never {
		return true
	}
	if len(a.p.Shape) > 0 {
		return false
	}
	return a.p.Arrivals == ArriveConstant && a.next == t && a.accAt == t && a.acc == 0 &&
		a.lam == math.Trunc(a.lam) && t >= a.segAt && t < a.segTo
}

// skip moves the arrivals k ticks on, past ticks every allowed.
func (a *arrivals) skip(k int64) {
	if a.next != never {
		a.next += k
		a.accAt += k
	}
}

// split is n of something at d (a client, or a wait in ticks).
type split struct {
	d int64
	n int64
}

// splitClients spreads n new requests over c clients into dst (d = client):
// round robin for constant arrivals (rr counts the requests so far), one
// uniform draw per request with groups of one or when n ≤ c, sequential
// binomials otherwise; the same client's requests are merged unless single.
func splitClients(dst []split, r *rng, n, c int64, constant, single bool, rr *int64) []split {
	dst = dst[:0]
	switch {
	case n == 0:
	case c <= 1:
		dst = append(dst, split{0, n})
	default:
		dst = splitOver(dst, r, n, c, constant, single, rr)
	}
	return dst
}

// splitOver is splitClients for n > 0 requests over c > 1 clients.
func splitOver(dst []split, r *rng, n, c int64, constant, single bool, rr *int64) []split {
	switch {
	case constant:
		for range n {
			dst = append(dst, split{*rr % c, 1})
			*rr++
		}
		dst = groupSplits(dst)
	case single || n <= c:
		for range n {
			dst = append(dst, split{int64(r.Float64() * float64(c)), 1})
		}
		if !single {
			dst = groupSplits(dst)
		}
	default:
		rest := n
		for k := int64(0); k < c && rest > 0; k++ {
			m := rest
			if k < c-1 {
				m = binomial(r, rest, 1/float64(c-k))
			}
			if m > 0 {
				dst = append(dst, split{k, m})
			}
			rest -= m
		}
	}
	return dst
}

// groupSplits merges splits with the same d, ordered by d.
func groupSplits(x []split) []split {
	if len(x) < 2 {
		return x
	}
	if len(x) <= 32 {
		// Insertion sort, stable: the lists are short (a draw per
		// instance up to 16) and often in order already.
		for i := 1; i < len(x); i++ {
			for j := i; j > 0 && x[j].d < x[j-1].d; j-- {
				x[j], x[j-1] = x[j-1], x[j]
			}
		}
	} else {
		slices.SortStableFunc(x, func(a, b split) int {
			switch {
			case a.d < b.d:
				return -1
			case a.d > b.d:
				return 1
			}
			return 0
		})
	}
	out := x[:1]
	for _, v := range x[1:] {
		if v.d == out[len(out)-1].d {
			out[len(out)-1].n += v.n
		} else {
			out = append(out, v)
		}
	}
	return out
}

// arrivalKinds is the registry of the ways requests arrive.
var arrivalKinds = sync.OnceValue(func() []Kind {
	return []Kind{
		{Name: "constant", Doc: "load requests a second, fractions carried from tick to tick (open loop)", Engines: OnBoth, Reads: []string{"load", "shape", "clients"}},
		{Name: "poisson", Doc: "a Poisson number of requests a tick, load a second on average (open loop)", Engines: OnAll, Reads: []string{"load", "shape", "clients"}},
		{Name: "closed", Doc: "clients clients with one request outstanding each, pausing think between them (closed loop)", Engines: OnStochastic, Reads: []string{"clients", "think", "load"}},
		{Name: "burst", Doc: "clients requests at once at the start, none after", Engines: OnBoth, Reads: []string{"clients"}},
	}
})
