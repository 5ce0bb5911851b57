package model

// slidingSum is a sum over a sliding window kept in ten slices, as
// Finagle's WindowedAdder keeps one: what is added goes to the newest
// slice, and a slice's part leaves the sum once ten newer slices have
// begun. The failure-ratio breaker, Finagle's retry budget and adaptive
// throttling count over such windows.
type slidingSum struct {
	slice int64 // ticks per slice
	at    int64 // the newest slice's index (tick / slice); −1 before the first
	next  int64 // the first tick of the slice after it: ticks before it stay in it
	cur   int   // at's place in parts
	parts [10]int64
	sum   int64
}

func newSlidingSum(slice int64) slidingSum { return slidingSum{slice: max(1, slice), at: -1} }

// slide moves the window to tick t (ticks only move forward): slices older
// than ten slices expire. Within the newest slice it is one compare.
func (w *slidingSum) slide(t int64) {
	if t < w.next {
		return
	}
	i := t / w.slice
	for j := max(w.at+1, i-9); j <= i; j++ {
		k := j % 10
		w.sum -= w.parts[k]
		w.parts[k] = 0
	}
	w.at, w.cur, w.next = i, int(i%10), (i+1)*w.slice
}

// add counts x in the newest slice (after slide).
func (w *slidingSum) add(x int64) {
	w.parts[w.cur] += x
	w.sum += x
}

// reset empties the window, keeping where it is.
func (w *slidingSum) reset() {
	w.parts, w.sum = [10]int64{}, 0
}
