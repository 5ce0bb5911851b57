package model

import (
	"fmt"
	"math"
)

// queueServer is a dependency with a waiting room: calls wait in arrival
// order and the server completes up to the tick's capacity, oldest first
// (FIFO) or newest first (LIFO), skipping calls withdrawn because nobody
// waits for them any more (drop_expired, cancellation). A queue limit turns
// away calls that find it full. Overload collapse measures the calls waiting
// when the server works, or the calls offered over its window.
type queueServer struct {
	s       *stoch
	cr      credit
	cl      collapse
	lifo    bool
	apart   bool     // calls of a group that arrive in different ticks wait in entries apart (a worker pool measures their waits; an admission rule sheds by them)
	adm     admitter // the admission rule; nil for none
	emptyAt int64    // the last tick the room was empty (admission rules read it)
	limit   int64
	// later is the room of the retries when first tries have priority
	// (the priority admission rule), served with what this one leaves of
	// the tick's capacity; nil without the rule. prio: retries go there.
	later     *queueServer
	prio      bool
	q         []qEntry
	head      int
	compactAt int
	queued    int64
}

// qEntry is calls of one group waiting at the dependency since tick at
// (the first's of them, unless the room keeps ticks apart); g is nil once
// the calls are abandoned and merged with their neighbours. Ticks fit in
// 32 bits (a run has at most 10^8, Validate), which keeps an entry 24 bytes.
type qEntry struct {
	g  *group
	n  int64
	at int32
	// open is the last tick at which the room may take g for open, none of
	// its calls withdrawn, without reading it (openUntil). Before the run
	// ends (open < openForRun), it is g's deadline, and the entry borrows
	// the reference of g's timeout event, due then, instead of holding one:
	// after that tick g has given up on the calls (and withdrawn them, where
	// the room drops expired work), and the entry takes them for abandoned
	// without reading g, which may have been recycled (lapse). −1: the
	// entry holds a reference to g and reads it.
	open int32
}

// openForRun is qEntry.open for a group open, none of its calls withdrawn,
// to the end of the run: its deadline is after it. The entry holds a
// reference to g.
const openForRun = math.MaxInt32

// borrowed reports whether e refers to its group without holding a
// reference to it (qEntry.open).
func (e *qEntry) borrowed() bool { return e.g != nil && e.open >= 0 && e.open < openForRun }

// lapse takes the calls of e, when it borrowed its group and that group's
// deadline has passed, for abandoned without reading the group: merged with
// their neighbours as calls of no group, or gone where the room drops
// expired work (dropping), as the timeout withdrew them. Poisoned runs
// check that the group did give up on them.
func (q *queueServer) lapse(e *qEntry, dropping bool) {
	if !e.borrowed() || q.s.now <= int64(e.open) {
		return
	}
	if q.s.p.poison && e.g.state == gsOpen {
		panic(fmt.Sprintf("stochastic engine: tick %d: a waiting group still open after its deadline, tick %d", q.s.now, e.open))
	}
	e.g, e.open = nil, -1
	if dropping {
		e.n = 0
	}
}

// let drops e's reference to its group, if it holds one.
func (q *queueServer) let(e *qEntry) {
	if e.g != nil && !e.borrowed() {
		q.s.gs.release(e.g)
	}
	e.g = nil
}

func (q *queueServer) begin(t int64, _ *Segment) { q.cl.advance(t) }

func (q *queueServer) arrive(g *group, n int64) {
	q.cl.offer(q.s.now, n)
	if p := q.s.p.Pushback; p > 0 && q.waiting() > p {
		q.s.reply(g, n, answerPushback, 0) // overloaded: don't retry
		return
	}
	if q.limit > 0 {
		acc := min(n, max(0, q.limit-q.waiting()))
		if rej := n - acc; rej > 0 {
			q.s.fail(g, rej, 0)
		}
		n = acc
	}
	if n == 0 || g.state != gsOpen && (q.s.p.DropExpired || g.state == gsCancelled) {
		return // nobody waits for them, and the dependency drops such calls
	}
	if q.waiting() == 0 {
		q.emptyAt = q.s.now
	}
	if q.prio && g.retry {
		q.later.enqueue(g, n)
		return
	}
	q.enqueue(g, n)
}

// enqueue puts n calls of g at the end of this room. They join the last
// entry when it is g's (and, where the room keeps ticks apart, of this
// tick), unless that entry borrowed its reference and its group's
// deadline tick has come: the group it names may have been recycled at
// its timeout and opened anew since (a hedge sent in the tick's last
// phase may be one).
func (q *queueServer) enqueue(g *group, n int64) {
	if k := len(q.q) - 1; k >= q.head && q.q[k].g == g && (!q.q[k].borrowed() || q.s.now < int64(q.q[k].open)) && (!q.apart || int64(q.q[k].at) == q.s.now) {
		q.q[k].n += n
	} else {
		e := qEntry{g: g, n: n, at: int32(q.s.now), open: q.openUntil(g)}
		if !e.borrowed() {
			g.refs++
		}
		q.q = append(q.q, e)
	}
	g.queued += n
	q.queued += n
}

// work serves up to the tick's capacity: each call it takes is answered
// after its service time.
func (q *queueServer) work(_ int64, sg *Segment, _ []event) {
	s := q.s
	c := q.cr.take(sg.CapRate * q.cl.keep(sg.CapRate, q.waiting()) / s.p.TPS)
	taken, ok := q.serve(c, func(g *group, k, _ int64) {
		if g != nil {
			s.completeServed(g, k)
		} else {
			s.served(k)
			s.waste(k)
		}
	})
	if ok {
		q.cr.spend(taken)
	}
}

// serve takes up to c calls from the waiting room, oldest first (FIFO) or
// newest first (LIFO), skipping calls withdrawn because nobody waits for
// them any more, and hands them to start a run at a time: g is their
// group, nil for calls nobody waits for that the server still serves, at
// the tick they arrived (for g nil, of the first calls merged). It
// returns the calls taken, and false when the run ends here. Every pass of
// its loop serves or removes an entry, or ends it; it counts as an event
// for the guard, so a run whose queue holds millions of entries still
// stops at once when it is cancelled.
func (q *queueServer) serve(c int64, start func(g *group, k, at int64)) (int64, bool) {
	s := q.s
	c0 := c
	dropping := s.p.DropExpired
	lifo, limit := q.lifo, never
	if q.adm != nil {
		lifo, limit = q.adm.newestFirst(s.now, q.emptyAt, q.lifo), q.adm.limit(s.now, q.emptyAt)
		if lifo {
			q.shedOldest(limit) // newest first leaves the oldest behind: shed those waited too long
		}
	}
	for c > 0 && q.head < len(q.q) {
		if !s.poll() {
			return c0 - c, false // the run ends here
		}
		i := q.head
		if lifo {
			i = len(q.q) - 1
		}
		e := &q.q[i]
		q.lapse(e, dropping)
		e.dropWithdrawn()
		if e.n > 0 && e.g != nil && e.g.state != gsOpen && (dropping || e.g.state == gsCancelled) {
			e.n = 0 // withdrawn: no longer counted in queued
		}
		if e.n > 0 && s.now-int64(e.at) > limit {
			q.shed(e)
		}
		if e.n > 0 {
			k := min(c, e.n)
			e.n -= k
			c -= k
			q.queued -= k
			if g := e.g; g != nil && g.state == gsOpen {
				g.queued -= k
				start(g, k, int64(e.at))
			} else {
				start(nil, k, int64(e.at))
			}
		}
		if e.n <= 0 {
			q.let(e)
			if lifo {
				q.q = q.q[:i]
			} else {
				q.head++
			}
		}
	}
	if q.later != nil && c > 0 {
		taken, ok := q.later.serve(c, start)
		if c -= taken; !ok {
			return c0 - c, false
		}
	}
	if q.waiting() == 0 {
		q.emptyAt = s.now
	}
	if q.head == len(q.q) {
		q.q, q.head = q.q[:0], 0
	}
	q.compact()
	return c0 - c, true
}

// shed answers the calls of entry e with an error instead of serving them
// (an admission rule's): the calls of a caller still waiting fail, which
// it may retry; calls nobody waits for go.
func (q *queueServer) shed(e *qEntry) {
	q.queued -= e.n
	q.s.c.shed += e.n
	if g := e.g; g != nil && g.state == gsOpen {
		g.queued -= e.n
		q.s.fail(g, e.n, 0)
	}
	e.n = 0
}

// shedOldest sheds the entries at the head of the room that waited more
// than limit ticks: serving newest first, the room would not reach them.
func (q *queueServer) shedOldest(limit int64) {
	for q.head < len(q.q) && q.s.now-int64(q.q[q.head].at) > limit {
		e := &q.q[q.head]
		q.lapse(e, q.s.p.DropExpired)
		e.dropWithdrawn()
		if e.n > 0 && e.g != nil && e.g.state != gsOpen && (q.s.p.DropExpired || e.g.state == gsCancelled) {
			e.n = 0
		}
		if e.n > 0 {
			q.shed(e)
		}
		q.let(e)
		q.head++
	}
}

// compact merges neighbouring abandoned entries (their calls are only
// counted from now on), drops withdrawn ones and reclaims served ones, when
// the queue has doubled or as much has been served as is left: amortised
// constant time per entry. An entry whose group is known to be open
// (openUntil) is kept without reading the group, and one past that group's
// deadline lapses without reading it: in a storm the groups waiting are
// millions, rarely in cache.
func (q *queueServer) compact() {
	live := len(q.q) - q.head
	grown := live >= 256 && live >= 2*q.compactAt
	spent := q.head >= 1024 && q.head >= live // served entries in front
	if !grown && !spent {
		return
	}
	dropping, now, poison := q.s.p.DropExpired, q.s.now, q.s.p.poison
	out := q.q[:0]
	for _, e := range q.q[q.head:] {
		if e.g != nil && now <= int64(e.open) {
			if poison && (e.g.state != gsOpen || e.g.excess() > 0) {
				panic(fmt.Sprintf("stochastic engine: tick %d: a waiting group taken for open until tick %d is not", now, e.open))
			}
			out = append(out, e) // open: kept as it is
			continue
		}
		q.lapse(&e, dropping)
		e.dropWithdrawn()
		if e.n == 0 {
			if e.g != nil {
				q.s.gs.release(e.g)
			}
			continue
		}
		if e.g != nil && e.g.state != gsOpen {
			dead := dropping || e.g.state == gsCancelled
			q.s.gs.release(e.g)
			if dead {
				continue
			}
			e.g = nil
		}
		if e.g == nil && len(out) > 0 && out[len(out)-1].g == nil {
			out[len(out)-1].n += e.n
			continue
		}
		out = append(out, e)
	}
	if !q.s.gs.recycle {
		// Only groups not recycled are garbage once let go (cancel_abandoned):
		// the stale entries beyond out would keep them.
		clear(q.q[len(out):])
	}
	q.q, q.head = out, 0
	q.compactAt = len(out)
}

func (q *queueServer) end() {
	if q.s.p.poison {
		q.checkCounts()
	}
	if q.later != nil {
		q.later.end()
	}
}

// waiting is the calls waiting in the room, and in the retries' room.
func (q *queueServer) waiting() int64 {
	if q.later != nil {
		return q.queued + q.later.queued
	}
	return q.queued
}

// checkCounts panics unless the entries hold the calls counted as queued,
// once the withdrawn ones are taken off (tests run it every tick).
func (q *queueServer) checkCounts() {
	var sum int64
	per := map[*group]int64{}
	for _, e := range q.q[q.head:] {
		switch {
		case e.borrowed() && q.s.now > int64(e.open): // lapsed: abandoned, or withdrawn
			if !q.s.p.DropExpired {
				sum += e.n
			}
		case e.g == nil:
			sum += e.n
		default:
			per[e.g] += e.n
		}
	}
	for g, n := range per {
		if g.state != gsOpen && (q.s.p.DropExpired || g.state == gsCancelled) {
			continue
		}
		sum += n - g.excess()
	}
	if sum != q.queued {
		panic(fmt.Sprintf("stochastic engine: tick %d: the waiting room holds %d calls but counts %d", q.s.now, sum, q.queued))
	}
}

func (q *queueServer) backlog() int64 { return q.waiting() }

// front is the calls a new first try waits behind when retries wait apart.
func (q *queueServer) front() (int64, bool) { return q.queued, q.later != nil }

func (q *queueServer) next(t int64) int64 {
	if q.waiting() == 0 {
		return never
	}
	sg := &q.s.p.Faults[q.s.p.SegmentAt(q.s.seg, t+1)]
	if sg.CapRate > 0 {
		return t + 1
	}
	return sg.To
}

func (q *queueServer) idle(a, b int64) { idleCredit(q.s, &q.cr, a, b) }

// withdraw lowers the counts at once; the entries holding the calls drop
// them when they are next looked at (g.excess), whichever of g's entries
// that is: g's calls are exchangeable.
func (q *queueServer) withdraw(g *group, n int64) {
	if q.later != nil && g.retry {
		q.later.withdraw(g, n)
		return
	}
	q.queued -= n
	g.queued -= n
	q.s.gs.ext(g).excess += n
}

// openUntil is the last tick at which g, whose calls join the room now,
// is sure to be open with none of its calls withdrawn: its deadline. Only
// its timeout closes it then, which runs after the server works in that
// tick, and withdraws its calls; unless it is closed already, the run
// cancels abandoned work (cancel_abandoned, fixed for a run), or it has an
// extra part (a hedged try, or one whose tries are stamped), which may
// close it or withdraw calls earlier: then −1, and compact reads it. A
// deadline after the run has no timeout event: openForRun.
func (q *queueServer) openUntil(g *group) int32 {
	if g.state != gsOpen || g.x != nil || q.s.p.Cancel {
		return -1
	}
	if g.deadline >= q.s.p.Ticks {
		return openForRun // no timeout event to borrow from
	}
	return int32(g.deadline)
}

// dropWithdrawn drops from an entry the calls of its group that were withdrawn.
func (e *qEntry) dropWithdrawn() {
	if g := e.g; g != nil && g.excess() > 0 {
		d := min(e.n, g.x.excess)
		e.n -= d
		g.x.excess -= d
	}
}

func (q *queueServer) entries() int64 {
	if q.later != nil {
		return int64(cap(q.q)) + q.later.entries()
	}
	return int64(cap(q.q))
}

func (q *queueServer) adopt(old, np *Plan) {
	q.limit = np.QueueLimit
	q.adm = np.Admission
	q.apart = q.apart || np.Admission != nil
	q.retriesApart(np.Admission)
	if old.Collapse != np.Collapse {
		q.cl = newCollapse(np.Collapse)
	}
	if np.DropExpired != old.DropExpired {
		q.lapseAll(old.DropExpired)
		if q.later != nil {
			q.later.lapseAll(old.DropExpired)
		}
	}
	if np.DropExpired && !old.DropExpired {
		q.dropAbandoned()
		if q.later != nil {
			q.later.dropAbandoned()
		}
	}
}

// retriesApart gives retries a room of their own when the admission rule
// asks for one (priority classes), which a run keeps from its start to its
// end (resolveChanges refuses a change that starts or stops it).
func (q *queueServer) retriesApart(a admitter) {
	r, ok := a.(interface{ retriesApart() bool })
	q.prio = ok && r.retriesApart()
	if q.prio && q.later == nil {
		q.later = &queueServer{s: q.s, lifo: q.lifo, apart: q.apart}
	}
}

// lapseAll lapses every entry whose group's deadline has passed, as the
// room did (dropping) when it did: before a change that starts or stops
// dropping expired work.
func (q *queueServer) lapseAll(dropping bool) {
	for i := q.head; i < len(q.q); i++ {
		q.lapse(&q.q[i], dropping)
	}
}

// dropAbandoned discards the calls waiting whose callers have given up, when
// a change starts dropping expired work: those abandoned before it, which
// were kept to be served (merged into entries of no group, or still in
// their closed group's), go now, as those abandoned from now on will.
func (q *queueServer) dropAbandoned() {
	for i := q.head; i < len(q.q); i++ {
		e := &q.q[i]
		switch g := e.g; {
		case g == nil:
			q.queued -= e.n
			e.n = 0
		case g.state == gsClosed && g.queued > 0:
			q.withdraw(g, g.queued)
		}
	}
}
