package model

// serverSet is the servers of a graph's services, behind the one server
// the engine talks to: a call goes to the server of the service its group
// calls, and a tick's begin, work and end reach every server. While one
// server acts, the plan in force (stoch.p) is that server's plan, the
// run's with its service's ServerPlan and FaultPlan, so the server kinds'
// files and the rules of a call they serve or fail (stoch.complete,
// stoch.fail) read their own server's keys.
type serverSet struct {
	s     *stoch
	nodes []GraphNode
	srv   []server // by service; nil for a service without a server
	plans []*Plan  // by service: the plan its server runs on
	calls []int64  // by service: the calls that reached its server
	done  []event  // work's scratch: one server's completions of the tick
}

// newServerSet makes the server of each service of s's graph that has one.
func newServerSet(s *stoch) *serverSet {
	gp := s.p.Graph
	x := &serverSet{s: s, nodes: gp.Nodes, srv: make([]server, len(gp.Servers)), plans: make([]*Plan, len(gp.Servers)), calls: make([]int64, len(gp.Servers))}
	for i, sp := range gp.Servers {
		if sp == nil {
			continue
		}
		p := *s.p
		p.ServerPlan, p.FaultPlan = sp.ServerPlan, sp.FaultPlan
		x.plans[i] = &p
		old := x.enter(i)
		x.srv[i] = newServer(s)
		s.p = old
	}
	return x
}

// enter makes service i's server's plan the one in force and returns the
// one it replaces, for the caller to restore.
func (x *serverSet) enter(i int) *Plan {
	old := x.s.p
	x.s.p = x.plans[i]
	return old
}

// of is the service whose server g's calls go to.
func (x *serverSet) of(g *group) int { return x.nodes[g.layer].Server }

// segment is service i's fault segment at tick t.
func (x *serverSet) segment(i int, t int64) *Segment {
	p := x.plans[i]
	return &p.Faults[p.SegmentAt(0, t)]
}

func (x *serverSet) begin(t int64, _ *Segment) {
	for i, v := range x.srv {
		if v != nil {
			old := x.enter(i)
			v.begin(t, x.segment(i, t))
			x.s.p = old
		}
	}
}

func (x *serverSet) arrive(g *group, n int64) {
	i := x.of(g)
	x.calls[i] += n
	old := x.enter(i)
	x.srv[i].arrive(g, n)
	x.s.p = old
}

func (x *serverSet) work(t int64, _ *Segment, done []event) {
	for i, v := range x.srv {
		if v == nil {
			continue
		}
		x.done = x.done[:0]
		for _, ev := range done {
			if x.of(ev.g) == i {
				x.done = append(x.done, ev)
			}
		}
		old := x.enter(i)
		v.work(t, x.segment(i, t), x.done)
		x.s.p = old
	}
}

func (x *serverSet) end() {
	for i, v := range x.srv {
		if v != nil {
			old := x.enter(i)
			v.end()
			x.s.p = old
		}
	}
}

func (x *serverSet) backlog() int64 {
	var n int64
	for _, v := range x.srv {
		if v != nil {
			n += v.backlog()
		}
	}
	return n
}

func (x *serverSet) next(t int64) int64 {
	n := never
	for i, v := range x.srv {
		if v != nil {
			old := x.enter(i)
			n = min(n, v.next(t))
			x.s.p = old
		}
	}
	return n
}

func (x *serverSet) idle(a, b int64) {
	for i, v := range x.srv {
		if v != nil {
			old := x.enter(i)
			v.idle(a, b)
			x.s.p = old
		}
	}
}

func (x *serverSet) withdraw(g *group, n int64) {
	i := x.of(g)
	old := x.enter(i)
	x.srv[i].withdraw(g, n)
	x.s.p = old
}

func (x *serverSet) entries() int64 {
	var n int64
	for _, v := range x.srv {
		if v != nil {
			n += v.entries()
		}
	}
	return n
}

// adopt is never called: a graph with several servers refuses changes.
func (x *serverSet) adopt(_, _ *Plan) {
	panic("stochastic engine: a change in a graph with several servers")
}
