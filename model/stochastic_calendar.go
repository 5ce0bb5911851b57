package model

import (
	"container/heap"
	"math/bits"
	"slices"
)

// evKind says what an event does when its tick comes.
type evKind uint8

const (
	evStart   evKind = iota // a group starts: a retry whose backoff ends
	evDown                  // calls of a group, across the network, reach what is below it (stoch.down)
	evAnswer                // answers reach a group
	evWake                  // closed loop: clients end their think time and send a request
	evDone                  // latency server: calls complete
	evTimeout               // a group's deadline: its caller gives up on what is still unanswered
	evHedge                 // a group's hedge delay: second copies for the calls still unanswered
	evAdmit                 // a layer's concurrency limiter lets waiting tries in, or fails those that waited too long
	evCallOut               // a graph: a service's server answered calls after a latency; the service makes its own calls
)

// Phases of a tick; each slot keeps one list per phase, in scheduling order.
const (
	phStart   = 0 // evStart, evDown, evAnswer, evWake, evAdmit, evCallOut
	phService = 1 // evDone
	phTimeout = 2 // evTimeout, evHedge
)

// event is one scheduled happening for n calls or instances. For evStart, g
// is the parent of the group to start (nil for user requests) and layer,
// attempt, client, wait and start describe it; the request's deadline is
// the parent's. A user request's retry under a deadline has no parent to
// hold its deadline, so g is the try that failed (startSibling) and the
// deadline is its.
type event struct {
	g       *group
	n       int64
	client  int32
	attempt int32
	wait    int32
	layer   int8
	kind    evKind
	out     outcome // evAnswer
	start   startFlags
}

// startFlags say what kind of try an evStart starts, as bits so that an
// event stays 32 bytes: the calendar copies every one of them.
type startFlags uint8

const (
	startRetry        startFlags = 1 << iota // a retry somewhere on the way from the user request
	startFlaky                               // of a flaky request
	startAfterTimeout                        // a retry after a timeout
	startSibling                             // g is the failed try this one retries, not the parent
	// startPinned (never scheduled): the caller of start hands over a
	// reference to the parent it holds, which the group opened takes.
	startPinned
	// startAdmitted (never scheduled): tries a concurrency limiter let in
	// after they waited for a slot; they passed their breaker and limiter.
	startAdmitted
)

// parent is the group an evStart's group is started for (nil: the user).
func (ev *event) parent() *group {
	if ev.start.has(startSibling) {
		return ev.g.parent
	}
	return ev.g
}

// reqDL is the deadline of the request an evStart works for (never: none).
func (ev *event) reqDL() int64 {
	if ev.g == nil {
		return never
	}
	return ev.g.reqDL()
}

// flagsOf packs an evStart's kind of try.
func flagsOf(retry, flaky, afterTimeout bool) startFlags {
	var f startFlags
	if retry {
		f |= startRetry
	}
	if flaky {
		f |= startFlaky
	}
	if afterTimeout {
		f |= startAfterTimeout
	}
	return f
}

// has reports whether every bit of x is set.
func (f startFlags) has(x startFlags) bool { return f&x == x }

type calSlot struct{ lists [3][]event }

// farEvent is an event too far ahead for the ring.
type farEvent struct {
	at  int64
	seq uint64
	ph  uint8
	ev  event
}

type farHeap []farEvent

func (h farHeap) Len() int { return len(h) }
func (h farHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}
func (h farHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *farHeap) Push(x any)   { *h = append(*h, x.(farEvent)) }
func (h *farHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// calendar holds future events: a ring of per-tick slots for the near
// future, with a bitmap of the busy ones so empty ticks are skipped in one
// scan, and a heap for events beyond the ring. Events of one tick and phase
// keep the order they were scheduled in.
type calendar struct {
	ring []calSlot
	busy []uint64
	mask int64
	far  farHeap
	seq  uint64
	tmp  []farEvent
	n    int64 // events scheduled and not yet run
	pool eventPool
	// dropRefs: clear the group pointers of events that have run, so the
	// collector can free the groups (needed only when groups are not
	// recycled: a recycled group is never garbage).
	dropRefs bool
}

func newCalendar(horizon int64) calendar {
	size := int64(64)
	for size < horizon+2 && size < 1<<13 {
		size <<= 1
	}
	c := calendar{ring: make([]calSlot, size), busy: make([]uint64, size/64), mask: size - 1}
	// Start every slot's first list with room for a few events, from one
	// allocation.
	const room = 4
	backing := make([]event, int(size)*room)
	for i := range c.ring {
		c.ring[i].lists[phStart] = backing[i*room : i*room : (i+1)*room]
	}
	return c
}

// add schedules ev in phase ph of tick at, seen from tick now (at ≥ now).
func (c *calendar) add(now, at int64, ph uint8, ev event) {
	c.n++
	if at-now >= int64(len(c.ring)) {
		c.seq++
		heap.Push(&c.far, farEvent{at: at, seq: c.seq, ph: ph, ev: ev})
		return
	}
	i := at & c.mask
	l := &c.ring[i].lists[ph]
	if len(*l) == cap(*l) {
		c.room(l)
	}
	if len(*l) == 0 {
		c.busy[i>>6] |= 1 << (i & 63)
	}
	*l = (*l)[:len(*l)+1]
	(*l)[len(*l)-1].assign(&ev)
}

// assign copies ev into e field by field. Copied whole, an event (it holds a
// pointer) goes through the collector's bulk write barrier whenever the
// collector marks, some 350 instructions; field by field, the pointer alone
// takes the barrier's buffer. TestEventAssign checks that every field is
// copied.
func (e *event) assign(ev *event) {
	e.g = ev.g
	e.n, e.client, e.attempt, e.wait = ev.n, ev.client, ev.attempt, ev.wait
	e.layer, e.kind, e.out, e.start = ev.layer, ev.kind, ev.out, ev.start
}

// room makes room in l, a full list of a slot, for one more event.
func (c *calendar) room(l *[]event) {
	if cap(*l) == 0 {
		// A slot that handed its buffer to the pool takes one back rather
		// than growing a new one from nothing.
		*l = c.pool.get(pooledMin)
	} else if len(*l) >= pooledMin/2 {
		// A spare buffer instead of a new one. The old one is left to the
		// collector, never pooled: the tick being run may still point
		// into it.
		if b := c.pool.get(2 * len(*l)); b != nil {
			*l = append(b, *l...)
		}
	}
	if len(*l) == cap(*l) {
		*l = slices.Grow(*l, 1)
	}
}

// last returns the last event scheduled in phase ph of tick at, if it is
// within the ring, so a caller can merge identical groups.
func (c *calendar) last(now, at int64, ph uint8) *event {
	if at-now >= int64(len(c.ring)) {
		return nil
	}
	l := c.ring[at&c.mask].lists[ph]
	if len(l) == 0 {
		return nil
	}
	return &l[len(l)-1]
}

// migrate moves far events that now fall within the ring into it. They were
// scheduled before anything the ring holds for their tick, so they go first.
func (c *calendar) migrate(now int64) {
	if len(c.far) == 0 || c.far[0].at-now >= int64(len(c.ring)) {
		return
	}
	c.tmp = c.tmp[:0]
	for len(c.far) > 0 && c.far[0].at-now < int64(len(c.ring)) {
		c.tmp = append(c.tmp, heap.Pop(&c.far).(farEvent))
	}
	for i := 0; i < len(c.tmp); {
		j := i
		for j < len(c.tmp) && c.tmp[j].at == c.tmp[i].at {
			j++
		}
		at := c.tmp[i].at
		s := &c.ring[at&c.mask]
		for ph := range s.lists {
			var pre []event
			for _, f := range c.tmp[i:j] {
				if int(f.ph) == ph {
					pre = append(pre, f.ev)
				}
			}
			if len(pre) > 0 {
				s.lists[ph] = append(pre, s.lists[ph]...)
			}
		}
		c.busy[(at&c.mask)>>6] |= 1 << (at & 63)
		i = j
	}
}

// each calls f on every event of phase ph scheduled after tick now, in no
// particular order; f may change the event in place but not schedule.
// It walks the whole ring: for what happens rarely (an outage halting a
// worker pool).
func (c *calendar) each(now int64, ph uint8, f func(at int64, ev *event)) {
	for off := int64(1); off < int64(len(c.ring)); off++ {
		at := now + off
		l := c.ring[at&c.mask].lists[ph]
		for i := range l {
			f(at, &l[i])
		}
	}
	for i := range c.far {
		if int(c.far[i].ph) == int(ph) {
			f(c.far[i].at, &c.far[i].ev)
		}
	}
}

// busyAt reports whether tick t's slot holds start-phase events.
func (c *calendar) busyAt(t int64) bool {
	i := t & c.mask
	return c.busy[i>>6]&(1<<(i&63)) != 0 && len(c.ring[i].lists[phStart]) > 0
}

// slot returns tick t's slot.
func (c *calendar) slot(t int64) *calSlot { return &c.ring[t&c.mask] }

// clear empties tick t's slot after it ran.
func (c *calendar) clear(t int64) {
	i := t & c.mask
	s := &c.ring[i]
	for ph := range s.lists {
		l := s.lists[ph]
		c.n -= int64(len(l))
		if c.dropRefs {
			clear(l)
		}
		if cap(l) >= pooledMin {
			c.pool.put(l, c.n)
			s.lists[ph] = nil
		} else {
			s.lists[ph] = l[:0]
		}
	}
	c.busy[i>>6] &^= 1 << (i & 63)
}

// next returns the first tick after now with an event, or never.
func (c *calendar) next(now int64) int64 {
	n := int64(len(c.ring))
	best := never
	if len(c.far) > 0 {
		best = c.far[0].at
	}
	// Scan the ring from now+1 for n−1 slots.
	start := (now + 1) & c.mask
	for off := int64(0); off < n-1; {
		i := (start + off) & c.mask
		w := c.busy[i>>6] >> (i & 63)
		if w != 0 {
			off += int64(bits.TrailingZeros64(w))
			if off < n-1 {
				return min(best, now+1+off)
			}
			break
		}
		off += 64 - (i & 63)
	}
	return best
}
