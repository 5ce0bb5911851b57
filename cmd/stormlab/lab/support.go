package lab

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/stormlab/stormlab/model"
)

// kindSupport is what the lab does with every kind the model registers
// (model.Families()), by the key that picks it: "" for a kind it runs,
// else what it cannot run yet, as a refusal names it. A test checks that
// it names every registered kind and no other.
func kindSupport() map[string]map[string]string {
	runs := func(kinds ...string) map[string]string {
		m := map[string]string{}
		for _, k := range kinds {
			m[k] = ""
		}
		return m
	}
	arrivals := runs("constant", "poisson", "closed", "burst")
	queue := runs("fifo", "lifo", "none")
	queue["latency"] = "the congestive latency server"
	queue["pool"] = "a worker pool (dependency.workers)"
	// refused names every kind of family but the ones given, as what.
	refused := func(family string, what string, run ...string) map[string]string {
		m := runs(run...)
		for _, f := range model.Families() {
			if f.Key != family {
				continue
			}
			for _, k := range f.Names() {
				if _, ok := m[k]; !ok {
					m[k] = fmt.Sprintf("%s (%s)", what, k)
				}
			}
		}
		return m
	}
	return map[string]map[string]string{
		"dependency.service.kind":   refused("dependency.service.kind", "a service-time law", "constant"),
		"dependency.admission.kind": refused("dependency.admission.kind", "an admission rule at the dependency", "none"),
		"layer.N.limiter.kind":      refused("layer.N.limiter.kind", "a concurrency limiter", "none"),
		"arrivals":                  arrivals,
		"layer.N.backoff.kind":      runs("none", "constant", "exponential"),
		"layer.N.backoff.jitter":    runs("none", "full", "equal", "decorrelated"),
		"layer.N.breaker.kind":      runs("none", "consecutive", "ratio"),
		"budget.kind":               runs("none", "per_tick", "ratio", "token_bucket", "grpc", "finagle", "envoy", "aws", "adaptive"),
		"dependency.queue":          queue,
		"dependency.network.kind":   runs("none", "constant", "exponential"),
		"fault.N.kind":              runs("outage", "degradation", "slowdown", "spike"),
		"health.rule":               runs("queue", "goodput"),
	}
}

// chosenKinds names the kinds of p that the lab may refuse, by the key
// that picks each.
func chosenKinds(p *model.Plan) map[string]string {
	arrivals := map[model.ArrivalKind]string{model.ArriveConstant: "constant", model.ArrivePoisson: "poisson", model.ArriveClosed: "closed", model.ArriveBurst: "burst"}
	queue := map[model.ServerKind]string{model.ServerLoss: "none", model.ServerFIFO: "fifo", model.ServerLIFO: "lifo", model.ServerLatency: "latency"}
	queue[model.ServerPool] = "pool"
	chosen := map[string]string{"arrivals": arrivals[p.Arrivals], "dependency.queue": queue[p.Server],
		"dependency.service.kind": p.ServiceKind, "dependency.admission.kind": p.AdmissionKind}
	for _, l := range p.Chain {
		if l.Limiter.On() {
			chosen["layer.N.limiter.kind"] = l.Limiter.Kind
		}
	}
	return chosen
}

// unsupported lists what in p the lab cannot run on the real stack yet, one
// phrase each; empty when it can run it all.
func unsupported(p *model.Plan) []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	if p.Engine != model.EngineStochastic {
		add("the queue engine's flattened chain (the lab runs the stochastic engine's scenarios)")
	}
	support := kindSupport()
	chosen := chosenKinds(p)
	for _, key := range slices.Sorted(maps.Keys(chosen)) {
		if why := support[key][chosen[key]]; why != "" {
			add("%s", why)
		}
	}
	if p.Backlog > 0 || p.Abandoned > 0 {
		add("an initial backlog")
	}
	if p.Graph != nil {
		add("a service graph with fan-out or several servers (the lab builds a chain of callers above one dependency)")
	}
	if p.Pushback > 0 && p.Budget.Kind == "grpc" {
		add("pushback with gRPC's retry throttling (grpc-go takes a token for a call pushed back, where the model's grpc budget is not told of an answer not to retry)")
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
	for _, ph := range append([]model.PlanChange{{Plan: p}}, p.Changes...) {
		for i, l := range ph.Plan.Chain {
			for _, why := range hedgeProblems(ph.Plan, l.Hedge) {
				add("%s (layer %d)", why, i)
			}
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
	return slices.Compact(out)
}

// hedgeProblems says why the lab cannot hedge as h says in a run of p:
// nothing when it can.
func hedgeProblems(p *model.Plan, h model.HedgePlan) []string {
	if h.Delay <= 0 {
		return nil
	}
	var out []string
	if p.Budget.Kind == "grpc" {
		out = append(out, "hedging with gRPC's retry throttling (grpc-go has no hedging, and the lab's hedges cannot be charged to its throttle)")
	}
	return out
}

// supportError is a scenario the lab cannot run: what it lacks.
type supportError struct{ what []string }

func (e *supportError) Error() string {
	return "the lab cannot run " + strings.Join(e.what, ", ") + " on the real stack yet"
}
