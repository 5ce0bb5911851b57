package model

// tickCounts are one tick's counts, for the health rule and the series.
type tickCounts struct {
	requests, calls, retries, ok, failures, timeouts, refused, served, wasted, hedges int64
	refusedBy                                                                         [refusals]int64
}

// counts are a run's totals.
type counts struct {
	requests, calls, ok, failed, refused, served, wasted, hedges int64
	shed                                                         int64 // calls an admission rule shed (dependency.admission)
	peakCalls, peakQueue, windowCalls                            int64
	refusedBy                                                    [refusals]int64 // tries not made or not retried, by why
	peakRate                                                     peakRate        // the most calls in one second
}

// recorder bins a run's ticks into a Series of one-second rows (a row per
// tick when ticks are longer). Counts are summed over a row; Queue and
// InFlight are the values at its end; Capacity is the mean over its ticks of
// the dependency's capacity per second, faults applied; a row is unhealthy
// when any of its ticks was.
type recorder struct {
	s          *Series
	bin        SeriesRow
	binTicks   int64
	idx, ticks int64
	tickS      float64
	capSum     float64
	sysSum     float64 // a worker pool: Σ over the row's ticks so far of the calls it held (system)
}

func newRecorder(p *Plan) *recorder {
	bt := p.seriesBinTicks()
	return &recorder{s: &Series{Step: float64(bt) * p.TickS, Rows: make([]SeriesRow, 0, (p.Ticks+bt-1)/bt)},
		binTicks: bt, ticks: p.Ticks, tickS: p.TickS}
}

// add records tick t: its counts, the capacity per second, and the backlog
// and requests without an answer at its end.
func (r *recorder) add(t int64, c *tickCounts, capRate float64, unhealthy bool, queue, inflight int64) {
	r.flush(t/r.binTicks, queue, inflight)
	b := &r.bin
	b.Requests += float64(c.requests)
	b.Calls += float64(c.calls)
	b.Retries += float64(c.retries)
	b.Successes += float64(c.ok)
	b.Failures += float64(c.failures)
	b.Timeouts += float64(c.timeouts)
	b.Refused += float64(c.refused)
	b.Served += float64(c.served)
	b.Wasted += float64(c.wasted)
	b.RefusedBudget += float64(c.refusedBy[byBudget])
	b.RefusedBreaker += float64(c.refusedBy[byBreaker])
	b.RefusedDeadline += float64(c.refusedBy[byDeadline])
	b.RefusedPushback += float64(c.refusedBy[byPushback])
	b.NotRetryable += float64(c.refusedBy[byFatal])
	b.RefusedLimiter += float64(c.refusedBy[byLimiter])
	b.Hedges += float64(c.hedges)
	b.Unhealthy = b.Unhealthy || unhealthy
	r.capSum += capRate
	if (t+1)%r.binTicks == 0 {
		r.flush((t+1)/r.binTicks, queue, inflight)
	}
}

// idle records ticks a..b−1 in which nothing happened; capacity(x, y) is
// the sum over ticks x..y−1 of the capacity per second.
func (r *recorder) idle(a, b int64, unhealthy bool, capacity func(x, y int64) float64, queue, inflight int64) {
	for x := a; x < b; {
		r.flush(x/r.binTicks, queue, inflight)
		e := min(b, (x/r.binTicks+1)*r.binTicks)
		r.capSum += capacity(x, e)
		r.bin.Unhealthy = r.bin.Unhealthy || unhealthy
		if e%r.binTicks == 0 {
			r.flush(e/r.binTicks, queue, inflight)
		}
		x = e
	}
}

// system records ticks of the row being recorded in which a worker pool
// held n calls (waiting or on a worker) at the tick's end; the row's
// InSystem is their mean over its ticks.
func (r *recorder) system(n, ticks int64) { r.sysSum += float64(n * ticks) }

// flush completes the rows before row upTo.
func (r *recorder) flush(upTo, queue, inflight int64) {
	for r.idx < upTo {
		start := r.idx * r.binTicks
		n := min(r.binTicks, r.ticks-start)
		r.bin.T = float64(start) * r.tickS
		r.bin.Capacity = r.capSum / float64(n)
		r.bin.InSystem = r.sysSum / float64(n)
		r.bin.Queue = float64(queue)
		r.bin.InFlight = float64(inflight)
		r.s.Rows = append(r.s.Rows, r.bin)
		r.bin = SeriesRow{}
		r.capSum, r.sysSum = 0, 0
		r.idx++
	}
}

// done completes the series at the end of the run.
func (r *recorder) done(queue, inflight int64) *Series {
	r.flush((r.ticks+r.binTicks-1)/r.binTicks, queue, inflight)
	return r.s
}
