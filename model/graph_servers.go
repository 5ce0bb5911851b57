package model

// serverSet is the servers of a graph's services, behind the one server
// the engine talks to: a call goes to the server of the service its group
// calls, and a tick's begin, work and end reach every server. While one
// server acts, the plan in force (stoch.p, at its segment stoch.seg) is
// that server's plan, the run's with its service's ServerPlan and
// FaultPlan (the faults that hit it), so the server kinds' files and the
// rules of a call they serve or fail (stoch.complete, stoch.fail) read
// their own server's keys.
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
		x.plans[i] = serverPlan(s.p, sp)
		old := x.enter(i)
		x.srv[i] = newServer(s)
		if t, ok := x.srv[i].(tagged); ok {
			t.tag(int8(i))
		}
		x.leave(old)
	}
	return x
}

// tagged is a server whose events may have no group (a worker pool's
// workers freed for nobody): tag gives it its service, which it writes in
// such an event's layer.
type tagged interface{ tag(i int8) }

// ofEvent is the service whose server an evDone is for: its group's, or
// without one, the service its layer names (tagged).
func (x *serverSet) ofEvent(ev *event) int {
	if ev.g == nil {
		return int(ev.layer)
	}
	return x.of(ev.g)
}

// serverPlan is the plan a service's server runs on: the run's plan p with
// the ServerPlan and FaultPlan of sp, that service's (GraphPlan.Servers).
func serverPlan(p, sp *Plan) *Plan {
	q := *p
	q.ServerPlan, q.FaultPlan = sp.ServerPlan, sp.FaultPlan
	return &q
}

// inForce is the plan in force and its segment now, as enter found them.
type inForce struct {
	p   *Plan
	seg int
}

// enter makes service i's server's plan the one in force, at its segment
// now, and returns what it replaces, for leave to restore.
func (x *serverSet) enter(i int) inForce {
	old := inForce{x.s.p, x.s.seg}
	p := x.plans[i]
	x.s.p, x.s.seg = p, p.SegmentAt(0, x.s.now)
	return old
}

// leave restores what enter replaced.
func (x *serverSet) leave(old inForce) { x.s.p, x.s.seg = old.p, old.seg }

// of is the service whose server g's calls go to.
func (x *serverSet) of(g *group) int { return x.nodes[g.layer].Server }

// dropsExpired reports whether the server g's calls go to discards those
// whose caller gave up: its own plan's drop_expired.
func (x *serverSet) dropsExpired(g *group) bool { return x.plans[x.of(g)].DropExpired }

// each calls f with every server and its service, that server's plan in
// force.
func (x *serverSet) each(f func(i int, v server)) {
	for i, v := range x.srv {
		if v != nil {
			old := x.enter(i)
			f(i, v)
			x.leave(old)
		}
	}
}

// sum adds up f over the servers.
func (x *serverSet) sum(f func(v server) int64) int64 {
	var n int64
	for _, v := range x.srv {
		if v != nil {
			n += f(v)
		}
	}
	return n
}

func (x *serverSet) begin(t int64, _ *Segment) {
	x.each(func(_ int, v server) { v.begin(t, &x.s.p.Faults[x.s.seg]) })
}

func (x *serverSet) arrive(g *group, n int64) {
	i := x.of(g)
	x.calls[i] += n
	old := x.enter(i)
	x.srv[i].arrive(g, n)
	x.leave(old)
}

func (x *serverSet) work(t int64, _ *Segment, done []event) {
	x.each(func(i int, v server) {
		x.done = x.done[:0]
		for _, ev := range done {
			if x.ofEvent(&ev) == i {
				x.done = append(x.done, ev)
			}
		}
		v.work(t, &x.s.p.Faults[x.s.seg], x.done)
	})
}

func (x *serverSet) end() { x.each(func(_ int, v server) { v.end() }) }

func (x *serverSet) backlog() int64 { return x.sum(server.backlog) }

func (x *serverSet) next(t int64) int64 {
	n := never
	x.each(func(_ int, v server) { n = min(n, v.next(t)) })
	return n
}

func (x *serverSet) idle(a, b int64) { x.each(func(_ int, v server) { v.idle(a, b) }) }

func (x *serverSet) withdraw(g *group, n int64) {
	i := x.of(g)
	old := x.enter(i)
	x.srv[i].withdraw(g, n)
	x.leave(old)
}

func (x *serverSet) entries() int64 { return x.sum(server.entries) }

// adopt makes each server follow its service's plan in np, the plan the
// run switches to (a change's, or an unforeseen fault's: unforeseen.go),
// np in force.
func (x *serverSet) adopt(_, np *Plan) {
	for i, sp := range np.Graph.Servers {
		if sp == nil {
			continue
		}
		was := x.plans[i]
		x.plans[i] = serverPlan(np, sp)
		old := x.enter(i)
		x.srv[i].adopt(was, x.plans[i])
		x.leave(old)
	}
}
