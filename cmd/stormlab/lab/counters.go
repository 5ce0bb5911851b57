package lab

import "sync/atomic"

// count names one of the lab's per-tick counters.
type count int

const (
	cRequests        count = iota // user requests that arrived
	cCalls                        // calls that reached the dependency
	cOK                           // user requests answered with a success
	cFailed                       // user requests answered with an error
	cRefusedBudget                // retries a budget (or gRPC's retry throttling) refused
	cRefusedBreaker               // tries an open circuit breaker refused
	cTimeouts                     // tries a caller gave up on
	cServed                       // calls the dependency completed
	cWasted                       // of those, calls whose caller had given up
	cHedges                       // second copies of slow tries sent
	cNotRetryable                 // failed tries not retried: the answer was not retryable
	cRefusedPushback              // failed tries not retried: the dependency pushed back
	nCounts
)

// counters are what the real servers and clients count, tick by tick of
// the scenario's time: the same counts the model keeps, so that both are
// turned into result columns and series the same way. Safe for concurrent
// use; an event past the run's end is not counted.
type counters struct {
	clock *clock
	by    [nCounts][]atomic.Int64
	queue []atomic.Int64 // calls waiting at the dependency at the end of the tick; −1 when not sampled
	// inFlight is the tries sent by any layer and not yet answered (a burst
	// run ends early once it is zero and every request is answered).
	inFlight atomic.Int64
	// late is the tries through gRPC's own retries that took longer than
	// their layer's per-try timeout, which gRPC cannot enforce.
	late atomic.Int64
	// crossings is the calls that reached a server and the answers that
	// reached a caller with the tick they were due in known; behind is
	// those that came in a later tick, behindMost the most ticks one came
	// after (crossed).
	crossings, behind, behindMost atomic.Int64
}

// crossed checks that a call reached its server, or an answer its caller,
// in the tick the model has it there, due: the model's hops take no time
// (the network's delays aside, which are added to due), so every count
// that depends on the order of events within a tick holds only while the
// real stack crosses its hops within the tick. due < 0: not known.
func (k *counters) crossed(due int64) {
	if due < 0 {
		return
	}
	k.crossings.Add(1)
	lag := k.clock.tick() - due
	if lag <= 0 {
		return
	}
	k.behind.Add(1)
	for m := k.behindMost.Load(); lag > m && !k.behindMost.CompareAndSwap(m, lag); m = k.behindMost.Load() {
	}
}

func newCounters(c *clock) *counters {
	k := &counters{clock: c, queue: make([]atomic.Int64, c.ticks)}
	for i := range k.by {
		k.by[i] = make([]atomic.Int64, c.ticks)
	}
	for i := range k.queue {
		k.queue[i].Store(-1)
	}
	return k
}

// add counts n of what in the tick it is now.
func (k *counters) add(what count, n int64) { k.addAt(what, k.clock.tick(), n) }

// addAt counts n of what in tick t.
func (k *counters) addAt(what count, t, n int64) {
	if t >= 0 && t < k.clock.ticks {
		k.by[what][t].Add(n)
	}
}

// sampleQueue records the calls waiting at the dependency at tick t.
func (k *counters) sampleQueue(t, q int64) {
	if t >= 0 && t < k.clock.ticks {
		k.queue[t].Store(q)
	}
}

// at is what was counted of what in tick t.
func (k *counters) at(what count, t int64) int64 { return k.by[what][t].Load() }

// total is what was counted of what over the run.
func (k *counters) total(what count) int64 {
	var s int64
	for i := range k.by[what] {
		s += k.by[what][i].Load()
	}
	return s
}

// sum is what was counted of what in ticks [a, b).
func (k *counters) sum(what count, a, b int64) int64 {
	var s int64
	for t := max(a, 0); t < min(b, k.clock.ticks); t++ {
		s += k.by[what][t].Load()
	}
	return s
}

// queues is the calls waiting at the end of each tick, a tick not sampled
// holding the last sample before it.
func (k *counters) queues() []int64 {
	q := make([]int64, len(k.queue))
	var last int64
	for i := range k.queue {
		if v := k.queue[i].Load(); v >= 0 {
			last = v
		}
		q[i] = last
	}
	return q
}
