package model

import "math"

// endWatch measures a run's backlog over its last three eighths, in three
// windows of equal length, so that the verdict can tell a backlog still
// shrinking (draining) from one that stopped (stuck). The backlog is what
// the dependency still holds: the calls waiting in its queue, the calls in
// flight at a latency server, and, at a loss server, which holds nothing,
// the user requests still waiting for an answer (the retry orbit).
//
// A backlog is draining when each window's mean is below the one before by
// more than the noise (nothing for the deterministic queue engine; three
// times the square root of the mean, and one call, for the stochastic
// engine: a count of n calls drawn at random is uncertain by about √n), and
// still above the healthy limit
// at the end; its rate is the fall from the second window's mean to the
// third's, per second.
type endWatch struct {
	from  int64      // first tick of the first window
	width int64      // ticks per window; 0: the run is too short to tell
	sum   [3]float64 // backlog summed over each window's ticks
	last  float64    // backlog at the end of the last tick seen
	noisy bool       // the stochastic engine: falls within the noise do not count
	// win is the window tick last looked in, and lo and hi its ticks.
	win    int
	lo, hi int64
}

// newEndWatch watches the last three eighths of a run of ticks ticks that
// are after the trigger's end (tick after), or as much of them as there is.
func newEndWatch(ticks, after int64, noisy bool) endWatch {
	w := min(ticks/8, (ticks-max(after, 0))/3)
	if w < 1 {
		return endWatch{noisy: noisy}
	}
	return endWatch{from: ticks - 3*w, width: w, noisy: noisy}
}

// tick records tick t with backlog b at its end: add for one tick, with
// nothing to sum before the first window.
func (e *endWatch) tick(t int64, b float64) {
	e.last = b
	if t < e.from || e.width == 0 {
		return
	}
	if t < e.lo || t >= e.hi {
		e.win = int(min(2, (t-e.from)/e.width))
		e.lo = e.from + int64(e.win)*e.width
		e.hi = e.lo + e.width
		if t >= e.hi {
			return // after the last window
		}
	}
	e.sum[e.win] += b
}

// add records ticks a..b−1 with backlog first at the end of tick a,
// changing by d each tick after.
func (e *endWatch) add(a, b int64, first, d float64) {
	e.last = first + float64(b-1-a)*d
	if e.width == 0 || b <= e.from {
		return
	}
	for i := range e.sum {
		lo, hi := max(a, e.from+int64(i)*e.width), min(b, e.from+int64(i+1)*e.width)
		if lo >= hi {
			continue
		}
		// Σ over x in [lo, hi) of first + (x − a)·d
		n := float64(hi - lo)
		e.sum[i] += n*first + d*(float64(lo-a)+float64(hi-1-a))*n/2
	}
}

// state is how the backlog ended, above limit (NaN: no limit known) in a
// run of ticks of tickS seconds: draining or not, the rate it fell by in
// calls per second (NaN unless draining), and the seconds after the run's
// end it would take at that rate to reach the limit (NaN unless draining
// towards a known limit).
func (e endWatch) state(limit, tickS float64) (draining bool, rate, left float64) {
	rate, left = math.NaN(), math.NaN()
	if e.width == 0 {
		return false, rate, left
	}
	w := float64(e.width)
	m := [3]float64{e.sum[0] / w, e.sum[1] / w, e.sum[2] / w}
	floor := limit
	if math.IsNaN(floor) {
		floor = 0
	}
	if e.last <= floor+1e-9 {
		return false, rate, left
	}
	for i := 1; i < 3; i++ {
		if m[i-1]-m[i] <= e.noise(m[i-1]) {
			return false, rate, left
		}
	}
	rate = (m[1] - m[2]) / (w * tickS)
	if !math.IsNaN(limit) {
		left = (e.last - limit) / rate
	}
	return true, rate, left
}

// noise is the least fall from a window's mean of m that counts.
func (e endWatch) noise(m float64) float64 {
	if !e.noisy {
		return 1e-9 * max(1, m)
	}
	return 3*math.Sqrt(m) + 1
}
