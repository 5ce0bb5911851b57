package model

import "math"

// credit is a server's capacity, counted in calls: take starts a tick's
// service with the tick's capacity c (calls, maybe fractional) and returns
// the whole calls the server may complete; spend ends the tick, in which u
// were completed. A busy server carries the fraction it has not used to the
// next tick, so it serves c calls per tick on average. A whole call of
// credit left unused means the server was idle: with c ≥ 1 it is lost (a
// server of 6 per tick serves at most 6 in any tick); with c < 1 the server
// stays ready for one call, so a call reaching an idle server of 20/s at
// 10 ms ticks is served at once rather than in whichever tick its credit
// happens to round up, and the call's work starts then: a tick that begins
// with the server ready adds nothing. No capacity, no credit.
type credit struct {
	acc   float64 // calls of credit
	c     float64 // this tick's capacity
	whole bool    // the tick took a whole number of calls from no credit
}

func (cr *credit) take(c float64) int64 {
	cr.c, cr.whole = c, false
	if c <= 0 {
		cr.acc = 0
		return 0
	}
	if c < 1 && cr.acc >= 1-1e-9 {
		cr.acc = 1 // ready since before the tick: idling earns nothing
	} else {
		cr.acc += c
	}
	return int64(math.Floor(cr.acc + 1e-9))
}

// takeWhole is take for a whole number of calls per tick from no credit,
// which leaves no fraction behind; ok is false when that does not apply.
func (cr *credit) takeWhole(perTick int64) (n int64, ok bool) {
	if perTick < 1 || cr.acc != 0 {
		return 0, false
	}
	cr.acc, cr.c, cr.whole = float64(perTick), float64(perTick), true
	return perTick, true
}

func (cr *credit) spend(u int64) {
	if cr.whole {
		cr.acc = 0 // whatever was left is lost, and no fraction was carried
		return
	}
	cr.acc -= float64(u)
	if cr.acc >= 1-1e-9 {
		if cr.c < 1 {
			cr.acc = 1
		} else {
			cr.acc -= math.Floor(cr.acc + 1e-9)
		}
	}
	if cr.acc < 0 {
		cr.acc = 0
	}
}

// idle accrues n ticks of capacity c in which nothing was served.
func (cr *credit) idle(n int64, c float64) {
	switch {
	case c <= 0:
		cr.acc = 0
	case c < 1:
		cr.acc = math.Min(1, cr.acc+float64(n)*c)
	default:
		cr.acc += float64(n) * c
		cr.acc -= math.Floor(cr.acc + 1e-9)
		cr.acc = math.Max(0, cr.acc)
	}
}
