package model

import (
	"fmt"
	"math"
)

// Cost is what a cell will take, estimated before it runs.
type Cost struct {
	Ticks int64   // ticks it simulates, all replicates (the queue engine may jump over many of them; the markov engine simulates none)
	Calls float64 // calls it can put on the dependency, all replicates: a bound from above
	State int64   // bytes of live state at its worst: an estimate from above
}

// Cost estimates what running the plan takes: the ticks of every
// replicate, the calls they can make at most (at the highest rate of the
// run, before or after a change, for the whole run), and the state its
// engine holds at the worst moment of a storm
// — every call a request may make alive for the longest a request can
// live, as separate groups when jitter splits them — plus its series when
// one is recorded.
func (p *Plan) Cost(series bool) Cost {
	if p.Engine == EngineMarkov {
		// No tick is simulated; the state is the chain's band, a few
		// factorizations of it, and its vectors.
		m := p.Markov
		n, w := int64(m.States()), int64(min(m.Limit, m.Orbit)+2)
		return Cost{State: n * (2*(2*w+1) + 3*gapKrylov) * 8}
	}
	most := p.mostCalls
	for _, ch := range p.Changes {
		most = math.Max(most, ch.Plan.mostCalls)
	}
	c := Cost{Ticks: p.Ticks * int64(p.Replicates), Calls: most * float64(p.Replicates)}
	if series {
		c.State += (p.Ticks*int64(math.Max(1, math.Round(p.TickS))) + 1) / max(1, int64(math.Round(1/p.TickS))) * seriesBytes
	}
	if p.Engine == EngineQueue {
		l := p.Chain[0]
		w := newWaits(l)
		ring := pow2(int64(math.Min(w.longest(l.Attempts), float64(p.Ticks)))+2) + rowsRing(p, l.Timeout)
		cohorts := ring * int64(min(p.Allowed, 1<<20))
		c.State += ring*24 + cohorts*entryBytes
		return c
	}
	// The longest a request lives: every attempt of the edge waits its
	// timeout and the longest backoff (the whole run when it waits forever).
	life := float64(p.Ticks)
	if top := p.Chain[0]; top.Timeout >= 0 {
		w := newWaits(top)
		life = math.Min(life, float64(top.Attempts)*(float64(top.Timeout)+w.longest(top.Attempts)+1))
	}
	requests := p.peakLoad() / p.TPS * life
	if p.Arrivals == ArriveClosed {
		requests = float64(p.Clients)
	}
	calls := requests * float64(p.Allowed)
	groups := calls
	if !p.jittered() && !p.Single {
		// Without jitter the calls of a tick travel together: a group per
		// tick and path through the chain.
		groups = math.Min(calls, life*float64(p.Allowed))
	}
	entries := 0.0
	if p.Server.Queues() {
		entries = math.Min(calls, float64(p.Ticks)) // abandoned calls merge into one entry a tick
	}
	c.State += int64(math.Min(groups*float64(p.groupSize()+eventBytes)+entries*entryBytes, 1<<62))
	return c
}

// peakLoad is the highest open-loop arrival rate over the fault segments.
func (p *Plan) peakLoad() float64 {
	r := p.Load
	for _, sg := range p.Faults {
		r = math.Max(r, p.Load*sg.ArrFactor)
	}
	for _, sw := range p.switches { // unforeseen spikes
		for _, sg := range sw.Plan.Faults {
			r = math.Max(r, sw.Plan.Load*sg.ArrFactor)
		}
	}
	return r
}

// groupSize is the bytes one group holds in a run of p: the group and its
// place in the free list, and the extra part every group has when bottom
// tries are hedged, cancellation lists children or the top layer's groups
// hold their request's arrival (measure_latency), or a graph's services
// call others in parallel.
func (p *Plan) groupSize() int64 {
	if p.Cancel || p.Latencies || p.Graph != nil || len(p.Chain) > 0 && p.Chain[len(p.Chain)-1].Hedge.Delay > 0 {
		return groupBytes + extraBytes
	}
	return groupBytes
}

// jittered reports whether any caller draws its waits.
func (p *Plan) jittered() bool {
	for _, l := range p.Chain {
		if l.Backoff.Kind != BackoffNone && l.Backoff.Jitter != JitterNone {
			return true
		}
	}
	return false
}

// Warnings lists the settings of the scenario whose verdict may hang on a
// modelling choice rather than on the system: spans shorter than a few
// ticks (timeouts, backoff waits, service latency, network delay; halve
// the tick with stormlab run -refine to see whether it does), and jitter
// steps coarser than half the backoff's base, beyond which the stepped
// draws were not found to agree with exact jitter
// (TestJitterStepApproximates: at a step of the whole base the storm's
// calls come out a third fewer than exact).
func (p *Plan) Warnings() []string { return p.Notes }

// warnings works out Warnings from the scenario the plan was resolved from.
func (p *Plan) warnings(s *Scenario) []string {
	const few = 3
	var w []string
	short := func(what string, ticks float64) {
		if ticks > 0 && ticks < few {
			w = append(w, fmt.Sprintf("%s is %.3g ticks of %v: results may hang on the tick; try a tick at most a third of it", what, ticks, p.Tick))
		}
	}
	for i, l := range s.ChainLayers() {
		name := fmt.Sprintf("layer %d", i)
		if p.Flat {
			name = "the flat caller"
		}
		short(name+"'s timeout", float64(l.Timeout)/float64(p.TickNs))
		if l.Backoff.Kind != "none" {
			short(name+"'s backoff base", float64(l.Backoff.Base)/float64(p.TickNs))
			if st := l.Backoff.JitterStep; st > l.Backoff.Base/2 {
				w = append(w, fmt.Sprintf("%s's jitter_step %v is more than half its backoff base %v: the approximation agrees with exact jitter up to half the base; results may hang on the step", name, st, l.Backoff.Base))
			}
		}
		if p.Flat {
			break
		}
	}
	short("the service latency", p.Latency*p.TPS)
	short("the network delay", p.Network.Delay)
	return w
}
