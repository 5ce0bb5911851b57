package model

import (
	"context"
	"fmt"
)

// Options say how to run a cell.
type Options struct {
	Series    bool  // record the per-second series of the first replicate, and their band over several
	MaxMemory int64 // bytes of live simulation state a replicate may hold; 0 = no cap
	// Windows are spans of the run measured on every replicate's series
	// (recorded for them alone) into Result.Windows.
	Windows []Window
}

// guard stops a run that is cancelled, or whose live state outgrows its
// memory cap. The engines ask it every tick (tick), and in a long tick
// every few thousand events (ok), with the bytes their state holds (groups,
// events, queued entries, rows of cohorts, series rows); it counts the
// ticks, the work a run's cost is estimated in.
type guard struct {
	done  <-chan struct{}
	ctx   context.Context
	max   int64
	peak  int64  // the most live bytes seen
	stop  bool   // the run must end now
	abort string // why, when it was the memory cap
	now   float64
	ticks int64  // ticks run (not those the queue engine jumps over)
	asked func() // tests: called whenever the guard is asked, before it looks at the context
}

func newGuard(ctx context.Context, max int64) *guard {
	return &guard{ctx: ctx, done: ctx.Done(), max: max}
}

// tick reports whether the run may go on after a tick that ended at
// simulated time now (seconds), holding live bytes of state, and counts it.
// A tick that holds no more than the peak so far, under a context that
// cannot be cancelled, has nothing to look at.
func (g *guard) tick(live int64, now float64) bool {
	if g == nil {
		return true
	}
	g.ticks++
	if live <= g.peak && g.done == nil && g.asked == nil {
		return !g.stop
	}
	return g.ok(live, now)
}

// ok reports whether the run may go on at simulated time now (seconds),
// holding live bytes of state.
func (g *guard) ok(live int64, now float64) bool {
	if g == nil {
		return true
	}
	if g.asked != nil {
		g.asked()
	}
	g.peak = max(g.peak, live)
	if g.max > 0 && live > g.max && !g.stop {
		g.stop = true
		g.abort = fmt.Sprintf("stopped at %.1f s of simulated time: its state reached %s, over the %s of state a cell may hold (its share of -max-memory)",
			now, Bytes(live), Bytes(g.max))
	}
	if !g.stop && g.done != nil {
		select {
		case <-g.done:
			g.stop = true
		default:
		}
	}
	return !g.stop
}

// err is the context's error once the run was cancelled.
func (g *guard) err() error {
	if g.abort == "" && g.stop {
		return g.ctx.Err()
	}
	return nil
}

// Bytes writes a size the way the memory cap is written: "512 MB", "1.5 GB".
func Bytes(n int64) string {
	switch {
	case n >= 1<<30:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<30))) + " GB"
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

func trimZero(s string) string {
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		return s[:len(s)-2]
	}
	return s
}

// Sizes of the live state's parts, for the memory cap.
const (
	groupBytes  = 72  // a group, and its place in the free list
	extraBytes  = 72  // a group's extra part (hedging, cancellation, a graph's parallel calls)
	eventBytes  = 32  // a scheduled event
	entryBytes  = 24  // a queued entry, a cohort
	seriesBytes = 120 // a row of a series
)
