package model

import (
	"math"
	"sync"
)

// health judges at the end of every tick whether the system is healthy as
// the user at the edge sees it (Plan.Health), and remembers the last
// unhealthy tick at or after the fault's start: the run has recovered when
// that is not its last tick.
//
// It also remembers the first unhealthy tick of the run (the collapse,
// with or without a fault) and the first tick, from the fault's end (the
// start without a fault), whose backlog is at most Health.Limit (the drain).
//
// The queue rule: the calls waiting at the dependency are at most
// Health.Limit. The goodput rule: over the last Health.WindowTicks ticks,
// successes are at least Health.Goodput × arrivals; healthy until the first
// window is complete.
//
// The verdict (verdict.go) also needs demand: the requests that arrived,
// and the ones that succeeded, from the tick after the trigger on
// (judgeFrom); and how the backlog ended (endWatch).
type health struct {
	rule    HealthRule
	limit   float64
	gp      goodputWindow
	from    int64 // the fault's first tick (0 without a fault): earlier ticks do not count
	lastBad int64
	// firstBad: the first unhealthy tick; drained: the first tick at or
	// after drainFrom with the backlog at most limit (−1: none yet).
	firstBad, drained, drainFrom int64
	// judgeFrom is the first tick after the trigger: the fault's end, or
	// tick 1 without a fault (a burst in tick 0 leaves nothing to judge);
	// demand and okAfter count the requests that arrived and succeeded
	// from it on.
	judgeFrom, demand, okAfter int64
	end                        endWatch
}

func newHealth(p *Plan) health {
	judgeFrom := max(p.Fault.To, 1)
	h := health{rule: p.Health.Rule, limit: p.Health.Limit, from: p.Fault.From, lastBad: -1,
		firstBad: -1, drained: -1, drainFrom: p.Fault.To, judgeFrom: judgeFrom,
		end: newEndWatch(p.Ticks, judgeFrom, p.Engine == EngineStochastic),
		gp:  goodputWindow{w: p.Health.WindowTicks, g: p.Health.Goodput}}
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
// arrived, with backlog calls waiting at its end and work held by the
// dependency (endWatch).
func (h *health) observe(t, ok, arrivals, backlog, work int64) (unhealthy bool) {
	if t >= h.judgeFrom {
		h.demand += arrivals
		h.okAfter += ok
	}
	h.end.tick(t, float64(work))
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
	h.mark(t, t+1, unhealthy, backlog)
	return unhealthy
}

// mark records that ticks a..b−1 were all unhealthy or all healthy, with
// backlog calls waiting at the end of each.
func (h *health) mark(a, b int64, unhealthy bool, backlog int64) {
	if unhealthy && b-1 >= h.from {
		h.lastBad = b - 1
	}
	if unhealthy && h.firstBad < 0 {
		h.firstBad = a
	}
	if h.drained < 0 {
		if x := max(a, h.drainFrom); x < b && float64(backlog) <= h.limit+1e-9 {
			h.drained = x
		}
	}
}

// idle judges ticks a..b−1 in which nothing happened, with backlog calls
// waiting and work held throughout, and reports each stretch of equal
// health to mark (when not nil).
func (h *health) idle(a, b, backlog, work int64, mark func(x, y int64, unhealthy bool)) {
	h.end.add(a, b, float64(work), 0)
	if h.rule == HealthQueue {
		h.note(a, b, float64(backlog) > h.limit+1e-9, backlog, mark)
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
		h.note(x, nx, !ok, backlog, mark)
		x = nx
	}
}

// note marks ticks a..b−1 all unhealthy or all healthy, with backlog calls
// waiting at the end of each, and reports them to mark (when not nil).
func (h *health) note(a, b int64, unhealthy bool, backlog int64, mark func(x, y int64, unhealthy bool)) {
	h.mark(a, b, unhealthy, backlog)
	if mark != nil {
		mark(a, b, unhealthy)
	}
}

// repeat judges k ticks from tick from that repeat the last one judged:
// ok successes and arrivals each, unhealthy or not, the backlog at the end
// of the first of them first and on the same side of the limit throughout,
// the work held workFirst at the end of the first and changing by dWork a
// tick.
func (h *health) repeat(from, k, ok, arr int64, unhealthy bool, first, workFirst, dWork int64) {
	last := from + k - 1
	if n := last + 1 - max(from, h.judgeFrom); n > 0 {
		h.demand += n * arr
		h.okAfter += n * ok
	}
	h.end.add(from, last+1, float64(workFirst), float64(dWork))
	if h.rule == HealthGoodput {
		for x := max(from, last-h.gp.w+1); x <= last; x++ {
			if ok != 0 || arr != 0 {
				h.gp.add(x, float64(ok), float64(arr))
			}
			h.gp.expire(x)
		}
	}
	h.mark(from, last+1, unhealthy, first)
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

// verdict fills in m's judgement of a run of p: the verdict and recovery,
// collapse, drain. A run without a trigger (no fault, no initial backlog)
// has no recovery time: recovered then means healthy at the end.
func (h *health) verdict(m *Metrics, p *Plan) {
	rec, recS := h.recovery(p.Ticks, p.TickS, p.Fault.End.Seconds())
	m.EndBacklog = h.end.last
	m.DrainRate, m.DrainLeftS = math.NaN(), math.NaN()
	switch {
	case h.demand == 0:
		m.Verdict, recS = NotJudged, math.NaN()
	case rec && h.okAfter > 0:
		m.Verdict = Recovered
	default:
		m.Verdict, recS = Stuck, math.NaN()
		if draining, rate, left := h.end.state(h.limit, p.TickS); draining {
			m.Verdict, m.DrainRate, m.DrainLeftS = Draining, rate, left
		}
	}
	if !p.Triggered() {
		recS = math.NaN()
	}
	m.RecoveryS = recS
	m.CollapseS, m.DrainS = h.collapse(p.TickS), h.drain(p.TickS)
	m.AfterChangeS = h.afterChange(p)
	m.CollapseLoad, m.RecoveryLoad = h.turningLoads(p)
}

// collapse is the seconds from the run's start to the start of its first
// unhealthy tick; NaN when it never was.
func (h *health) collapse(tickS float64) float64 {
	if h.firstBad < 0 {
		return math.NaN()
	}
	return float64(h.firstBad) * tickS
}

// drain is the seconds from the fault's end (the run's start without a
// fault) to the start of the first tick whose backlog was at most the
// healthy limit; NaN when it never was, or there is no limit.
func (h *health) drain(tickS float64) float64 {
	if h.drained < 0 {
		return math.NaN()
	}
	return float64(h.drained-h.drainFrom) * tickS
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
		g.grow()
	}
	g.ents[(g.head+g.n)&(len(g.ents)-1)] = gpEnt{t, ok, arr}
	g.n++
	g.ok += ok
	g.arr += arr
}

// grow doubles the ring (at least 16 entries), keeping its entries.
func (g *goodputWindow) grow() {
	grown := make([]gpEnt, max(16, 2*len(g.ents)))
	for i := range g.n {
		grown[i] = g.ents[(g.head+i)&(len(g.ents)-1)]
	}
	g.ents, g.head = grown, 0
}

// first returns the oldest entry's tick, or never.
func (g *goodputWindow) first() int64 {
	if g.n == 0 {
		return never
	}
	return g.ents[g.head].t
}

func (g *goodputWindow) expire(t int64) {
	cut, mask := t-g.w, len(g.ents)-1
	for ; g.n > 0; g.n-- {
		e := &g.ents[g.head&mask]
		if e.t > cut {
			return
		}
		g.ok -= e.ok
		g.arr -= e.arr
		g.head = (g.head + 1) & mask
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

// healthRules is the registry of the health rules (health.rule; empty
// picks the queue rule where calls wait for a capacity and the user at the
// edge gives up, the goodput rule otherwise).
var healthRules = sync.OnceValue(func() []Kind {
	return []Kind{
		{Name: "queue", Doc: "healthy while the calls waiting are at most capacity × (the edge's timeout − latency − the network's round trip)", Engines: OnAll},
		{Name: "goodput", Doc: "healthy while, over the last window, successes are at least goodput × arrivals", Engines: OnBoth, Reads: []string{"goodput", "window"}},
	}
})
