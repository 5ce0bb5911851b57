package model

// latencyWindow is a histogram of latencies (in ticks) over a sliding
// window of ten slices, for percentile-based hedging. Latencies from 0 to
// span ticks fall in at most 1024 buckets of equal width; longer ones count
// in the last.
type latencyWindow struct {
	width  int64
	slice  int64     // ticks per slice
	counts [][]int64 // [slice mod 10][bucket]
	sums   []int64   // scratch: the window's counts per bucket
	at     int64     // the slice index of the newest slice
}

func newLatencyWindow(span, slice int64) *latencyWindow {
	const buckets = 1024
	w := &latencyWindow{width: max(1, (span+buckets)/buckets), slice: max(1, slice), at: -1}
	n := min(buckets, span/w.width+1)
	for range 10 {
		w.counts = append(w.counts, make([]int64, n))
	}
	w.sums = make([]int64, n)
	return w
}

// advance moves the window to tick t, emptying the slices that expire.
func (w *latencyWindow) advance(t int64) {
	i := t / w.slice
	for j := max(w.at+1, i-9); j <= i; j++ {
		clear(w.counts[j%10])
	}
	w.at = max(w.at, i)
}

// add counts k latencies of lat ticks seen at tick t.
func (w *latencyWindow) add(t, lat, k int64) {
	w.advance(t)
	c := w.counts[w.at%10]
	c[min(int64(len(c))-1, lat/w.width)] += k
}

// percentile is the latency, in ticks, that pct percent of the window's
// latencies at tick t do not exceed (the longest of its bucket); false when
// the window is empty.
func (w *latencyWindow) percentile(t int64, pct float64) (int64, bool) {
	w.advance(t)
	var total int64
	sums := w.sums
	clear(sums)
	for _, c := range w.counts {
		for b, x := range c {
			sums[b] += x
			total += x
		}
	}
	if total == 0 {
		return 0, false
	}
	need := pct / 100 * float64(total)
	var cum int64
	for b, x := range sums {
		if cum += x; float64(cum) >= need {
			return int64(b+1)*w.width - 1, true
		}
	}
	return int64(len(sums))*w.width - 1, true
}
