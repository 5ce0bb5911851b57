package lab

import (
	"context"
	"time"
)

// clock is a lab run's time: the scenario's time divided by speed. Every
// span of the scenario (ticks, timeouts, backoff, faults, breaker delays)
// becomes Wall(span) of real time and every rate is multiplied by speed, so
// a run at speed 10 of a three-minute scenario takes eighteen seconds. The
// counters and the health rule count in the scenario's ticks.
type clock struct {
	speed float64
	tickS float64 // the scenario's tick, in its seconds
	ticks int64   // ticks in the run
	start time.Time
}

// newClock returns a clock for a run of ticks ticks of tickS seconds at
// speed; it starts when started.
func newClock(speed, tickS float64, ticks int64) *clock {
	return &clock{speed: speed, tickS: tickS, ticks: ticks}
}

// begin starts the run's time now.
func (c *clock) begin() { c.start = time.Now() }

// wall is the real duration of s seconds of the scenario.
func (c *clock) wall(s float64) time.Duration {
	return time.Duration(s / c.speed * float64(time.Second))
}

// wallTicks is the real duration of n ticks.
func (c *clock) wallTicks(n float64) time.Duration { return c.wall(n * c.tickS) }

// now is the scenario's time since the start, in its seconds.
func (c *clock) now() float64 { return time.Since(c.start).Seconds() * c.speed }

// tick is the scenario's tick now; it may be past the run's end.
func (c *clock) tick() int64 { return int64(c.now() / c.tickS) }

// answered is the tick an answer the edge receives now was given in: the
// lab's dependency gives a tick's answers at its end (or, a waiting room,
// just after it), so the tick half a tick ago.
func (c *clock) answered() int64 { return int64((c.now() - c.tickS/2) / c.tickS) }

// at is the real time at which tick t starts.
func (c *clock) at(t int64) time.Time { return c.start.Add(c.wallTicks(float64(t))) }

// sleepUntil waits until tick t starts, or ctx ends (false).
func (c *clock) sleepUntil(ctx context.Context, t int64) bool {
	d := time.Until(c.at(t))
	if d <= 0 {
		return ctx.Err() == nil
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-ctx.Done():
		return false
	}
}
