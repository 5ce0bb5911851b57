package model

import "math"

// collapse is an overloaded dependency doing less useful work: with
// overload x = demand / (capacity × window), above 1 the tick's capacity is
// multiplied by max(floor, 1 − slope × (x − 1)). Demand is the calls
// waiting when the server works (arrivals of the tick included), or with
// Offered the calls offered in the window before the tick — new, retried
// and doomed alike — which collapse keeps in a ring of per-tick counts.
type collapse struct {
	CollapsePlan
	offered []int64 // calls offered per tick, ring of WindowTicks (Offered only)
	sum     int64
	at      int64 // last tick whose slot was reset
	demand  int64 // calls offered in the window before this tick
}

func newCollapse(c CollapsePlan) collapse {
	cl := collapse{CollapsePlan: c}
	if c.On() && c.Offered {
		cl.offered = make([]int64, c.WindowTicks)
		cl.at = -1
	}
	return cl
}

// keep is the share of capacity an overloaded dependency keeps, for the
// given demand (ignored when demand is the calls offered).
func (cl *collapse) keep(capRate float64, queued int64) float64 {
	if cl.Slope <= 0 || capRate <= 0 {
		return 1
	}
	demand := queued
	if cl.offered != nil {
		demand = cl.demand
	}
	return cl.Keep(float64(demand) / (capRate * cl.WindowS))
}

// Keep is the share of its capacity a dependency keeps at overload x
// (demand / (capacity × window)): all of it up to x = 1, then max(Floor,
// 1 − Slope × (x − 1)). The engines and the lab's real dependency both
// apply it.
func (c CollapsePlan) Keep(x float64) float64 {
	if c.Slope <= 0 || x <= 1 {
		return 1
	}
	return math.Max(c.Floor, 1-c.Slope*(x-1))
}

// advance moves the window of offered calls to tick t (before the tick's
// calls are offered).
func (cl *collapse) advance(t int64) {
	if cl.offered == nil {
		return
	}
	w := cl.WindowTicks
	if t-cl.at > w {
		clear(cl.offered)
		cl.sum = 0
	} else {
		for x := cl.at + 1; x < t; x++ { // idle ticks left stale slots
			i := x % w
			cl.sum -= cl.offered[i]
			cl.offered[i] = 0
		}
	}
	cl.demand = cl.sum
	i := t % w
	cl.sum -= cl.offered[i]
	cl.offered[i] = 0
	cl.at = t
}

// offer counts n calls offered in tick t.
func (cl *collapse) offer(t, n int64) {
	if cl.offered != nil {
		cl.offered[t%cl.WindowTicks] += n
		cl.sum += n
	}
}

func (c *Collapse) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"slope", "", Range{0, 1000, ""}, &c.Slope}, Bound{"floor", "", Range{0, 1, ""}, &c.Floor}, Bound{"window", "", span(0, LongestWait), &c.Window})
}
