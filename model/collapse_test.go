package model

import (
	"math"
	"testing"
)

// TestCollapse: above capacity the server keeps max(floor, 1 − slope ×
// (x − 1)); demand is the calls waiting, or the calls offered over the
// window before the tick.
func TestCollapse(t *testing.T) {
	q := newCollapse(CollapsePlan{Slope: 0.5, Floor: 0.1, WindowS: 1, WindowTicks: 1})
	for _, c := range []struct {
		queued int64
		keep   float64
	}{{50, 1}, {100, 1}, {150, 0.75}, {200, 0.5}, {1000, 0.1}} {
		if got := q.keep(100, c.queued); math.Abs(got-c.keep) > 1e-12 {
			t.Errorf("queue of %d at 100/s: keep %v, want %v", c.queued, got, c.keep)
		}
	}
	off := newCollapse(CollapsePlan{Slope: 0.5, Floor: 0.1, WindowS: 2, WindowTicks: 2, Offered: true})
	off.advance(0)
	off.offer(0, 300)
	off.advance(1)
	off.offer(1, 100)
	off.advance(2) // demand: ticks 0 and 1 = 400 over 2 s at 100/s: x = 2
	if got := off.keep(100, 0); math.Abs(got-0.5) > 1e-12 {
		t.Errorf("400 offered over 2 s at 100/s: keep %v, want 0.5", got)
	}
	off.advance(5) // idle ticks 3 and 4: the window is empty
	if got := off.keep(100, 1e9); got != 1 {
		t.Errorf("after idle ticks: keep %v, want 1 (the calls waiting do not count)", got)
	}
	if none := newCollapse(CollapsePlan{}); none.keep(100, 1e9) != 1 {
		t.Error("no collapse: keep everything")
	}
}
