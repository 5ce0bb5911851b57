package model

import "time"

// CoDelParams are the keys of the controlled-delay rule.
type CoDelParams struct {
	Target   Duration `toml:"target" doc:"the longest a call may wait once the waiting room has held calls for longer than interval"`
	Interval Duration `toml:"interval" doc:"how long the waiting room must hold calls to count as overloaded, and the longest a call may wait until then"`
}

func (p *CoDelParams) bounds(dst []Bound) []Bound {
	return append(dst,
		Bound{"target", "", span(0, LongestWait), &p.Target},
		Bound{"interval", "", span(0, LongestWait), &p.Interval})
}

// codel is the controlled-delay rule as RPC servers use it ("Fail at
// Scale", Facebook, 2015, after Nichols and Jacobson's "Controlling Queue
// Delay", 2012): a room that has not been empty at any tick's end for the
// last interval is overloaded, and a call may then wait at most target
// before it is shed; otherwise it may wait up to interval. Where the paper
// drops one packet at a time at a rate that grows while the delay stays
// above target, the RPC variant sheds every call past the limit at once,
// which is what it is here. The room is overloaded from the tick an
// interval after it last went from empty to holding calls, for as long as
// it holds calls.
type codel struct {
	target, interval int64 // ticks
	lifo             bool  // adaptive LIFO: newest first while overloaded
}

func codelKind() admissionKind {
	return admissionKind{Kind: Kind{Name: "codel", Doc: "controlled delay: once the waiting room has not been empty for interval, calls that waited longer than target are answered at once with an error; otherwise longer than interval", Engines: OnStochastic,
		Params: CoDelParams{Target: Duration(5 * time.Millisecond), Interval: Duration(100 * time.Millisecond)}},
		make: func(params any, tps float64) admission { return newCoDel(params.(CoDelParams), tps, false) }}
}

func newCoDel(p CoDelParams, tps float64, lifo bool) *codel {
	return &codel{target: waitTicks(p.Target.Seconds(), tps), interval: waitTicks(p.Interval.Seconds(), tps), lifo: lifo}
}

// overloaded reports whether the room, holding calls since tick since, has
// not been empty for an interval.
func (a *codel) overloaded(now, since int64) bool { return now-since > a.interval }

func (a *codel) cutoff(now, since int64) int64 {
	if a.overloaded(now, since) {
		return a.target
	}
	return a.interval
}

func (a *codel) newestFirst(now, since int64) bool { return a.lifo && a.overloaded(now, since) }
