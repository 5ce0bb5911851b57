package model

import (
	"strconv"
	"strings"
)

// Changes in a service graph (see "Service graphs" in doc.go). A
// [[scenario.change]] may set each edge's policy, each server's keys and
// the load, as a chain's change sets a layer's policy, the dependency's
// keys and the load; the graph's shape stays as the run started it: its
// services and edges, who calls whom, how each service makes its calls
// (calls, need, quorum), the entry points' shares, and which services
// have a server. At the change the run follows the graph resolved from the
// change's scenario, each server its own plan (stoch.adopt,
// serverSet.adopt).

// graphShapeChange refuses, by the path of the setting (as written below
// [scenario]), a change whose scenario before is s and after is then
// when it alters the graph's shape, or sets a server's key that is fixed
// as the dependency's is (dependency.queue, ...); nil when it does not. A scenario without a graph
// has the empty shape, which a change may not alter either.
func graphShapeChange(s, then *Scenario, settings []Setting) *FieldError {
	const shape = "a change may not alter a graph's shape: its services, its edges (from, to, share) and how each service calls (calls, need, quorum), and which services have a server, stay as the run started; a change may set an edge's policy, a server's keys or the load"
	for _, st := range settings {
		seg := strings.Split(st.Path, ".")
		if len(seg) >= 5 && seg[0] == "graph" && seg[1] == "service" && seg[3] == "server" {
			if k, fixed := fixedKey("dependency." + strings.Join(seg[4:], ".")); fixed {
				return bad(st.Path, "a server's %s cannot change during a run, as %s cannot", strings.TrimPrefix(k, "dependency."), k)
			}
		}
	}
	at := func(key string) *FieldError {
		for _, st := range settings {
			if hits(st.Path, key) {
				return bad(st.Path, shape)
			}
		}
		for _, st := range settings {
			if strings.HasPrefix(st.Path, "graph") {
				return bad(st.Path, shape)
			}
		}
		return bad("graph", shape)
	}
	a, b := &s.Graph, &then.Graph
	switch {
	case len(a.Service) != len(b.Service):
		return at("graph.service." + strconv.Itoa(min(len(a.Service), len(b.Service))))
	case len(a.Edge) != len(b.Edge):
		return at("graph.edge." + strconv.Itoa(min(len(a.Edge), len(b.Edge))))
	}
	for i := range a.Service {
		x, y, p := &a.Service[i], &b.Service[i], "graph."+indexed("service", i)
		switch {
		case x.Name != y.Name:
			return at(p + "name")
		case x.Calls != y.Calls:
			return at(p + "calls")
		case x.Need != y.Need:
			return at(p + "need")
		case x.Quorum != y.Quorum:
			return at(p + "quorum")
		case x.serves() != y.serves():
			return at(p + "server")
		}
	}
	for i := range a.Edge {
		x, y, p := &a.Edge[i], &b.Edge[i], "graph."+indexed("edge", i)
		switch {
		case x.From != y.From:
			return at(p + "from")
		case x.To != y.To:
			return at(p + "to")
		case x.Share != y.Share:
			return at(p + "share")
		}
	}
	return nil
}

// hits reports whether a setting's path (whose "*" stands for every entry
// of a list) sets key or a key below it.
func hits(path, key string) bool {
	p, k := strings.Split(path, "."), strings.Split(key, ".")
	for i := range min(len(p), len(k)) {
		if p[i] != k[i] && p[i] != "*" {
			return false
		}
	}
	return true
}

// graphServersKept refuses a switch from prev to np, plans of a graph,
// that would change what a service's server is rather than its settings:
// its kind (loss, queue, latency server), or priority classes started or
// stopped, as a chain's change may not change its dependency's (path: the
// change's settings). Without a graph there is nothing to refuse.
func graphServersKept(prev, np *Plan, path string) *FieldError {
	if prev.Graph == nil || np.Graph == nil {
		return nil
	}
	for i, sp := range np.Graph.Servers {
		was := prev.Graph.Servers[i]
		if sp == nil || was == nil {
			continue // which services have a server: graphShapeChange
		}
		name := np.Graph.Services[i]
		switch {
		case sp.Server != was.Server:
			return bad(path, "%s's server kind (loss, queue, latency server) cannot change during a run; keep its capacity above 0", name)
		case (sp.AdmissionKind == "priority") != (was.AdmissionKind == "priority"):
			return bad(path, "priority classes (%s's server.admission.kind = \"priority\") cannot start or stop during a run; set them from the start, or leave them", name)
		}
	}
	return nil
}

// sameBudgets reports whether the graphs a and b (nil for a chain) cover
// their calls with the same budgets: a switch between them keeps the
// budgets of the run when their keys are the same too.
func (a *GraphPlan) sameBudgets(b *GraphPlan) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Budgets != b.Budgets || len(a.Nodes) != len(b.Nodes) {
		return false
	}
	for i := range a.Nodes {
		if a.Nodes[i].Budget != b.Nodes[i].Budget {
			return false
		}
	}
	return true
}

// adopt makes each service's health read the limit of np, the plan the
// run switches to, as the run's health does.
func (gh *graphHealth) adopt(np *Plan) {
	for i := range gh.svc {
		gh.svc[i].limit = np.Health.Limit
	}
}
