package model

import "time"

// adaptiveLIFO is Facebook's adaptive LIFO with CoDel (Ben Maurer, "Fail at
// Scale", ACM Queue 2015): the room serves oldest first while it drains, and
// newest first once it has not been empty for an interval (a standing
// queue), so the calls served are the ones whose callers are still
// waiting; CoDel's limits (codel) shed the ones left behind.
type adaptiveLIFO struct{ codel }

func adaptiveLIFOAdmissionKind() admissionKind {
	return admissionKind{Kind: Kind{Name: "adaptive_lifo", Doc: "Facebook's adaptive LIFO with CoDel: oldest first until the room has not been empty for the last interval, then newest first, with CoDel's limits shedding the calls left waiting", Engines: OnStochastic,
		Params: CoDelParams{Target: Duration(5 * time.Millisecond), Interval: Duration(100 * time.Millisecond)}, check: checkCoDel},
		make: func(params any, tickNs int64) admitter { return adaptiveLIFO{newCoDel(params.(CoDelParams), tickNs)} }}
}

func (a adaptiveLIFO) newestFirst(now, empty int64, lifo bool) bool {
	return lifo || a.standing(now, empty)
}
