package model

// busyRows lists, oldest first, the ticks whose rows of cohorts (queue
// engine) may still hold calls waiting within their timeout: a row gains
// calls only in its own tick, so the list grows at its back; the server
// empties rows from the front (fifo) or the back (lifo), and a row leaves
// the front when its calls time out. Serving, timing out and comparing
// ticks then cost the rows that hold calls, never the rows of the whole
// timeout: at 1 µs ticks a 100 ms timeout is 100,000 rows, nearly all of
// them empty.
type busyRows struct {
	ticks []int64
	head  int
}

func (b *busyRows) len() int { return len(b.ticks) - b.head }

// add notes that tick t's row holds calls (t is the latest tick).
func (b *busyRows) add(t int64) {
	if n := len(b.ticks); n > b.head && b.ticks[n-1] == t {
		return
	}
	if b.head > 0 && b.head == len(b.ticks) {
		b.ticks, b.head = b.ticks[:0], 0
	}
	b.ticks = append(b.ticks, t)
}

func (b *busyRows) front() int64 { return b.ticks[b.head] }
func (b *busyRows) back() int64  { return b.ticks[len(b.ticks)-1] }

func (b *busyRows) popFront() {
	b.head++
	if b.head >= 32 && 2*b.head >= len(b.ticks) { // reclaim the front
		b.ticks = b.ticks[:copy(b.ticks, b.ticks[b.head:])]
		b.head = 0
	}
}

func (b *busyRows) popBack() { b.ticks = b.ticks[:len(b.ticks)-1] }

// drop removes tick t's row, if listed, from the front (it timed out) or
// the back (a loss server failed it, or a caller that waits forever gave
// it to the backlog).
func (b *busyRows) drop(t int64) {
	switch {
	case b.len() == 0:
	case b.front() == t:
		b.popFront()
	case b.back() == t:
		b.popBack()
	}
}

// shift moves every listed tick k ticks on (a jump over repeating ticks).
func (b *busyRows) shift(k int64) {
	for i := b.head; i < len(b.ticks); i++ {
		b.ticks[i] += k
	}
}
