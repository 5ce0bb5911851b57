package model

import "math"

// health judges at the end of every tick whether the system is healthy as
// the user at the edge sees it (Plan.Health), and remembers the last
// unhealthy tick at or after the fault's start: the run has recovered when
// that is not its last tick.
//
// The queue rule: the calls waiting at the dependency are at most
// Health.Limit. The goodput rule: over the last Health.WindowTicks ticks,
// successes are at least Health.Goodput × arrivals; healthy until the first
// window is complete.
type health struct {
	rule    HealthRule
	limit   float64
	gp      goodputWindow
	from    int64 // the fault's first tick (0 without a fault): earlier ticks do not count
	lastBad int64
	every   bool // judge every tick (a series is recorded), not only those that can matter
}

func newHealth(p *Plan, every bool) health {
	h := health{rule: p.Health.Rule, limit: p.Health.Limit, from: p.Fault.From, lastBad: -1, every: every,
		gp: goodputWindow{w: p.Health.WindowTicks, g: p.Health.Goodput}}
	if h.rule == HealthGoodput && h.gp.w < 1<<12 {
		n := 16
		for int64(n) <= h.gp.w {
			n <<= 1
		}
		h.gp.ents = make([]gpEnt, n)
	}
	return h
}

// observe judges tick t, in which ok requests succeeded and arrivals
// arrived, with backlog calls waiting at its end. Ticks long before the
// fault are not judged unless every tick is: they cannot change the verdict.
func (h *health) observe(t, ok, arrivals, backlog int64) (unhealthy bool) {
	if !h.every && t+h.gp.w < h.from {
		return false
	}
	if h.rule == HealthQueue {
		unhealthy = float64(backlog) > h.limit+1e-9
	} else {
		g := &h.gp
		if ok != 0 || arrivals != 0 {
			g.add(t, float64(ok), float64(arrivals))
		}
		g.expire(t)
		unhealthy = !g.healthy(t)
	}
	if unhealthy && t >= h.from {
		h.lastBad = t
	}
	return unhealthy
}

// idle judges ticks a..b−1 in which nothing happened, with backlog calls
// waiting throughout, and reports each stretch of equal health to mark
// (when not nil).
func (h *health) idle(a, b, backlog int64, mark func(x, y int64, unhealthy bool)) {
	note := func(x, y int64, unhealthy bool) {
		if unhealthy && y-1 >= h.from {
			h.lastBad = y - 1
		}
		if mark != nil {
			mark(x, y, unhealthy)
		}
	}
	if h.rule == HealthQueue {
		note(a, b, float64(backlog) > h.limit+1e-9)
		return
	}
	g := &h.gp
	for x := a; x < b; {
		g.expire(x)
		ok := g.healthy(x)
		nx := b
		if f := g.first(); f != never {
			nx = min(nx, f+g.w)
		}
		if x < g.w-1 {
			nx = min(nx, g.w-1)
		}
		nx = max(nx, x+1)
		note(x, nx, !ok)
		x = nx
	}
}

// repeat judges k ticks from tick from that repeat the last one judged:
// ok successes and arrivals each, unhealthy or not.
func (h *health) repeat(from, k, ok, arr int64, unhealthy bool) {
	last := from + k - 1
	if h.rule == HealthGoodput {
		for x := max(from, last-h.gp.w+1); x <= last; x++ {
			if ok != 0 || arr != 0 {
				h.gp.add(x, float64(ok), float64(arr))
			}
			h.gp.expire(x)
		}
	}
	if unhealthy && last >= h.from {
		h.lastBad = last
	}
}

// recovery is the verdict of a run of ticks ticks whose fault ended at
// faultEnd seconds: recovered, and the seconds from the fault's end until
// healthy for good (0 when the fault never made it unhealthy; NaN when
// never).
func (h *health) recovery(ticks int64, tickS, faultEnd float64) (bool, float64) {
	if h.lastBad == ticks-1 {
		return false, math.NaN()
	}
	if h.lastBad < 0 {
		return true, 0
	}
	return true, math.Max(0, float64(h.lastBad+1)*tickS-faultEnd)
}

// goodputWindow keeps successes and arrivals of the ticks in the health
// window that had any (a ring of at most w+1 entries), so idle stretches cost
// nothing.
type goodputWindow struct {
	w       int64
	g       float64
	ents    []gpEnt // ring, a power of two long
	head, n int
	ok, arr float64
}

type gpEnt struct {
	t       int64
	ok, arr float64
}

func (g *goodputWindow) add(t int64, ok, arr float64) {
	if g.n == len(g.ents) {
		grown := make([]gpEnt, max(16, 2*len(g.ents)))
		for i := range g.n {
			grown[i] = g.ents[(g.head+i)&(len(g.ents)-1)]
		}
		g.ents, g.head = grown, 0
	}
	g.ents[(g.head+g.n)&(len(g.ents)-1)] = gpEnt{t, ok, arr}
	g.n++
	g.ok += ok
	g.arr += arr
}

// first returns the oldest entry's tick, or never.
func (g *goodputWindow) first() int64 {
	if g.n == 0 {
		return never
	}
	return g.ents[g.head].t
}

func (g *goodputWindow) expire(t int64) {
	for g.n > 0 && g.ents[g.head].t <= t-g.w {
		e := &g.ents[g.head]
		g.ok -= e.ok
		g.arr -= e.arr
		g.head = (g.head + 1) & (len(g.ents) - 1)
		g.n--
	}
}

// healthy applies the goodput rule over the window ending at tick t.
func (g *goodputWindow) healthy(t int64) bool {
	if t+1 < g.w {
		return true
	}
	return g.ok >= g.g*g.arr-1e-9
}

// never is a tick after any run.
const never = int64(1) << 62
