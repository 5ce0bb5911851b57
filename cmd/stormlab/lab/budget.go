package lab

import (
	"fmt"
	"sync"

	"github.com/stormlab/stormlab/model"
)

// budgetGate is a run's retry budgets for the lab's clients: the model's
// own budget kinds (model.SharedBudgets), one rule in one place, asked one
// try at a time under a lock. It serves every kind but grpc, which gRPC's
// retry throttling runs itself (budgetNote says, per kind, what a library
// has instead). A budget of scope chain or client is shared by the lab's
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

// hedge asks whether a hedge may be sent, and charges it.
func (g *budgetGate) hedge(layer, client int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.b.Hedge(layer, client)
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

// budgetNote is the report's note on how the lab runs a budget kind other
// than grpc.
func budgetNote(kind string) string {
	switch kind {
	case "envoy":
		return "The envoy budget is the model's own, asked by the lab's clients one try at a time: failsafe-go's budget (budget.Budget: a maximum share of in-flight executions that are retries, with a minimum concurrency) is the nearest library policy, but it counts executions where Envoy counts requests to the cluster, and the lab does not use it yet"
	case "adaptive":
		return "The adaptive budget is the model's own, asked by the lab's clients one try at a time: failsafe-go's adaptivethrottler implements the same client-side throttling, with its own window and rejection threshold, and the lab does not use it yet"
	}
	return fmt.Sprintf("No library the lab uses has the %s budget: the lab's clients ask stormlab's own implementation, the model's, one try at a time", kind)
}
