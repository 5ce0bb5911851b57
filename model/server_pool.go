package model

import "math"

// poolServer is a worker pool (dependency.workers > 0): each call holds one
// of the pool's workers for a service time drawn from the dependency's law
// (dependency.service), stretched by a slowdown, and is answered when it
// ends. Calls that find every worker busy wait in a waiting room in front,
// served oldest first (fifo) or newest first (lifo) as workers free up, at
// most queue_limit of them beyond the free workers; with queue = "none",
// calls finding every worker busy fail at once. A fault takes workers away
// as it takes capacity from a capacity server (an outage all of them, a
// degradation those beyond its capacity at the law's mean: fewer workers);
// a slowdown stretches the service of the calls that start during it. The
// calls on the workers when an outage starts finish, fail at once or hang
// until it ends, as its in_service says (halt); under the other faults
// they finish. A service time is drawn per call and rounded to the
// nearest tick; a call that ends in the tick it starts still holds its
// worker until the next tick, so a worker starts at most one call a tick.
//
// The pool measures itself (poolMeans): the calls it holds, waiting or on
// a worker, at every tick's end; the ticks each call waited for a worker
// and held one.
type poolServer struct {
	s     *stoch
	room  queueServer // the waiting room in front of the workers
	busy  int64       // workers holding a call
	limit int64       // calls that may wait beyond the free workers; 0 = unbounded
	loss  bool        // no waiting room: queue = "none"
	split []split
	ticks serviceTicks
	means poolMeans
	held  []held // halt's ends of service put off
	// unowned: calls started this tick for nobody, whose service work
	// splits together.
	unowned int64
	// id marks the events that free its workers for nobody (evDone without
	// a group): in a graph, its service (tagged), so that the graph's
	// servers tell their events apart; 0 in a chain.
	id int8
}

// tag makes the pool the server of service i of a graph.
func (w *poolServer) tag(i int8) { w.id = i }

// poolMeans are a worker pool's sums for its mean number in system, mean
// wait and mean service time (Metrics.InSystemMean, WaitMeanS, ServiceMeanS).
type poolMeans struct {
	inSystem     int64 // Σ over the ticks run of the calls held at the tick's end
	ticks        int64 // the ticks summed
	waited, wait int64 // calls taken by a worker for a caller still waiting; Σ their ticks in the waiting room
	held, hold   int64 // calls taken by a worker; Σ the ticks each holds it
}

// metrics sets m's pool means from the sums over a run of tickS-second ticks.
func (pm *poolMeans) metrics(m *Metrics, tickS float64) {
	m.InSystemMean, m.WaitMeanS, m.ServiceMeanS = pm.means(tickS)
}

// means is the pool's mean number in system, its mean wait and its mean
// service time in seconds, from the sums over a run of tickS-second
// ticks; a mean over no call is NaN.
func (pm *poolMeans) means(tickS float64) (inSystem, waitS, serviceS float64) {
	inSystem = float64(pm.inSystem) / float64(max(pm.ticks, 1))
	waitS, serviceS = math.NaN(), math.NaN()
	if pm.waited > 0 {
		waitS = float64(pm.wait) / float64(pm.waited) * tickS
	}
	if pm.held > 0 {
		serviceS = float64(pm.hold) / float64(pm.held) * tickS
	}
	return inSystem, waitS, serviceS
}

// holding is the calls the pool holds, waiting or on a worker.
func (w *poolServer) holding() int64 { return w.room.waiting() + w.busy }

// count adds ticks in which the pool held what it holds now to its sums
// and to the series' row.
func (w *poolServer) count(ticks int64) {
	n := w.holding()
	w.means.inSystem += n * ticks
	w.means.ticks += ticks
	if r := w.s.rec; r != nil {
		r.system(n, ticks)
	}
}

func newPoolServer(s *stoch) server {
	p := s.p
	w := &poolServer{s: s, room: queueServer{s: s, lifo: p.PoolRoom == ServerLIFO, apart: true, adm: p.Admission}, limit: p.QueueLimit, loss: p.PoolRoom == ServerLoss}
	w.room.retriesApart(p.Admission)
	return w
}

// workers is the workers the pool has in segment sg, faults applied.
func (w *poolServer) workers(sg *Segment) int64 {
	p := w.s.p
	if p.Capacity <= 0 {
		return 0
	}
	return int64(math.Round(float64(p.Workers) * sg.CapRate * sg.LatFactor / p.Capacity))
}

// begin halts the calls on the workers when an outage starts now, as its
// in_service says (Segment.Halt).
func (w *poolServer) begin(t int64, sg *Segment) {
	if sg.Halt != HaltFinish && sg.From == t && w.busy > 0 && !w.outageBefore(t) {
		w.halt(sg)
	}
}

// outageBefore reports whether tick t − 1 was in an outage: one that
// continues does not halt the calls again.
func (w *poolServer) outageBefore(t int64) bool {
	p := w.s.p
	return t > 0 && p.Faults[p.SegmentAt(0, t-1)].HoldUntil > 0
}

// halt fails the calls on the workers (HaltFail: their workers free) or
// puts their ends off until the outage ends (HaltHang: each then takes the
// rest of its service), as an outage starting now in segment sg says. The
// calls whose service would end after the run are not scheduled, and left
// alone. A call's ticks on its worker (poolMeans.hold) follow.
func (w *poolServer) halt(sg *Segment) {
	s := w.s
	w.held = w.held[:0]
	s.cal.each(s.now, phService, func(at int64, ev *event) {
		if ev.kind == evDone && ev.n > 0 {
			w.held = append(w.held, held{at, *ev})
			ev.g, ev.n = nil, 0 // its tick comes to nothing
		}
	})
	delay := sg.HoldUntil - s.now
	for _, h := range w.held {
		g, n := h.ev.g, h.ev.n
		if sg.Halt == HaltHang {
			end := min(h.at+delay, s.p.Ticks)
			w.means.hold += n * (end - h.at)
			if end < s.p.Ticks {
				s.schedule(end, phService, h.ev)
			}
		} else {
			w.means.hold -= n * (h.at - s.now)
			w.busy -= n
			if g != nil {
				s.fail(g, n, 0)
			}
		}
		if g != nil {
			s.gs.release(g) // the event put off took a reference of its own
		}
	}
}

// held is an end of service put off by an outage: the event, and its new tick.
type held struct {
	at int64
	ev event
}

// arrive admits the calls the free workers and the waiting room have room
// for and fails the rest; work starts them.
func (w *poolServer) arrive(g *group, n int64) {
	if w.loss || w.limit > 0 {
		// places: the free workers and the waiting room's limit, less the
		// calls already waiting for them
		room := max(0, w.workers(&w.s.p.Faults[w.s.seg])-w.busy) - w.room.waiting()
		if !w.loss {
			room += w.limit
		}
		if rej := n - min(n, max(0, room)); rej > 0 {
			w.s.fail(g, rej, 0)
			n -= rej
		}
	}
	if n > 0 {
		w.room.arrive(g, n)
	}
}

// work frees the workers whose calls end now, answering them, and starts
// waiting calls on the free workers.
func (w *poolServer) work(_ int64, sg *Segment, done []event) {
	s := w.s
	for i := range done {
		ev := &done[i]
		w.busy -= ev.n
		if ev.g != nil {
			s.complete(ev.g, ev.n, 0)
			s.gs.release(ev.g)
		}
	}
	free := w.workers(sg) - w.busy
	if free <= 0 || w.room.waiting() == 0 {
		return
	}
	w.room.serve(free, w.start)
	if n := w.unowned; n > 0 { // the calls started for nobody, split together
		w.unowned = 0
		w.hold(w.serviceSplit(n), nil)
	}
}

// start puts k calls of g (nil: nobody waits for them), waiting since tick
// since, on free workers, each for a service time of its own. The calls
// nobody waits for only hold workers: work splits those of the tick
// together (unowned), so a storm's abandoned calls cost one split a tick.
func (w *poolServer) start(g *group, k, since int64) {
	s := w.s
	w.busy += k
	w.means.held += k
	if g == nil { // served for nobody: counted now, the workers held all the same
		s.served(k)
		s.waste(k)
		w.unowned += k
		return
	}
	w.means.waited += k
	w.means.wait += k * (s.now - since)
	w.hold(w.serviceSplit(k), g)
}

// serviceSplit draws the service times of k calls starting now, in ticks.
func (w *poolServer) serviceSplit(k int64) []split {
	s := w.s
	p := s.p
	w.split = serviceSplit(w.split[:0], s.r, w.ticks.use(p.Service, p.TPS, p.Faults[s.seg].LatFactor), p.Ticks-s.now, k)
	return w.split
}

// hold schedules the ends of service of calls of g (nil: nobody waits for
// them) split over ticks: a call ending in the tick it starts is answered
// now and holds its worker to the next tick.
func (w *poolServer) hold(sp []split, g *group) {
	s := w.s
	for _, x := range sp {
		at := s.now + max(x.d, 1)
		w.means.hold += x.n * (at - s.now)
		if at >= s.p.Ticks {
			if g != nil && x.d == 0 {
				s.complete(g, x.n, 0)
			}
			continue
		}
		switch {
		case g == nil || x.d == 0:
			if g != nil {
				s.complete(g, x.n, 0)
			}
			w.release(at, x.n)
		default:
			s.schedule(at, phService, event{kind: evDone, g: g, n: x.n})
		}
	}
}

// release frees n workers at tick at (no call to answer then), in the
// event scheduled last for that tick when it is such a release.
func (w *poolServer) release(at, n int64) {
	s := w.s
	if ev := s.cal.last(s.now, at, phService); ev != nil && ev.kind == evDone && ev.g == nil && ev.layer == w.id {
		ev.n += n
		return
	}
	s.schedule(at, phService, event{kind: evDone, n: n, layer: w.id})
}

func (w *poolServer) end() {
	w.room.end()
	w.count(1)
}

// backlog is the calls waiting for a worker.
func (w *poolServer) backlog() int64 { return w.room.waiting() }

func (w *poolServer) front() (int64, bool) { return w.room.front() }

// next is the next tick while calls wait (a fault may give workers back),
// else, while calls are on the workers, the start of the next outage that
// halts them; else never: the calls in service are scheduled.
func (w *poolServer) next(t int64) int64 {
	if w.room.waiting() > 0 {
		return t + 1
	}
	if w.busy > 0 {
		p := w.s.p
		for i := p.SegmentAt(w.s.seg, t) + 1; i < len(p.Faults); i++ {
			if sg := &p.Faults[i]; sg.Halt != HaltFinish && !w.outageBefore(sg.From) {
				return sg.From
			}
		}
	}
	return never
}

func (w *poolServer) idle(a, b int64) { w.count(b - a) }

func (w *poolServer) withdraw(g *group, n int64) { w.room.withdraw(g, n) }

func (w *poolServer) entries() int64 { return w.room.entries() }

func (w *poolServer) adopt(old, np *Plan) {
	w.limit = np.QueueLimit
	w.room.adopt(old, np)
	w.room.limit = 0
}
