package model

import "time"

// adaptiveLIFOKind: Facebook's adaptive LIFO ("Fail at Scale", 2015) with
// the controlled-delay rule it runs beside: while the room is overloaded
// (not empty for an interval) it serves the newest calls first, whose
// callers are most likely still waiting, and sheds those past target; the
// rest of the time it serves oldest first, shedding past interval.
func adaptiveLIFOKind() admissionKind {
	return admissionKind{Kind: Kind{Name: "adaptive_lifo", Doc: "codel's rule, and newest first while the waiting room is overloaded (oldest first otherwise)", Engines: OnStochastic,
		Params: CoDelParams{Target: Duration(5 * time.Millisecond), Interval: Duration(100 * time.Millisecond)}},
		make: func(params any, tps float64) admission { return newCoDel(params.(CoDelParams), tps, true) }}
}
