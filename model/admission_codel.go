package model

import "time"

// CoDelParams are the keys of CoDel and of adaptive LIFO: a target wait and
// the interval over which a standing queue is told from a burst.
type CoDelParams struct {
	Target   Duration `toml:"target" doc:"the wait allowed while the room has not been empty for an interval (CoDel's target; 5 ms in the CoDel paper and at Facebook)"`
	Interval Duration `toml:"interval" doc:"the span without an empty room that marks a standing queue, and the wait allowed otherwise (CoDel's interval; 100 ms)"`
}

func (p *CoDelParams) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"target", "", span(0, LongestWait), &p.Target}, Bound{"interval", "", span(Duration(time.Microsecond), LongestWait), &p.Interval})
}

// checkCoDel refuses a target longer than the interval.
func checkCoDel(params any) *FieldError {
	if p := params.(CoDelParams); p.Target > p.Interval {
		return bad("target", "%v is longer than the interval (%v): CoDel allows the target's wait only once the room has stood for an interval", p.Target, p.Interval)
	}
	return nil
}

// codel is CoDel as Facebook's servers apply it to a request queue (Ben
// Maurer, "Fail at Scale", ACM Queue 2015, after Nichols and Jacobson,
// "Controlling Queue Delay", ACM Queue 2012): while the queue has not been
// empty for the last interval (a standing queue, not a burst), a request
// may wait at most the target; otherwise at most the interval. The limit
// is the one in force when the server would take the call.
type codel struct{ target, interval int64 }

func codelAdmissionKind() admissionKind {
	return admissionKind{Kind: Kind{Name: "codel", Doc: "CoDel as Facebook applies it to requests: a call may wait at most target while the room has not been empty for the last interval, else at most interval; longer waiters are shed", Engines: OnStochastic,
		Params: CoDelParams{Target: Duration(5 * time.Millisecond), Interval: Duration(100 * time.Millisecond)}, check: checkCoDel},
		make: func(params any, tickNs int64) admitter { return newCoDel(params.(CoDelParams), tickNs) }}
}

func newCoDel(p CoDelParams, tickNs int64) codel {
	return codel{spanTicks(p.Target, tickNs), spanTicks(p.Interval, tickNs)}
}

// standing reports whether the room has not been empty for the last
// interval.
func (c codel) standing(now, empty int64) bool { return now-empty > c.interval }

func (c codel) limit(now, empty int64) int64 {
	if c.standing(now, empty) {
		return c.target
	}
	return c.interval
}

func (c codel) newestFirst(_, _ int64, lifo bool) bool { return lifo }
