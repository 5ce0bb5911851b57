package lab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stormlab/stormlab/model"
)

// unsupported lists what in p the lab cannot run on the real stack yet, one
// phrase each; empty when it can run it all.
func unsupported(p *model.Plan) []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	if p.Engine != model.EngineStochastic {
		add("the queue engine's flattened chain (the lab runs the stochastic engine's scenarios)")
	}
	switch p.Arrivals {
	case model.ArriveClosed:
		add("closed-loop arrivals")
	}
	if len(p.Shape) > 0 {
		add("a load shape")
	}
	if p.Backlog > 0 || p.Abandoned > 0 {
		add("an initial backlog")
	}
	if p.Server == model.ServerLatency {
		add("the congestive latency server")
	}
	if p.Latency > 0 {
		add("a service latency")
	}
	if p.Network.Kind != model.NetworkNone {
		add("network delays")
	}
	if p.FatalShare > 0 {
		add("non-retryable failures (fatal_share)")
	}
	if p.Pushback > 0 {
		add("pushback")
	}
	for i, ch := range p.Changes {
		q := ch.Plan
		if q.ServerPlan != p.ServerPlan || q.Arrivals != p.Arrivals || q.Load != p.Load || q.Clients != p.Clients || len(q.Chain) != len(p.Chain) || q.Cancel != p.Cancel || q.Deadline != p.Deadline {
			add("a change (%d) of anything but the callers' policies", i)
		}
		if !slices.Equal(q.Faults, p.Faults) {
			add("a fault that starts with a change (%d): an unforeseen fault (give it in the file as planned)", i)
		}
		if q.Budget.Kind == "grpc" || p.Budget.Kind == "grpc" {
			add("a change (%d) of a run with gRPC's retry throttling", i)
		}
	}
	for i, l := range p.Chain {
		if l.Hedge.Delay > 0 || l.Hedge.Percentile > 0 {
			add("hedging (layer %d)", i)
		}
		if l.Limiter.On() {
			add("a concurrency limiter (layer %d)", i)
		}
	}
	for _, s := range p.Faults {
		if s.LatFactor != 1 && s.LatFactor != 0 {
			add("slowdown faults")
			break
		}
	}
	if p.Budget.Kind == "grpc" {
		if p.Budget.Scope == model.ScopeChain {
			add("gRPC retry throttling shared by the chain (gRPC's throttle is per channel: use scope = \"layer\", \"client\" or \"dependency\")")
		}
		for i, l := range p.Chain {
			if why := nativeProblem(l); why != "" && (p.Budget.Scope != model.ScopeDependency || i == len(p.Chain)-1) {
				add("%s (layer %d)", why, i)
			}
		}
	}
	return out
}

// supportError is a scenario the lab cannot run: what it lacks.
type supportError struct{ what []string }

func (e *supportError) Error() string {
	return "the lab cannot run " + strings.Join(e.what, ", ") + " on the real stack yet"
}
