package model

import "sync"

// server is the dependency at the bottom of the stochastic engine's chain.
// The engine tells it, tick by tick: begin (before any call arrives),
// arrive (calls reaching it, in the order they come), work (after the
// tick's calls: serve what waits; done lists the completions the server
// scheduled for now) and end. A server answers calls through the engine:
// stoch.complete for calls it served, stoch.reply with ok = false for calls
// it turned away. Each kind is a file of its own: a loss server, a FIFO or
// LIFO waiting room, the congestive latency server.
type server interface {
	begin(t int64, sg *Segment)
	arrive(g *group, n int64)
	work(t int64, sg *Segment, done []event)
	end()
	// backlog is the calls waiting (the latency server: in service), for
	// the health rule and the peak queue.
	backlog() int64
	// next is the first tick after t in which the server has work of its
	// own, with nothing else scheduled; never when none.
	next(t int64) int64
	// idle accrues ticks a..b−1 in which nothing happened.
	idle(a, b int64)
	// withdraw takes n of g's calls out of the waiting room: nobody waits
	// for them and they are dropped (drop_expired, cancellation, a hedge's
	// loser).
	withdraw(g *group, n int64)
	// entries is how many entries the waiting room holds, for the memory cap.
	entries() int64
	// adopt takes the settings of np, a change's plan (old: the plan
	// before): a queue limit, overload collapse (afresh when changed).
	adopt(old, np *Plan)
}

// fronted is a server whose new calls wait behind only part of its
// backlog: with priority classes, a first try waits behind first tries
// alone. front is that part: the health rule reads it, the wait a new
// request sees, while the peak queue and the series count every call
// waiting (backlog).
type fronted interface {
	front() (waiting int64, ok bool)
}

// newServer makes the dependency of a run, as its kind's entry says.
func newServer(s *stoch) server {
	for _, k := range serverKinds() {
		if k.server == s.p.Server {
			return k.make(s)
		}
	}
	panic("model: no registered server for the plan's kind")
}

func newLossServer(s *stoch) server { return &lossServer{s: s, cl: newCollapse(s.p.Collapse)} }

func newLatencyServer(s *stoch) server { return &latencyServer{s: s} }

func newQueueServer(s *stoch) server {
	q := &queueServer{s: s, cl: newCollapse(s.p.Collapse), lifo: s.p.Server == ServerLIFO, limit: s.p.QueueLimit, adm: s.p.Admission, apart: s.p.Admission != nil}
	q.retriesApart(s.p.Admission)
	return q
}

// idleCredit accrues a capacity server's credit over ticks a..b−1.
func idleCredit(s *stoch, cr *credit, a, b int64) {
	p := s.p
	for x, i := a, s.seg; x < b; {
		i = p.SegmentAt(i, x)
		sg := &p.Faults[i]
		e := min(b, sg.To)
		cr.idle(e-x, sg.CapRate/p.TPS)
		x = e
	}
}

// serverKind is one registered kind of dependency: its Kind, the plan's
// ServerKind, and what makes it in the stochastic engine. The file picks
// it with dependency.queue, but for the latency server, which capacity = 0
// with latency_slope > 0 picks (its Kind's PickedBy).
type serverKind struct {
	Kind
	server ServerKind
	make   func(s *stoch) server
}

func (k serverKind) info() Kind { return k.Kind }

// serverKinds is the registry of dependencies.
var serverKinds = sync.OnceValue(func() []serverKind {
	return []serverKind{
		{Kind: Kind{Name: "fifo", Doc: "a waiting room served oldest first, capacity calls a second", Engines: OnAll, Reads: []string{"capacity", "queue_limit", "drop_expired", "collapse", "admission"}},
			server: ServerFIFO, make: newQueueServer},
		{Kind: Kind{Name: "lifo", Doc: "a waiting room served newest first", Engines: OnBoth, Reads: []string{"capacity", "queue_limit", "drop_expired", "collapse", "admission"}},
			server: ServerLIFO, make: newQueueServer},
		{Kind: Kind{Name: "none", Doc: "a loss server: calls beyond the tick's capacity fail at once", Engines: OnBoth, Reads: []string{"capacity", "collapse"}},
			server: ServerLoss, make: newLossServer},
		{Kind: Kind{Name: "latency", Doc: "no capacity limit: each call takes latency + latency_slope × the calls in flight (congestive collapse); chosen by capacity = 0 with latency_slope > 0, whatever dependency.queue says", Engines: OnStochastic, Reads: []string{"latency", "latency_slope"},
			PickedBy: "capacity = 0 and latency_slope > 0"}, server: ServerLatency, make: newLatencyServer},
		{Kind: Kind{Name: "pool", Doc: "workers workers, each call holding one for a service time drawn from dependency.service, with queue's waiting room in front (none: calls finding every worker busy fail at once); chosen by capacity = 0 with workers > 0", Engines: OnStochastic,
			Reads: []string{"workers", "service", "queue", "queue_limit", "drop_expired", "latency", "admission"}, PickedBy: "capacity = 0 and workers > 0"}, server: ServerPool, make: newPoolServer},
	}
})

// pickedServer is the dependency s picks, with the key that picks it.
func pickedServer(s *Scenario) []chosenKind {
	path, name := "dependency.queue", s.Dependency.serverName()
	switch {
	case s.Dependency.latencyPicked():
		path = "dependency.latency_slope"
	case s.Dependency.poolPicked():
		path = "dependency.workers"
	}
	for _, k := range serverKinds() {
		if k.Name == name {
			return []chosenKind{{path, "dependency", k.Kind}}
		}
	}
	return nil
}

// serverName is the kind of server d is: the latency server where
// latencyPicked, the worker pool where poolPicked, else the one
// dependency.queue names.
func (d *Dependency) serverName() string {
	switch {
	case d.latencyPicked():
		return "latency"
	case d.poolPicked():
		return "pool"
	}
	return d.Queue
}

// poolPicked reports whether capacity = 0 with workers > 0 picks the worker
// pool (its PickedBy); dependency.queue then names its waiting room.
func (d *Dependency) poolPicked() bool { return d.Capacity == 0 && d.Workers > 0 && !d.latencyPicked() }

// latencyPicked reports whether capacity = 0 with latency_slope > 0 picks
// the latency server, whatever dependency.queue says (its PickedBy).
func (d *Dependency) latencyPicked() bool { return d.Capacity == 0 && d.LatencySlope > 0 }

// queueNames lists the kinds dependency.queue may name, read once from the
// registry as every run validates its scenario.
var queueNames = sync.OnceValue(func() []Kind { return named(kindsOf(serverKinds())) })
