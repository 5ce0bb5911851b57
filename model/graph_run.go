package model

// The calls of a service graph in the stochastic engine: a group's calls
// passed down to its service, the calls that service makes in turn, and
// their answers gathered back (see "Service graphs" in doc.go). A chain's
// run has no graphRun and never comes here.

// graphRun is what a run of a graph keeps beside the chain's state.
type graphRun struct {
	nodes   []GraphNode
	servers *serverSet
	// By node: the tries sent (past the breaker, limiter and budget), the
	// retries among them, and the calls that failed for good.
	tries, retries, failed []int64
	health                 *graphHealth // each service's health
}

func newGraphRun(s *stoch) *graphRun {
	n := len(s.p.Graph.Nodes)
	gr := &graphRun{nodes: s.p.Graph.Nodes, tries: make([]int64, n), retries: make([]int64, n), failed: make([]int64, n)}
	gr.servers = newServerSet(s)
	gr.health = newGraphHealth(s.p)
	return gr
}

// callsOut reports whether g's service makes calls of its own.
func (gr *graphRun) callsOut(g *group) bool { return len(gr.nodes[g.layer].Kids) > 0 }

// graphDown passes n calls of g to its service: to its server when it has
// one, else straight to the calls it makes.
func (s *stoch) graphDown(g *group, n int64) {
	if s.toAServer(g) {
		s.toServer(g, n)
		return
	}
	s.callOut(g, n)
}

// servedOut is the service's server having served k calls of g, answered
// extra ticks later: the service makes its own calls then.
func (s *stoch) servedOut(g *group, k, extra int64) {
	if extra == 0 {
		s.callOut(g, k)
		return
	}
	if s.now+extra < s.p.Ticks {
		s.schedule(s.now+extra, phStart, event{kind: evCallOut, g: g, n: k})
	}
}

// callOutEvent runs an evCallOut: the calls of a service whose server
// answered after a latency, unless their caller no longer waits (the
// served work then reaches nobody).
func (s *stoch) callOutEvent(ev *event) {
	if ev.g.state != gsOpen {
		s.waste(ev.n)
		return
	}
	s.callOut(ev.g, ev.n)
}

// callOut makes the calls of g's service for n of g's instances: the
// first in a sequence, or all of them in parallel. Parallel calls are
// counted in a fan first, as an answer may come back at once: g's own,
// or, when g's fan still holds instances of calls made before (a service
// with a server makes the calls of a group's instances as it serves them,
// over several ticks), a hop's, so that answers to these calls are split
// over these instances only.
func (s *stoch) callOut(g *group, n int64) {
	nd := &s.graph.nodes[g.layer]
	if nd.Sequence || len(nd.Kids) == 1 {
		s.startCall(g, nd.Kids[0], n)
		return
	}
	at := g // the group the calls are made for
	if x := s.gs.ext(g); x.fan != nil && len(*x.fan) > 0 {
		at = s.hop(g)
	} else {
		g.refs++ // pinned while its calls start
	}
	x := s.gs.ext(at)
	if x.fan == nil {
		x.fan = new(fan)
	}
	x.fan.add(len(nd.Kids), n)
	for _, k := range nd.Kids {
		s.startCall(at, k, n)
	}
	s.gs.release(at)
}

// hop opens a hop for a batch of g's instances, pinned while its calls
// start: a group of g's layer, request and kind of try, whose calls'
// answers go through its own fan to g (up). It is no try: it is never
// sent, answered or timed out, and counts nowhere; g's deadline and
// state decide for its instances, and cancelling g cancels its calls.
func (s *stoch) hop(g *group) *group {
	h := s.gs.get()
	s.gs.reuse(h)
	*h = group{parent: g, deadline: g.deadline, client: g.client, refs: 1, dl: g.dl,
		attempt: g.attempt, layer: g.layer, state: gsOpen, retry: g.retry, flaky: g.flaky}
	s.gs.ext(h).hop = true
	g.refs++
	if s.p.Cancel {
		x := s.gs.ext(g)
		x.kids = append(x.kids, h)
	}
	return h
}

// startCall starts n first tries of the call of node for g's instances.
func (s *stoch) startCall(g *group, node int8, n int64) {
	s.start(g, node, 1, g.client, 0, flagsOf(g.retry, g.flaky, false), g.reqDL(), 0, n)
}

// up passes k answers of the call of layer from (successes, or failures
// for good) to its caller, parent: in a chain, or through a single call,
// straight; in a sequence, on to the next call or up; in parallel,
// through parent's fan (a hop's goes on to the hop's parent).
func (s *stoch) up(parent *group, from int8, k int64, out outcome) {
	if s.graph == nil || parent.state != gsOpen {
		s.reply(parent, k, out, 0)
		return
	}
	nd := &s.graph.nodes[parent.layer]
	j := int(s.graph.nodes[from].Slot)
	switch {
	case nd.Sequence:
		if out == answerOK && j+1 < len(nd.Kids) {
			s.startCall(parent, nd.Kids[j+1], k)
			return
		}
		s.reply(parent, k, out, 0)
	case len(nd.Kids) == 1:
		s.reply(parent, k, out, 0)
	default:
		to := parent
		if parent.isHop() {
			to = parent.parent // a hop's instances are its parent's
			if to.state != gsOpen {
				s.reply(to, k, out, 0) // as to a caller who no longer waits
				return
			}
		}
		ok, failed, wasted := parent.x.fan.answer(s.r, j, k, out == answerOK, len(nd.Kids), nd.Need)
		if wasted > 0 {
			s.waste(wasted)
		}
		if ok > 0 {
			s.reply(to, ok, answerOK, 0)
		}
		if failed > 0 {
			s.reply(to, failed, out, 0)
		}
	}
}

// sum is the tries, retries and calls failed for good so far over the
// nodes that match: a service's (every call to it), an edge's.
func (gr *graphRun) sum(match func(nd *GraphNode) bool) (tries, retries, failed int64) {
	for n := range gr.nodes {
		if match(&gr.nodes[n]) {
			tries, retries, failed = tries+gr.tries[n], retries+gr.retries[n], failed+gr.failed[n]
		}
	}
	return tries, retries, failed
}

// sent counts n tries of the call of node on their attempt.
func (gr *graphRun) sent(node int8, attempt int32, n int64) {
	gr.tries[node] += n
	if attempt > 1 {
		gr.retries[node] += n
	}
}
