package model

import (
	"math"
	"slices"
)

// steady lets the queue engine jump over ticks that would repeat the one
// before exactly. Most of an hour-long run is such ticks: a healthy system
// whose queue empties every tick, a storm whose rows of retries are the
// same tick after tick while only its abandoned backlog grows, a backlog
// draining at a constant rate. A tick repeats the previous one when
//
//   - its counts (arrivals, calls, retries, successes, failures, timeouts,
//     refusals, work served and wasted), the change of the backlog, the calls
//     served from the backlog, the credit and the verdict of health are the
//     previous tick's, and
//   - the rows that can still time out and the retries due ahead, each seen
//     from its own tick, are the previous tick's,
//
// and nothing outside those can change the next tick: arrivals are a whole
// number every tick, the budget keeps no state across ticks (none or
// per_tick), no queue limit or overload collapse reads the queue's length,
// and the backlog either was served to the last call (then it must be the
// same) or fed the whole capacity (then it must stay large enough to feed
// it). The next tick then repeats it too, and so on until the fault
// segment, the fault window or the health verdict changes, the backlog
// runs short, or the end of the run is near: the engine adds the ticks'
// counts in one step and moves its rings. Nothing is approximated; the
// series, when recorded, is stepped tick by tick.
type steady struct {
	sigs   [2]tickSig // what the last two ticks did: sigs[last] the latest
	last   int
	snap   []cohort // the rows and retries due after the previous tick, each tick's list closed by a marker
	snapAt int64    // the tick the snapshot was taken after; −1 = none
	buf    []cohort
	jumped int64 // ticks jumped over so far
	// retry is the first tick to snapshot again after two long snapshots
	// differed: a snapshot costs its length, so long ones are taken at
	// most every quarter of it, and a run whose state never repeats pays a
	// few entries a tick for looking, however many calls wait and retries
	// are due. Short ones are compared tick after tick.
	retry int64
}

// tickSig is what a tick did, for comparing it with the next.
type tickSig struct {
	tk          tickCounts
	dBacklog    int64 // change of the backlog
	dLate       int64 // retries due after the run
	fromBacklog int64 // calls served from the backlog
	capacity    int64 // calls the server could serve
	backlog     int64 // the backlog at the tick's end, compared when it was not saturated
	acc         float64
	gpOK, gpArr float64 // the goodput window's sums
	unhealthy   bool
	inWindow    bool
	seg         int
}

// steadyApplies reports whether a run can have repeating ticks at all.
func steadyApplies(p *Plan, series bool) bool {
	return !series && p.Arrivals == ArriveConstant && p.QueueLimit == 0 && !p.Collapse.On() &&
		(p.Budget.Kind == "none" || p.Budget.Kind == "per_tick")
}

// marker closes one tick's list in a snapshot.
var marker = cohort{attempt: -1}

// snapshot writes the rows that can still time out after tick t and hold
// calls, each after a header with its age, then the retries due after t,
// each tick's list closed by a marker.
func (s *queueSim) snapshot(dst []cohort, t int64) []cohort {
	dst = dst[:0]
	for i := s.busy.head; i < len(s.busy.ticks); i++ {
		e := s.busy.ticks[i]
		dst = append(dst, cohort{attempt: -2, n: t - e})
		dst = append(dst, s.rows[e&int64(len(s.rows)-1)]...)
	}
	dst = append(dst, marker)
	for x := t + 1; x < t+int64(len(s.due)); x++ {
		dst = append(dst, s.due[x&int64(len(s.due)-1)]...)
		dst = append(dst, marker)
	}
	return dst
}

// next is where the tick about to end writes what it did: the older of
// the two signatures kept (they are large, so they are not copied).
func (st *steady) next() *tickSig { return &st.sigs[1-st.last] }

// after is called at the end of tick t, once it wrote what it did into
// next(); it returns how many of the following ticks to jump over (0: step
// the next one).
func (st *steady) after(s *queueSim, t int64) int64 {
	st.last = 1 - st.last
	sig := &st.sigs[st.last]
	if *sig != st.sigs[1-st.last] {
		st.snapAt = -1
		return 0
	}
	if st.snapAt != t-1 {
		// The second tick alike: note its state, and compare after the third.
		if t < st.retry {
			return 0
		}
		st.snap = s.snapshot(st.snap, t)
		st.snapAt = t
		return 0
	}
	st.buf = s.snapshot(st.buf, t)
	if !slices.Equal(st.buf, st.snap) {
		if n := len(st.buf); n >= 64 {
			st.snapAt, st.retry = -1, t+int64(n/4)
			return 0
		}
		st.snap, st.buf = st.buf, st.snap
		st.snapAt = t
		return 0
	}
	return s.repeats(t, sig)
}

// repeats is how many ticks after t repeat tick t, as far as nothing but
// the repetition itself can tell.
func (s *queueSim) repeats(t int64, sig *tickSig) int64 {
	p := s.p
	// Leave the last ticks, whose retries fall after the run, to be stepped.
	k := p.Ticks - 1 - t - int64(len(s.due)) - max(s.timeout, 0) - 1
	k = min(k, p.Faults[sig.seg].To-1-t)
	for _, b := range []int64{p.Fault.From, p.Fault.To, s.changeAt} {
		if b > t {
			k = min(k, b-1-t)
		}
	}
	if !s.arr.every(t + 1) {
		return 0
	}
	d := sig.dBacklog
	if sig.fromBacklog == sig.capacity && sig.capacity > 0 && d < 0 {
		// The backlog fed the whole capacity: it must keep doing so.
		k = min(k, (s.backlog-sig.fromBacklog)/-d)
	}
	if limit := s.health.limit + 1e-9; d != 0 && !math.IsNaN(limit) {
		// The verdict (queue rule) and whether the backlog is within the
		// healthy limit (the drain) must not change on the way.
		q := float64(s.queued)
		switch {
		case q > limit && d < 0:
			k = min(k, int64((q-limit)/float64(-d)))
		case q <= limit && d > 0:
			k = min(k, int64((limit-q)/float64(d)))
		}
	}
	return max(0, k)
}

// jump applies k repeats of tick t's sig after tick t.
func (s *queueSim) jump(t, k int64, sig *tickSig) {
	tk := &sig.tk
	first := s.queued + sig.dBacklog // at the end of the first repeat
	dWork := sig.dBacklog
	if s.loss {
		dWork = tk.requests - tk.ok - tk.failures
	}
	workFirst := s.work() + dWork
	s.c.requests += k * tk.requests
	s.c.calls += k * tk.calls
	s.c.peakRate.add(t+1, t+1+k, tk.calls)
	s.c.ok += k * tk.ok
	s.c.failed += k * tk.failures
	s.c.refused += k * tk.refused
	s.c.refusedBy[byBudget] += k * tk.refusedBy[byBudget]
	s.c.served += k * tk.served
	s.c.wasted += k * tk.wasted
	if sig.inWindow {
		s.c.windowCalls += k * tk.calls
	}
	s.late += k * sig.dLate
	s.backlog += k * sig.dBacklog
	s.queued += k * sig.dBacklog
	s.c.peakQueue = max(s.c.peakQueue, s.queued)
	s.rows = rotate(s.rows, k)
	s.busy.shift(k)
	s.due = rotate(s.due, k)
	s.arr.skip(k)
	s.health.repeat(t+1, k, tk.ok, tk.requests, sig.unhealthy, first, workFirst, dWork)
}

// rotate moves every entry of a ring k places on.
func rotate(ring [][]cohort, k int64) [][]cohort {
	n := int64(len(ring))
	if k%n == 0 {
		return ring
	}
	out := make([][]cohort, n)
	for i := range ring {
		out[(int64(i)+k)&(n-1)] = ring[i]
	}
	return out
}
