package lab

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/stormlab/stormlab/model"
)

// generator is the load at the top of the chain: every tick of the
// scenario's time it starts the tick's new user requests, each in its own
// goroutine through the edge layer's client, and it counts their answers.
// The requests are the open loop's (constant, fractions carried; Poisson;
// both at the load shape's load when there is one; or a burst of one
// request per client at the start), or the closed loop's: each client
// sends its first request at a tick drawn uniformly within the first think
// time (all at the start when it is under a tick) and its next one think
// after its answer. It measures its own lag: how late each tick's requests
// started against the tick's real start.
type generator struct {
	p       *model.Plan
	clock   *clock
	k       *counters
	top     *caller
	phases  []runPhase
	apart   bool
	r       *rand.Rand
	poisson distuv.Poisson

	acc, flakyAcc float64
	next          uint64
	// wakes are the closed loop's clients due to send, by tick.
	wakesMu  sync.Mutex
	wakes    [][]int32
	wakeFrom int64           // the first tick woken has not taken
	lags     []time.Duration // per tick that started requests
	wg       sync.WaitGroup
	started  atomic.Int64 // user requests sent
	answered atomic.Int64 // ... and answered
}

// done reports whether every request sent so far has its answer.
func (g *generator) done() bool {
	n := g.started.Load()
	return n > 0 && g.answered.Load() == n
}

func newGenerator(p *model.Plan, c *clock, k *counters, top *caller, phases []runPhase, apart bool, seed uint64) *generator {
	r := rand.New(rand.NewPCG(seed, model.SplitMix(seed)))
	g := &generator{p: p, clock: c, k: k, top: top, phases: phases, apart: apart, r: r, poisson: distuv.Poisson{Src: r}}
	if p.Arrivals == model.ArriveClosed {
		g.wakes = make([][]int32, p.Ticks)
		for cl := range p.Clients {
			at := int64(0)
			if p.ThinkSpan > 1 {
				at = int64(r.Float64() * float64(p.ThinkSpan))
			}
			g.wake(cl, at)
		}
	}
	return g
}

// wake makes closed-loop client cl due to send at tick t, if the run lasts
// until then; at the generator's next tick if it has passed t.
func (g *generator) wake(cl int32, t int64) {
	if t >= g.p.Ticks {
		return
	}
	g.wakesMu.Lock()
	t = max(t, g.wakeFrom)
	g.wakes[t] = append(g.wakes[t], cl)
	g.wakesMu.Unlock()
}

// woken takes the closed-loop clients due to send at tick t.
func (g *generator) woken(t int64) []int32 {
	g.wakesMu.Lock()
	defer g.wakesMu.Unlock()
	var out []int32
	for x := g.wakeFrom; x <= t; x++ {
		out = append(out, g.wakes[x]...)
		g.wakes[x] = nil
	}
	g.wakeFrom = t + 1
	return out
}

// budgetsAt are the budgets of the phase tick t is in.
func (g *generator) budgetsAt(t int64) *budgetGate {
	i := 0
	for i+1 < len(g.phases) && g.phases[i+1].from <= t {
		i++
	}
	return g.phases[i].budgets
}

// arrivals is the new requests of tick t.
func (g *generator) arrivals(t int64, seg *model.Segment) int64 {
	p := g.p
	switch p.Arrivals {
	case model.ArriveBurst:
		if t == 0 {
			return int64(p.Clients)
		}
		return 0
	case model.ArriveClosed:
		return 0 // woken
	}
	load := p.Load
	if len(p.Shape) > 0 {
		load = p.LoadAt(t)
	}
	if p.Arrivals == model.ArrivePoisson {
		g.poisson.Lambda = load * seg.ArrFactor * p.TickS
		if g.poisson.Lambda <= 0 {
			return 0
		}
		return int64(g.poisson.Rand())
	}
	g.acc += load * seg.ArrFactor * p.TickS
	n := int64(g.acc + 1e-9)
	g.acc = max(0, g.acc-float64(n))
	return n
}

// flaky says whether the next request is flaky: the share, fractions
// carried, for constant arrivals and bursts (as the model counts them);
// drawn otherwise.
func (g *generator) flaky() bool {
	p := g.p
	if p.FlakyShare == 0 || p.FlakyTries == 0 {
		return false
	}
	if p.Arrivals == model.ArriveConstant || p.Arrivals == model.ArriveBurst {
		g.flakyAcc += p.FlakyShare
		if g.flakyAcc+1e-9 >= 1 {
			g.flakyAcc--
			return true
		}
		return false
	}
	return g.r.Float64() < p.FlakyShare
}

// run starts the requests of every tick until the run ends or ctx does.
func (g *generator) run(ctx context.Context) {
	seg := 0
	perClient := make([]int64, 1)
	if g.apart {
		perClient = make([]int64, g.p.Clients)
	}
	for t := range g.clock.ticks {
		if !g.clock.sleepUntil(ctx, t) {
			return
		}
		seg = g.p.SegmentAt(seg, t)
		n := g.arrivals(t, &g.p.Faults[seg])
		var woken []int32
		if g.p.Arrivals == model.ArriveClosed {
			woken = g.woken(t)
			n = int64(len(woken))
		}
		budgets := g.budgetsAt(t)
		perClient := perClient
		if !budgets.b.PerClient() {
			perClient = perClient[:1]
		}
		clear(perClient)
		if n == 0 {
			budgets.tick(t, perClient)
			continue
		}
		g.lags = append(g.lags, time.Since(g.clock.at(t)))
		clients := make([]int32, n)
		for i := range clients {
			switch {
			case g.p.Arrivals == model.ArriveBurst:
				clients[i] = int32(i)
			case woken != nil:
				clients[i] = woken[i]
			case g.apart:
				clients[i] = int32(g.r.IntN(int(g.p.Clients)))
			}
			if len(perClient) > 1 {
				perClient[clients[i]]++
			} else {
				perClient[0]++
			}
		}
		budgets.tick(t, perClient)
		g.k.addAt(cRequests, t, n)
		for _, c := range clients {
			nt := note{Request: g.next, Client: c, Flaky: g.flaky(), Due: t}
			g.next++
			g.started.Add(1)
			g.wg.Add(1)
			go g.request(ctx, nt)
		}
	}
}

// request sends one user request and counts its answer in the tick it
// comes.
func (g *generator) request(ctx context.Context, n note) {
	defer g.wg.Done()
	defer g.answered.Add(1)
	if g.p.Deadline >= 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, g.clock.wallTicks(float64(g.p.Deadline)))
		defer stop()
		dl, _ := ctx.Deadline()
		n.Deadline = dl.UnixNano()
	}
	_, err := g.top.call(ctx, n)
	if ctx.Err() != nil && g.p.Deadline < 0 {
		return // the run ended first: the request is pending
	}
	if err == nil {
		g.k.add(cOK, 1)
	} else {
		g.k.add(cFailed, 1)
	}
	if g.p.Arrivals == model.ArriveClosed {
		g.wake(n.Client, g.clock.answered()+g.p.ThinkTicks)
	}
}

// lag is the generator's lag in the scenario's seconds: its 99th
// percentile and its largest, over the ticks that started requests.
func (g *generator) lag() (p99, most float64) {
	if len(g.lags) == 0 {
		return 0, 0
	}
	l := slices.Clone(g.lags)
	slices.Sort(l)
	p99 = l[min(len(l)-1, len(l)*99/100)].Seconds() * g.clock.speed
	return p99, l[len(l)-1].Seconds() * g.clock.speed
}
