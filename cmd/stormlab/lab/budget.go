package lab

import (
	"sync"

	"github.com/stormlab/stormlab/model"
)

// budgetGate is a run's retry budgets for the lab's clients: the model's
// own budget kinds (model.SharedBudgets), one rule in one place, asked one
// try at a time under a lock. It serves the kinds no library the lab uses
// has: every kind but grpc, which gRPC's retry throttling runs itself, and
// envoy, which failsafe-go's budget would approximate (see the report's
// notes). A budget of scope chain or client is shared by the lab's
// processes through this gate, as one process holds them all; a real
// deployment would need a shared service for it.
type budgetGate struct {
	mu sync.Mutex
	b  *model.SharedBudgets
}

func newBudgetGate(p *model.Plan, seed uint64) *budgetGate {
	return &budgetGate{b: model.NewSharedBudgets(p, seed)}
}

func (g *budgetGate) on() bool { return g.b.On() }

func (g *budgetGate) send(layer, client int, retry bool) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.b.Send(layer, client, retry)
}

// fail tells a failed try and answers whether it may be retried.
func (g *budgetGate) fail(layer, client int, timeout, last bool) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.b.Fail(layer, client, timeout, last)
}

func (g *budgetGate) succeed(layer, client int, retry, afterTimeout bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.b.Succeed(layer, client, retry, afterTimeout)
}

func (g *budgetGate) end(layer, client int, retry bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.b.End(layer, client, retry)
}

// tick starts tick t with the user requests that arrived in it, by client.
func (g *budgetGate) tick(t int64, arrivals []int64) {
	if !g.b.Ticks() {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.b.Tick(t, arrivals)
}
