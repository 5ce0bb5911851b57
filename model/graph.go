package model

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Graph is a service graph as a file writes it: services, each with its
// own server or none, and edges, the calls one service makes to another,
// each with the policy of a chain's layer (attempts, timeout, backoff,
// breaker, limiter). An edge without from is an entry point: the users'
// call into a service; with several, each user request comes in through
// one of them, by their shares. A service that calls several others calls them in
// parallel, needing all, any or a quorum of their answers, or in sequence,
// each after the one before succeeded. A chain is the graph of one path
// whose services have no server but the last (see "Service graphs" in
// doc.go); Resolve turns such a graph into the chain's very Plan.
type Graph struct {
	Service []GraphService `toml:"service" doc:"the services, each with its own server or none"`
	Edge    []Layer        `toml:"edge" doc:"the calls: from a service (none: the users) to a service, each with a layer's keys (attempts, timeout, backoff, breaker, limiter)"`
}

// GraphService is one service of a graph.
type GraphService struct {
	Name   string     `toml:"name" doc:"the service's name (letters, digits and _), which edges' from and to refer to and its result columns start with (<name>.calls, ...)"`
	Calls  string     `toml:"calls" oneof:"parallel,sequence" doc:"how it makes its calls when it has several: parallel (all at once) or sequence (each after the one before succeeded, in the order the edges are written)"`
	Need   string     `toml:"need" oneof:"all,any,quorum" doc:"parallel calls: the answers a call to this service needs to succeed: all of them, any one, or quorum of them"`
	Quorum int        `toml:"quorum" doc:"need = \"quorum\": how many of its parallel calls must succeed"`
	Server Dependency `toml:"server" doc:"the service's own server, a dependency's keys (capacity, queue, workers, ...) but network (every call of a graph crosses dependency.network); capacity, workers and latency_slope all 0 (the default) = none: the service only calls others"`
}

func (g *GraphService) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"quorum", "", Range{0, 16, ""}, &g.Quorum})
}

// DefaultService is what a [[scenario.graph.service]] entry holds before
// its keys apply: no server of its own (a dependency's defaults but a
// capacity of 0), parallel calls needing all their answers.
func DefaultService() GraphService {
	d := Default().Dependency
	d.Capacity = 0
	return GraphService{Calls: "parallel", Need: "all", Server: d}
}

// on reports whether the scenario describes a graph.
func (g *Graph) on() bool { return len(g.Edge) > 0 || len(g.Service) > 0 }

// serves reports whether the service has a server of its own.
func (g *GraphService) serves() bool {
	d := &g.Server
	return d.Capacity > 0 || d.Workers > 0 || d.LatencySlope > 0
}

// HasServer reports whether the service has a server of its own: a fault
// may hit it, and it has a queue (the live explorer draws it so).
func (g *GraphService) HasServer() bool { return g.serves() }

// MaxGraphCalls bounds the calls of a graph unfolded from its entry points:
// a service reached by two paths is called once on each.
const MaxGraphCalls = 100

// graphShape is a valid graph's services by name and its calls unfolded
// from each entry point into a tree (a service reached by two paths appears
// on each): what validation finds and resolution uses.
type graphShape struct {
	service map[string]int // by name
	out     [][]int        // edges out of each service, in file order
	entries []int          // the entry edges, in file order
	// nodes are the trees' calls in depth-first order, each entry's tree
	// after the one before: each an edge, with its parent node (−1 for an
	// entry).
	nodes  []int
	parent []int8
}

// shape checks the graph's structure and unfolds it: names unique and
// known, an entry point or several whose shares sum to 1, no cycle, every
// service reached, every service that calls none with a server, quorums
// within the calls, at most MaxGraphCalls calls unfolded. The error names
// the key.
func (g *Graph) shape() (*graphShape, *FieldError) {
	sh := &graphShape{service: map[string]int{}, out: make([][]int, len(g.Service))}
	for i, sv := range g.Service {
		p := "graph." + indexed("service", i)
		switch _, dup := sh.service[sv.Name]; {
		case sv.Name == "":
			return nil, bad(p+"name", "every service needs a name")
		case strings.IndexFunc(sv.Name, notNameRune) >= 0:
			return nil, bad(p+"name", "%q: a service's name is letters, digits and _ (it names result columns: %s.calls, ...)", sv.Name, sv.Name)
		case dup:
			return nil, bad(p+"name", "%q names two services", sv.Name)
		}
		sh.service[sv.Name] = i
	}
	if len(g.Edge) == 0 {
		return nil, bad("graph.edge", "a graph needs at least one edge: the users' call into a service (an edge with to and no from)")
	}
	for i, e := range g.Edge {
		p := "graph." + indexed("edge", i)
		to, ok := sh.service[e.To]
		if !ok {
			return nil, bad(p+"to", "%q is not a service; the graph's services are %s", e.To, g.names())
		}
		if e.From == "" {
			for _, k := range sh.entries {
				if g.Edge[k].To == e.To {
					return nil, bad(p+"to", "the users already call %q (edge %d); one entry edge per service", e.To, k)
				}
			}
			sh.entries = append(sh.entries, i)
			continue
		}
		if e.Share != 0 {
			return nil, bad(p+"share", "is an entry edge's key (an edge without from): the share of the users' requests that come in through it")
		}
		from, ok := sh.service[e.From]
		if !ok {
			return nil, bad(p+"from", "%q is not a service; the graph's services are %s", e.From, g.names())
		}
		if from == to {
			return nil, bad(p+"to", "a service does not call itself")
		}
		for _, k := range sh.out[from] {
			if g.Edge[k].To == e.To {
				return nil, bad(p+"to", "%q already calls %q (edge %d); one edge per pair of services", e.From, e.To, k)
			}
		}
		sh.out[from] = append(sh.out[from], i)
	}
	if fe := g.shares(sh.entries); fe != nil {
		return nil, fe
	}
	for _, e := range sh.entries {
		if fe := g.unfold(sh, e, -1, make([]bool, len(g.Service))); fe != nil {
			return nil, fe
		}
	}
	reached := make([]bool, len(g.Service))
	for _, n := range sh.nodes {
		reached[sh.service[g.Edge[n].To]] = true
	}
	for i, sv := range g.Service {
		p := "graph." + indexed("service", i)
		k := len(sh.out[i])
		switch {
		case !reached[i]:
			return nil, bad(p+"name", "%q is not reached from an entry point", sv.Name)
		case k == 0 && !sv.serves():
			return nil, bad(p+"server", "%q calls no other service, so it needs a server of its own (server.capacity, workers or latency_slope > 0)", sv.Name)
		case sv.Need == "quorum" && (sv.Quorum < 1 || sv.Quorum > k):
			return nil, bad(p+"quorum", "need = \"quorum\" needs 1 ≤ quorum ≤ the %d calls %q makes, got %d", k, sv.Name, sv.Quorum)
		case sv.Need != "quorum" && sv.Quorum != 0:
			return nil, bad(p+"quorum", "is read with need = \"quorum\" only")
		case k > 16:
			return nil, bad(p+"name", "%q makes %d calls; at most 16 are modelled", sv.Name, k)
		}
	}
	return sh, nil
}

// shares checks the entry edges' shares: none is written with one entry
// point (it takes every request); with several, each is written, above 0,
// and they sum to 1.
func (g *Graph) shares(entries []int) *FieldError {
	if len(entries) == 0 {
		return bad("graph.edge", "no entry point: one edge needs no from (the users' call into a service)")
	}
	if len(entries) == 1 {
		if s := g.Edge[entries[0]].Share; s != 0 && s != 1 {
			return bad("graph."+indexed("edge", entries[0])+"share", "the only entry point takes every request: drop share (or write 1), got %g", s)
		}
		return nil
	}
	sum := 0.0
	for _, e := range entries {
		s := g.Edge[e].Share
		if s <= 0 {
			return bad("graph."+indexed("edge", e)+"share", "a graph with %d entry points needs each entry edge's share of the users' requests, above 0 (they sum to 1)", len(entries))
		}
		sum += s
	}
	if math.Abs(sum-1) > 1e-9 {
		return bad("graph."+indexed("edge", entries[len(entries)-1])+"share", "the entry edges' shares sum to %g; they must sum to 1", sum)
	}
	return nil
}

// unfold adds edge e, called by node parent, and the calls below it to
// the tree; on holds the services on the path from its entry, for cycles.
func (g *Graph) unfold(sh *graphShape, e, parent int, on []bool) *FieldError {
	to := sh.service[g.Edge[e].To]
	if on[to] {
		return bad("graph."+indexed("edge", e)+"to", "the edge closes a cycle through %q; a graph's calls must not come back to a service on their path", g.Edge[e].To)
	}
	if len(sh.nodes) == MaxGraphCalls {
		return bad("graph.edge", "unfolded from its entry points (a service reached by two paths counted on each), the graph makes more than %d calls", MaxGraphCalls)
	}
	node := len(sh.nodes)
	sh.nodes, sh.parent = append(sh.nodes, e), append(sh.parent, int8(parent))
	on[to] = true
	for _, k := range sh.out[to] {
		if err := g.unfold(sh, k, node, on); err != nil {
			return err
		}
	}
	on[to] = false
	return nil
}

// names lists the graph's service names, quoted.
func (g *Graph) names() string {
	q := make([]string, len(g.Service))
	for i, s := range g.Service {
		q[i] = strconv.Quote(s.Name)
	}
	if len(q) == 0 {
		return "none"
	}
	return strings.Join(q, ", ")
}

// serverNames lists the names of the graph's services with a server,
// quoted.
func (g *Graph) serverNames() string {
	var q []string
	for _, s := range g.Service {
		if s.serves() {
			q = append(q, strconv.Quote(s.Name))
		}
	}
	return strings.Join(q, ", ")
}

// isChain reports whether the shape is a chain: one path from the entry,
// no service on it with a server but the last.
func (g *Graph) isChain(sh *graphShape) bool {
	for i, n := range sh.nodes {
		sv := &g.Service[sh.service[g.Edge[n].To]]
		last := i == len(sh.nodes)-1
		if int(sh.parent[i]) != i-1 || sv.serves() != last {
			return false
		}
	}
	return true
}

// attempts is the most calls one request makes to servers when every
// call fails: over the unfolded calls of its entry point's tree to a
// service with a server, the product of the attempts on the path down to
// it, and with several entry points the most of their trees; it stops
// counting at 2^31.
func (g *Graph) attempts(sh *graphShape) int {
	var total []float64 // by entry point's tree
	for i, e := range sh.nodes {
		if sh.parent[i] < 0 {
			total = append(total, 0)
		}
		if !g.Service[sh.service[g.Edge[e].To]].serves() {
			continue
		}
		p := 1.0
		for x := i; x >= 0; x = int(sh.parent[x]) {
			p *= float64(g.Edge[sh.nodes[x]].Attempts)
		}
		total[len(total)-1] += p
	}
	return int(min(slices.Max(total), float64(1<<31-1)))
}

// notNameRune reports whether r may not be part of a service's name.
func notNameRune(r rune) bool {
	return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
}
