package lab

import "github.com/stormlab/stormlab/model"

// series is the run's per-second series from the counters over its ticks
// [0, upto), in the model's bins (a second, or a tick when ticks are
// longer): counts summed over the bin, the queue and the requests in
// flight at its end, the capacity the fault segments give, and the health
// rule's verdict at its end.
func series(p *model.Plan, k *counters, queues []int64, unhealthy []bool, upto int64) *model.Series {
	bin := max(1, int64(1/p.TickS+0.5))
	s := &model.Series{Step: float64(bin) * p.TickS}
	var inflight int64
	seg := 0
	for a := int64(0); a < upto; a += bin {
		b := min(a+bin, upto)
		row := model.SeriesRow{T: float64(a) * p.TickS}
		var capacity float64
		for t := a; t < b; t++ {
			row.Requests += float64(k.at(cRequests, t))
			row.Calls += float64(k.at(cCalls, t))
			row.Successes += float64(k.at(cOK, t))
			row.Failures += float64(k.at(cFailed, t))
			row.Timeouts += float64(k.at(cTimeouts, t))
			row.RefusedBudget += float64(k.at(cRefusedBudget, t))
			row.RefusedBreaker += float64(k.at(cRefusedBreaker, t))
			row.Served += float64(k.at(cServed, t))
			row.Wasted += float64(k.at(cWasted, t))
			row.Hedges += float64(k.at(cHedges, t))
			row.NotRetryable += float64(k.at(cNotRetryable, t))
			row.RefusedPushback += float64(k.at(cRefusedPushback, t))
			inflight += k.at(cRequests, t) - k.at(cOK, t) - k.at(cFailed, t)
			seg = p.SegmentAt(seg, t)
			capacity += p.Faults[seg].CapRate
		}
		row.Refused = row.RefusedBudget + row.RefusedBreaker + row.RefusedPushback
		row.Queue = float64(queues[b-1])
		row.InFlight = float64(inflight)
		row.Capacity = capacity / float64(b-a)
		row.Unhealthy = unhealthy[b-1]
		s.Rows = append(s.Rows, row)
	}
	return s
}
