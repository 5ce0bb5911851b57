package model

import "math"

// groupState is where a group is in its life.
type groupState uint8

const (
	gsOpen      groupState = iota // sent; some instances wait for an answer
	gsDone                        // every instance has its answer
	gsClosed                      // the caller gave up on the instances still waiting
	gsCancelled                   // an ancestor gave up and cancel_abandoned is set
	gsFree                        // recycled: nothing may refer to it
)

// group is n instances of one layer's try, on the same attempt, started in
// the same tick for the same parent group (or for user requests). Instances
// of a group are exchangeable, so when some of them are served, fail or
// retry, the group is split by sampling, which is exact in distribution.
// A group exists from the tick it starts until nothing refers to it; before
// it starts it is only an event (a retry waiting out its backoff, or a call
// crossing the network), so waiting costs no group. In a service graph a
// group may also be a hop, no try but a batch of its parent's instances
// whose parallel calls started together (callOut).
type group struct {
	parent   *group
	x        *groupExtra // what only some runs need; nil until one does
	waiting  int64       // instances with no answer yet
	queued   int64       // bottom layer: calls waiting at the dependency
	deadline int64       // the tick the caller gives up on this try
	client   int32
	prevWait int32 // decorrelated jitter: the wait before this try, in ticks
	refs     int32 // pending events, queue entries, children and starts pointing here
	// dl is the request's deadline, passed down the chain (noDeadline:
	// none): a tick, at most 10^8 ticks into a run plus a deadline of at
	// most 2·10^9 (Validate), so it fits.
	dl      int32
	attempt int16 // at most 1,000 (Validate)
	layer   int8
	state   groupState
	retry   bool // a retry somewhere on the way from the user request
	flaky   bool // of a request whose first tries at the dependency fail
	// afterTimeout: the group is a retry sent after its try timed out
	// (budgets that charge a timeout more).
	afterTimeout bool
	// gave: the group's reference to its parent was handed to the event of
	// its retry (giveParent), so recycling it leaves the parent alone.
	gave bool
}

// groupExtra is the part of a group that only runs with hedging,
// cancellation or withdrawals need. Kept apart, a group is one
// 64-byte cache line: a storm touches millions of them in no order.
// A recycled group keeps its extra until it is opened again (reuse).
type groupExtra struct {
	kids []*group // with cancel_abandoned: groups started for this one
	hg   *hedge   // a hedged try: the pair's state; nil otherwise
	born int64    // with hedging or an adaptive limit: the tick the try was sent (stamped)
	// arrived: a top-layer group, with measure_latency: the tick its user
	// request arrived.
	arrived int64
	// excess: calls of g withdrawn from the dependency's waiting room
	// while its entries there still count them (see queueServer).
	excess int64
	side   uint8 // with hg: 0 for the original calls, 1 for their hedges
	// hop: the group is no try but a batch of its parent's instances
	// whose parallel calls started together after an earlier batch's
	// (see callOut); its fan is the batch's.
	hop bool
	// stamped: born holds the tick the tries were sent. A try sent before
	// a change turned hedging on has none: its latency is unknown.
	stamped bool
	// limIn: on a layer with an adaptive concurrency limit, the tries in
	// flight under it when g's were sent (born: the tick they were); at
	// most its max_limit, 10^9 (Validate), so it fits.
	limIn int32
	// fan: a graph, a service that calls others in parallel: the
	// instances of the batch whose calls were made for g, by the state of
	// their calls (graph_fan.go).
	fan *fan
}

// ext returns g's extra part, taken from gs on first use.
func (gs *groups) ext(g *group) *groupExtra {
	if g.x == nil {
		g.x = gs.extra()
	}
	return g.x
}

// reuse readies g, fresh or recycled (get), to be opened anew: the extra
// part a recycled group kept goes back to gs unread, to be emptied only
// when a group needs one (extra). In a graph most groups need none, and
// emptying the extra of each group opened was a cache miss each.
func (gs *groups) reuse(g *group) {
	if g.x != nil {
		gs.extras = append(gs.extras, g.x)
		g.x = nil
	}
}

// extra is an empty extra part: one a recycled group handed back (reuse),
// emptied now with its fan's room kept, or a new one.
func (gs *groups) extra() *groupExtra {
	k := len(gs.extras)
	if k == 0 {
		return &groupExtra{}
	}
	x := gs.extras[k-1]
	gs.extras = gs.extras[:k-1]
	fn := x.fan
	if fn != nil {
		*fn = (*fn)[:0]
	}
	*x = groupExtra{fan: fn}
	return x
}

// sentAt is the tick g's tries were sent, when it was stamped (born).
func (g *group) sentAt() (int64, bool) {
	if g.x == nil || !g.x.stamped {
		return 0, false
	}
	return g.x.born, true
}

// isHop reports whether g is a hop: a batch of its parent's instances
// (see callOut), not a try.
func (g *group) isHop() bool { return g.x != nil && g.x.hop }

// noDeadline is group.dl for a request without a deadline.
const noDeadline = math.MaxInt32

// reqDL is the deadline of the request g works for (never: none).
func (g *group) reqDL() int64 {
	if g.dl == noDeadline {
		return never
	}
	return int64(g.dl)
}

// setReqDL sets the deadline of the request g works for (never: none).
func (g *group) setReqDL(dl int64) {
	g.dl = noDeadline
	if dl != never {
		g.dl = int32(dl)
	}
}

// arrivedAt is the tick g's user request arrived, for a group of the top
// layer in a run that measures latencies (0 otherwise).
func (g *group) arrivedAt() int64 {
	if g.x == nil {
		return 0
	}
	return g.x.arrived
}

// pair is g's hedged pair, or nil.
func (g *group) pair() *hedge {
	if g.x == nil {
		return nil
	}
	return g.x.hg
}

// excess is how many of g's calls counted in the waiting room's entries
// were withdrawn.
func (g *group) excess() int64 {
	if g.x == nil {
		return 0
	}
	return g.x.excess
}

// groups hands out groups and takes them back once nothing refers to them,
// so a long run allocates little. With cancel_abandoned, parents list their
// children, so groups are left to the garbage collector instead.
type groups struct {
	free    []*group
	extras  []*groupExtra // the extra parts recycled groups kept, for groups that need one (reuse, extra)
	live    int64         // groups in use
	slab    []group       // fresh groups
	block   int           // size of the last block allocated
	recycle bool
	poison  bool // tests: keep recycled groups poisoned instead of reusing them
}

// get returns a fresh group or a recycled one. A recycled group still
// holds the extra part it kept; the two that open groups (stoch.open and
// hop) hand it back with reuse first, outside get, which stays small
// enough to be inlined.
func (gs *groups) get() *group {
	gs.live++
	if k := len(gs.free); k > 0 {
		g := gs.free[k-1]
		gs.free = gs.free[:k-1]
		return g
	}
	return gs.fresh()
}

// fresh returns a group never used, from the current block.
func (gs *groups) fresh() *group {
	if len(gs.slab) == 0 {
		// Blocks double from 16 to 512 groups: a run whose groups are
		// recycled as fast as they start needs few. A block of 512 (32
		// KiB) is a large object to the runtime, placed on a page with
		// no header before it, so each of its groups is one cache line;
		// a smaller block starts 8 bytes into one (the allocator's type
		// header), and each of its groups straddles two: in a storm,
		// where groups are touched in no order, twice the misses.
		gs.block = min(512, max(16, 2*gs.block))
		gs.slab = make([]group, gs.block)
	}
	g := &gs.slab[0]
	gs.slab = gs.slab[1:]
	return g
}

// release drops one reference to g. A group nothing refers to any more can
// receive nothing and is recycled, which drops its reference to its parent.
func (gs *groups) release(g *group) {
	for g != nil {
		if g.state == gsFree {
			panic("stochastic engine: a recycled group was still in use")
		}
		g.refs--
		if g.refs > 0 {
			return
		}
		gs.live--
		if !gs.recycle {
			return
		}
		p := g.parent
		if g.gave {
			p = nil // the retry's event holds that reference now
		}
		g.parent, g.state, g.gave = nil, gsFree, false
		if !gs.poison {
			gs.free = append(gs.free, g)
		}
		g = p
	}
}

// giveParent reports whether g, a try that failed for good and now
// schedules its retry for its parent, can hand its own reference to the
// parent to the retry's event, and hands it over if so: the event then pins
// the parent without touching it (in a storm the parent is rarely in
// cache), and recycling g leaves the parent alone. Only a group that waits
// for nothing more does (its parent is never read again), once, and not
// one with an extra part (hedges and cancellation read relatives).
func (g *group) giveParent() bool {
	if g.state == gsOpen || g.gave || g.x != nil || g.parent == nil {
		return false
	}
	g.gave = true
	return true
}

// awaited reports whether a call of g served now would still be waited for
// all the way up to the user.
func awaited(g *group) bool {
	for x := g; x != nil; x = x.parent {
		if x.state == gsFree {
			panic("stochastic engine: a recycled group on a call's path")
		}
		if x.state != gsOpen {
			return false
		}
	}
	return true
}
