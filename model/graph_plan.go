package model

import (
	"math"
	"reflect"
	"strconv"
	"strings"
)

// GraphPlan is a service graph resolved: its calls unfolded from each entry
// point into a tree, one node per layer of the Plan's Chain (which holds
// each call's policy), and the plans its services' servers run on. A plan
// of a chain has none (ChainPlan.Graph is nil), whether the file wrote a
// chain or a graph of one path.
type GraphPlan struct {
	Nodes    []GraphNode
	Services []string // the services' names, as written
	Edges    []string // each edge as "from→to" ("→to" for an entry point)
	// Entries are the nodes of the entry points (node 0 the first), and
	// Shares the share of the users' requests each takes (1 for one).
	Entries []int8
	Shares  []float64
	// Budgets is how many budgets a scope of edge, caller or callee makes.
	Budgets int
	// Servers holds, by service, the plan the service's server runs on:
	// the run's plan with that server's ServerPlan and FaultPlan (nil: a
	// service without a server).
	Servers []*Plan
}

// GraphNode is one call of a graph unfolded into a tree: the layer of the
// same index in the Plan's Chain.
type GraphNode struct {
	Edge     int    // the edge as written
	Service  int    // the service called
	Server   int    // the service, when it has a server; −1 otherwise
	Parent   int8   // the node whose service makes this call; −1 for an entry point
	Kids     []int8 // the calls the service makes in turn, in file order
	Slot     int8   // its place in its parent's Kids (0 for an entry point)
	Sequence bool   // it makes them one after the other
	Need     int32  // parallel: how many of them must succeed
	Budget   int    // budget.scope edge, caller or callee: the budget covering this call
}

// resolveGraph resolves a scenario with a graph: its keys checked where
// written, its structure (Graph.shape), then the scenario lowered to a
// chain of its unfolded calls and resolved as a chain is. A graph of one
// path is the chain's plan exactly; another keeps its graph beside the
// lowered layers (FlatAttempts counts its calls) and gets a GraphPlan and,
// for each service with a server, that server's plan.
func (s *Scenario) resolveGraph() (*Plan, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	sh, fe := s.Graph.shape()
	if fe != nil {
		return nil, fe
	}
	if fe := s.graphReplaces(); fe != nil {
		return nil, fe
	}
	low := *s
	low.Layers = 0
	low.Layer = make([]Layer, len(sh.nodes))
	for i, e := range sh.nodes {
		low.Layer[i] = s.Graph.Edge[e]
		low.Layer[i].From, low.Layer[i].To, low.Layer[i].Share = "", "", 0
	}
	g := &s.Graph
	if fe := s.graphFaults(); fe != nil {
		return nil, fe
	}
	low.Fault = make([]Fault, len(s.Fault))
	for i, f := range s.Fault {
		low.Fault[i] = f
		low.Fault[i].Service = ""
	}
	if g.isChain(sh) {
		last := sh.service[g.Edge[sh.nodes[len(sh.nodes)-1]].To]
		low.Dependency = s.serverOf(last)
		low.Graph = Graph{}
		p, err := low.resolve()
		if err != nil {
			return nil, graphPath(err, sh, last)
		}
		return p, nil
	}
	if fe := s.graphModelled(); fe != nil {
		return nil, fe
	}
	if s.hasUnforeseen() || len(s.Change) > 0 {
		return s.resolveGraphSwitches()
	}
	gp := &GraphPlan{Servers: make([]*Plan, len(g.Service))}
	for _, sv := range g.Service {
		gp.Services = append(gp.Services, sv.Name)
	}
	for _, e := range g.Edge {
		gp.Edges = append(gp.Edges, e.From+"→"+e.To)
	}
	first := -1
	for i, e := range sh.nodes {
		svc := sh.service[g.Edge[e].To]
		sv := &g.Service[svc]
		n := GraphNode{Edge: e, Service: svc, Server: -1, Parent: sh.parent[i], Sequence: sv.Calls == "sequence"}
		if n.Parent < 0 {
			gp.Entries = append(gp.Entries, int8(i))
			gp.Shares = append(gp.Shares, 1)
			if len(sh.entries) > 1 {
				gp.Shares[len(gp.Shares)-1] = g.Edge[e].Share
			}
		}
		if sv.serves() {
			n.Server = svc
			if first < 0 {
				first = svc
			}
		}
		for k, pa := range sh.parent {
			if int(pa) == i {
				n.Kids = append(n.Kids, int8(k))
			}
		}
		switch sv.Need {
		case "all":
			n.Need = int32(len(n.Kids))
		case "any":
			n.Need = 1
		default:
			n.Need = int32(sv.Quorum)
		}
		gp.Nodes = append(gp.Nodes, n)
	}
	for _, n := range gp.Nodes {
		for k, kid := range n.Kids {
			gp.Nodes[kid].Slot = int8(k)
		}
	}
	if low.Health.Rule == "" {
		low.Health.Rule = "goodput" // judged at the entry point: see doc.go
	}
	low.Dependency = s.serverOf(first)
	p, err := low.resolve()
	if err != nil {
		return nil, graphPath(err, sh, first)
	}
	for i := range g.Service {
		if !g.Service[i].serves() {
			continue
		}
		one := low
		one.Dependency = s.serverOf(i)
		one.Fault = nil // the faults that hit its server, and no spike
		for _, f := range s.Fault {
			if f.Service == g.Service[i].Name || f.Service == "" && f.Kind != "spike" {
				f.Service = ""
				one.Fault = append(one.Fault, f)
			}
		}
		sp, err := one.resolve()
		if err != nil {
			return nil, graphPath(err, sh, i)
		}
		gp.Servers[i] = sp
	}
	for i, f := range s.Fault {
		if f.Kind != "spike" {
			p.FaultList[i].Service = g.Service[first].Name // the only server's, unless named
			if f.Service != "" {
				p.FaultList[i].Service = f.Service
			}
		}
	}
	if sc := s.Budget.Scope; p.Budget.Scope == ScopeLayer && sc != "layer" {
		gp.budgets(sc)
		p.Budget.Scope = ScopeGraph
	}
	p.Graph = gp
	if !math.IsNaN(p.Health.Limit) { // the first server's, over the calls down to it
		p.Health.Limit = p.healthLimit(gp.depth(first))
	}
	return p, nil
}

// depth is the number of calls on the path from the users to the first
// call of service svc, that call included.
func (gp *GraphPlan) depth(svc int) int {
	i := 0
	for gp.Nodes[i].Service != svc {
		i++
	}
	d := 1
	for n := gp.Nodes[i].Parent; n >= 0; n = gp.Nodes[n].Parent {
		d++
	}
	return d
}

// serverOf is the dependency a lowered graph's plan takes from service
// i: its server, over the run's network (dependency.network: the delay on
// every call, see graphReplaces).
func (s *Scenario) serverOf(i int) Dependency {
	d := s.Graph.Service[i].Server
	d.Network = s.Dependency.Network
	return d
}

// graphReplaces refuses the chain's keys written beside a graph, which
// replaces them. The network is one setting for the whole graph, the
// delay each way of a call on any edge (the users' calls into an entry
// point among them, as a chain's top layer's calls cross it):
// dependency.network stays beside a graph, and a service's
// server.network is refused.
func (s *Scenario) graphReplaces() *FieldError {
	d := Default()
	dep := s.Dependency
	dep.Network = d.Dependency.Network
	switch {
	case s.Layers != 0:
		return bad("layers", "a graph replaces the chain: its edges are the calls (drop layers)")
	case !reflect.DeepEqual(s.Layer, d.Layer):
		return bad("layer", "a graph replaces the chain: write each call's policy on its graph.edge")
	case !reflect.DeepEqual(dep, d.Dependency):
		return bad("dependency", "a graph replaces the dependency: write each service's server as its graph.service.N.server (dependency.network stays: the delay on every call)")
	}
	for i, sv := range s.Graph.Service {
		if sv.Server.Network != d.Dependency.Network {
			return bad("graph."+indexed("service", i)+"server.network", "the network is one setting for the whole graph, the delay on every call: write dependency.network")
		}
	}
	return nil
}

// graphFaults checks the faults of a graph: an outage, degradation or
// slowdown names a service with a server, unless only one has a server;
// a spike names none.
func (s *Scenario) graphFaults() *FieldError {
	servers := 0
	for i := range s.Graph.Service {
		if s.Graph.Service[i].serves() {
			servers++
		}
	}
	for i, f := range s.Fault {
		p := indexed("fault", i)
		sv := -1
		for j := range s.Graph.Service {
			if s.Graph.Service[j].Name == f.Service {
				sv = j
			}
		}
		switch {
		case f.Kind == "spike" && f.Service != "":
			return bad(p+"service", "a spike multiplies the users' arrivals and hits no one service")
		case f.Kind == "spike":
		case f.Service == "" && servers == 1:
		case f.Service == "":
			return bad(p+"service", "in a service graph, an %s names the service whose server it hits", f.Kind)
		case sv < 0 || !s.Graph.Service[sv].serves():
			return bad(p+"service", "%q is not a service with a server; the graph's are %s", f.Service, s.Graph.serverNames())
		}
	}
	return nil
}

// graphModelled refuses, by key, what the engine does not model yet in a
// graph other than a chain.
func (s *Scenario) graphModelled() *FieldError {
	const not = " is not modelled yet in a graph with fan-out or several servers"
	switch {
	case s.RNG == "minstd":
		return bad("rng", "\"minstd\""+not)
	case s.Chain == "flat":
		return bad("chain", "\"flat\""+not+": its calls are nested")
	case s.RetryAt != "" && s.RetryAt != "every":
		return bad("retry_at", "%q"+not, s.RetryAt)
	case s.Budget.Scope == "dependency":
		return bad("budget.scope", "\"dependency\""+not+": a graph has several")
	case s.Health.Rule == "queue":
		return bad("health.rule", "the queue rule"+not+": health is judged by goodput at the entry point")
	case s.Initial.Abandoned > 0:
		return bad("initial.abandoned", "abandoned calls"+not+" (which server holds them)")
	}
	for i, sv := range s.Graph.Service {
		if sv.serves() && sv.Server.FlakyShare > 0 {
			return bad("graph."+indexed("service", i)+"server.flaky_share", "flaky requests"+not)
		}
	}
	for i, e := range s.Graph.Edge {
		if e.Hedge.Delay == 0 {
			continue
		}
		calls := false
		for _, o := range s.Graph.Edge {
			calls = calls || o.From == e.To
		}
		for _, sv := range s.Graph.Service {
			if sv.Name == e.To && (!sv.serves() || calls) {
				return bad("graph."+indexed("edge", i)+"hedge.delay", "hedging is modelled on calls to a service that serves them and calls no other (a copy of a call that fans out is not): %q does not", e.To)
			}
		}
	}
	return nil
}

// graphPath moves an error of a scenario lowered from a graph to the key
// the file wrote: a layer's to its edge's, the dependency's to the server
// of service svc.
func graphPath(err error, sh *graphShape, svc int) error {
	fe, ok := err.(*FieldError)
	if !ok {
		return err
	}
	path := fe.Path
	switch {
	case strings.HasPrefix(path, "layer."):
		rest := strings.TrimPrefix(path, "layer.")
		n, tail, _ := strings.Cut(rest, ".")
		if i, err := strconv.Atoi(n); err == nil && i < len(sh.nodes) {
			path = "graph." + indexed("edge", sh.nodes[i]) + tail
		}
	case path == "layer" || path == "layers":
		path = "graph.edge"
	case strings.HasPrefix(path, "dependency.network."): // the run's, beside the graph
	case strings.HasPrefix(path, "dependency."):
		path = "graph." + indexed("service", svc) + "server." + strings.TrimPrefix(path, "dependency.")
	}
	return &FieldError{Path: path, Msg: fe.Msg}
}

// budgets numbers the budgets of scope (edge, caller or callee) and says
// which covers each call: one per edge as written, per calling service
// (the users' for the entry points), or per service called.
func (gp *GraphPlan) budgets(scope string) {
	ids := map[int]int{}
	for i := range gp.Nodes {
		n := &gp.Nodes[i]
		key := n.Service
		switch scope {
		case "edge":
			key = n.Edge
		case "caller":
			key = -1 // the users
			if n.Parent >= 0 {
				key = gp.Nodes[n.Parent].Service
			}
		}
		id, ok := ids[key]
		if !ok {
			id = len(ids)
			ids[key] = id
		}
		n.Budget = id
	}
	gp.Budgets = len(ids)
}
