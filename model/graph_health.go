package model

import "slices"

// graphHealth judges each service of a graph by the rule the users at the
// entry point are judged by (health, the goodput rule), on the calls made
// to it, one per call however many tries it took: made when its first try
// starts, succeeded when a try of it does (see "Service graphs" in doc.go
// for what counts and why). A service's verdict reads the backlog of the
// servers its calls reach, its own and those below it, each once.
type graphHealth struct {
	svc []health // by service
	// svcMade and svcOK are the current tick's calls made and calls that
	// succeeded, by service.
	svcMade, svcOK []int64
	calls          []int64      // by node: the calls made in the run so far (an entry point's: its user requests)
	held           []int64      // by service with a server: its backlog at the end of the tick
	bad            []bool       // by service: unhealthy at the end of the tick
	series         *graphSeries // the services' series, when the run records its own; nil otherwise
	nodes          []GraphNode
	below          [][]int // by service: the services with a server its calls reach, itself included
}

func newGraphHealth(p *Plan) *graphHealth {
	gp := p.Graph
	n := len(gp.Services)
	gh := &graphHealth{svc: make([]health, n), calls: make([]int64, len(gp.Nodes)),
		svcMade: make([]int64, n), svcOK: make([]int64, n), held: make([]int64, n), bad: make([]bool, n), nodes: gp.Nodes, below: make([][]int, n)}
	for i := range gh.svc {
		gh.svc[i] = newHealth(p)
	}
	for n, nd := range gp.Nodes {
		gh.below[nd.Service] = gh.reach(gh.below[nd.Service], int8(n))
	}
	return gh
}

// reach adds the servers of node n's service and of every call below it
// to dst, each once.
func (gh *graphHealth) reach(dst []int, n int8) []int {
	nd := &gh.nodes[n]
	if nd.Server >= 0 && !slices.Contains(dst, nd.Server) {
		dst = append(dst, nd.Server)
	}
	for _, k := range nd.Kids {
		dst = gh.reach(dst, k)
	}
	return dst
}

// called counts n calls made now to node's service (first tries).
func (gh *graphHealth) called(node int8, n int64) {
	gh.calls[node] += n
	gh.svcMade[gh.nodes[node].Service] += n
}

// succeeded counts n calls of node that succeeded now.
func (gh *graphHealth) succeeded(node int8, n int64) { gh.svcOK[gh.nodes[node].Service] += n }

// hold reads each server's backlog now, which backlog sums for the
// services whose calls reach it.
func (gh *graphHealth) hold(x *serverSet) {
	for i, v := range x.srv {
		if v != nil {
			gh.held[i] = v.backlog()
		}
	}
}

// backlog is what the servers service i's calls reach hold (hold).
func (gh *graphHealth) backlog(i int) int64 {
	var b int64
	for _, j := range gh.below[i] {
		b += gh.held[j]
	}
	return b
}

// observe judges every service at the end of tick t, and starts the next
// tick's counts.
func (gh *graphHealth) observe(t int64, x *serverSet) {
	gh.hold(x)
	for i := range gh.svc {
		b := gh.backlog(i)
		gh.bad[i] = gh.svc[i].observe(t, gh.svcOK[i], gh.svcMade[i], b, b)
	}
	if gh.series != nil {
		gh.series.add(t, gh.svcMade, gh.svcOK, gh.bad, gh.held)
	}
	clear(gh.svcMade)
	clear(gh.svcOK)
}

// idle judges every service over ticks a..b−1, in which nothing happened.
func (gh *graphHealth) idle(a, b int64, x *serverSet) {
	gh.hold(x)
	for i := range gh.svc {
		q := gh.backlog(i)
		var mark func(x, y int64, unhealthy bool)
		if gh.series != nil {
			mark = func(x, y int64, unhealthy bool) { gh.series.mark(i, x, y, unhealthy) }
		}
		gh.svc[i].idle(a, b, q, q, mark)
	}
	if gh.series != nil {
		gh.series.idle(a, b, gh.held)
	}
}

// verdicts is each service's judgement of a run of p, as the run's is
// (health.verdict): its Verdict, RecoveryS and CollapseS.
func (gh *graphHealth) verdicts(p *Plan) []Metrics {
	out := make([]Metrics, len(gh.svc))
	for i := range gh.svc {
		gh.svc[i].verdict(&out[i], p)
	}
	return out
}
