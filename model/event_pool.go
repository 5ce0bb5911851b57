package model

import "math/bits"

// eventPool keeps the event buffers of the calendar's slots that have run,
// by capacity class, for slots that fill up later. Without it every slot of
// the ring keeps the largest list it ever held: after a storm's peak the
// ring holds ring-size times the peak tick's events, not the events still
// to run (at 90 s of the 3 × 10 jittered storm, 21.7 million event places
// for 1.3 million events). The pool holds at most as many places as there
// are events scheduled, so the calendar's memory follows its live events.
type eventPool struct {
	spare [64][][]event // by class: capacity in [2^k, 2^(k+1))
	held  int64         // event places held in spare
}

// pooledMin is the smallest capacity worth keeping: smaller lists stay
// with their slot.
const pooledMin = 64

// put keeps b (emptied, its pointers cleared) if the pool holds fewer
// places than live, the events the calendar has scheduled.
func (p *eventPool) put(b []event, live int64) {
	c := int64(cap(b))
	if p.held+c > max(live, 1<<12) {
		return // the collector takes it
	}
	k := bits.Len64(uint64(c)) - 1
	p.spare[k] = append(p.spare[k], b[:0])
	p.held += c
}

// get returns an empty buffer with room for at least need events, or nil
// when the pool has none.
func (p *eventPool) get(need int) []event {
	k := bits.Len64(uint64(need - 1)) // capacities of class k are ≥ need
	for ; k < len(p.spare); k++ {
		if n := len(p.spare[k]); n > 0 {
			b := p.spare[k][n-1]
			p.spare[k][n-1] = nil
			p.spare[k] = p.spare[k][:n-1]
			p.held -= int64(cap(b))
			return b
		}
	}
	return nil
}
