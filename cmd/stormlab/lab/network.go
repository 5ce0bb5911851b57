package lab

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/stormlab/stormlab/model"
)

// network is the scenario's network delay in front of a hop's server: a
// call that reaches the server waits the delay before it is handled, and
// its answer waits another before it goes back, each a real sleep on
// loopback scaled by the run's speed, in the model's whole ticks: constant,
// or exponential with the scenario's mean drawn per call and per answer
// (per copy of a hedged call), rounded to the nearest tick. The draws are
// seeded but not the model's: an exponential network agrees in
// distribution only.
type network struct {
	hop   hopServer
	plan  model.NetworkPlan
	ticks int64 // the run's length: no delay is longer
	clock *clock
	k     *counters
	mu    sync.Mutex
	r     *rand.Rand
}

func newNetwork(hop hopServer, p *model.Plan, c *clock, k *counters, seed uint64) *network {
	return &network{hop: hop, plan: p.Network, ticks: p.Ticks, clock: c, k: k, r: rand.New(rand.NewPCG(seed, model.SplitMix(seed)))}
}

// delay draws one crossing's delay, in ticks.
func (n *network) delay() int64 {
	switch n.plan.Kind {
	case model.NetworkConstant:
		return int64(math.Round(n.plan.Delay))
	case model.NetworkExponential:
		n.mu.Lock()
		u := n.r.Float64()
		n.mu.Unlock()
		return int64(math.Min(math.Round(-n.plan.Delay*math.Log(1-u)), float64(n.ticks)))
	}
	return 0
}

func (n *network) call(ctx context.Context, nt note) (int64, error) {
	// the call crosses even when its caller gives up on the way, as the
	// model's call in flight still arrives
	d := n.delay()
	time.Sleep(n.clock.wallTicks(float64(d)))
	if nt.Due >= 0 {
		nt.Due += d
	}
	due, err := n.hop.call(ctx, nt)
	d = n.delay()
	if due >= 0 {
		due += d
	}
	back := time.NewTimer(n.clock.wallTicks(float64(d)))
	defer back.Stop()
	select {
	case <-back.C:
	case <-ctx.Done():
		// nobody waits for the answer: a success is wasted work, as the
		// model counts an answer that reaches a caller who has gone
		if err == nil {
			n.k.add(cWasted, 1)
		}
		return -1, err
	}
	return due, err
}
