package model

// limitQueue holds the tries waiting for a slot of a limiter, oldest
// first: each entry n identical tries, with what starting them needs. An
// entry pins its parent group while it waits.
type limitQueue struct {
	list []waitingTries
	head int
	n    int64 // tries waiting
}

func (q *limitQueue) len() int64 { return q.n }

func (q *limitQueue) push(w waitingTries) {
	q.list = append(q.list, w)
	q.n += w.n
}

// front is the oldest entry; the queue must not be empty.
func (q *limitQueue) front() *waitingTries { return &q.list[q.head] }

// take removes k tries from the oldest entry, and the entry when none is
// left of it: then it reports true.
func (q *limitQueue) take(k int64) bool {
	w := &q.list[q.head]
	w.n -= k
	q.n -= k
	if w.n == 0 {
		*w = waitingTries{}
		q.head++
		if q.head == len(q.list) {
			q.list, q.head = q.list[:0], 0
		}
		return true
	}
	return false
}
