package model

import (
	"math"
	"testing"
)

// TestHealthQueueRule: unhealthy above the limit; only ticks from the
// fault's start count for the verdict; recovery counts from the fault's end.
func TestHealthQueueRule(t *testing.T) {
	p := &Plan{Health: HealthPlan{Rule: HealthQueue, Limit: 100, WindowTicks: 1}, FaultPlan: FaultPlan{Fault: FaultWindow{Has: true, From: 10, To: 15}}}
	h := newHealth(p)
	backlog := map[int64]int64{5: 500, 12: 101, 13: 100, 20: 300}
	for x := int64(0); x < 30; x++ {
		if got := h.observe(x, 0, 0, backlog[x], backlog[x]); got != (backlog[x] > 100) {
			t.Errorf("tick %d, backlog %d: unhealthy %v", x, backlog[x], got)
		}
	}
	if rec, s := h.recovery(30, 1, 15); !rec || s != 6 {
		t.Errorf("last unhealthy tick 20, fault ends at 15 s: recovered %v after %v s, want after 6 s", rec, s)
	}
	h.observe(30, 0, 0, 101, 101)
	if rec, s := h.recovery(31, 1, 15); rec || !math.IsNaN(s) {
		t.Errorf("unhealthy in the last tick: recovered %v, %v", rec, s)
	}
	// Collapse: first unhealthy at tick 5, before the fault. Drain: from
	// the fault's end (tick 15) the backlog (300 at tick 20, 0 elsewhere)
	// is within the limit at once.
	if c, d := h.collapse(1), h.drain(1); c != 5 || d != 0 {
		t.Errorf("collapse %v s, drain %v s; want 5 and 0", c, d)
	}
	quiet := newHealth(p)
	quiet.observe(5, 0, 0, 500, 500)
	if rec, s := quiet.recovery(30, 1, 15); !rec || s != 0 {
		t.Errorf("unhealthy only before the fault: recovered %v after %v s, want after 0 s", rec, s)
	}
	// A backlog that drains 100 a tick from 1000 at the fault's end.
	slow := newHealth(p)
	for x := int64(0); x < 30; x++ {
		q := int64(0)
		if x >= 15 {
			q = max(0, 1000-100*(x-15))
		}
		slow.observe(x, 0, 0, q, q)
	}
	if d := slow.drain(1); d != 9 {
		t.Errorf("backlog 1000 at tick 15, down 100 a tick to the limit of 100 at tick 24: drain %v s, want 9", d)
	}
	if fresh := newHealth(p); !math.IsNaN(fresh.collapse(1)) {
		t.Errorf("never unhealthy: collapse %v, want NaN", fresh.collapse(1))
	}
}

// TestHealthGoodput: over the last w ticks, successes ≥ goodput × arrivals;
// healthy until a whole window has passed; idle ticks age the window.
func TestHealthGoodput(t *testing.T) {
	p := &Plan{Health: HealthPlan{Rule: HealthGoodput, Goodput: 0.9, WindowTicks: 3}}
	h := newHealth(p)
	steps := []struct {
		ok, arr   int64
		unhealthy bool
	}{{0, 10, false}, {0, 10, false}, {30, 10, false}, {5, 10, false}, {5, 10, false}, {10, 10, true}, {10, 10, true}, {10, 10, false}}
	for i, s := range steps {
		if got := h.observe(int64(i), s.ok, s.arr, 0, 0); got != s.unhealthy {
			t.Errorf("tick %d (%d of %d): unhealthy %v, want %v", i, s.ok, s.arr, got, s.unhealthy)
		}
	}
	// Ticks 8..9 idle: the window still holds ticks 6 and 7 (20 of 20),
	// then only tick 7, then nothing.
	var marks [][3]int64
	h.observe(8, 0, 10, 0, 0) // 20 of 30: unhealthy
	h.idle(9, 13, 0, 0, func(x, y int64, bad bool) {
		b := int64(0)
		if bad {
			b = 1
		}
		marks = append(marks, [3]int64{x, y, b})
	})
	want := [][3]int64{{9, 10, 1}, {10, 11, 1}, {11, 13, 0}}
	if len(marks) != len(want) {
		t.Fatalf("idle marks %v, want %v", marks, want)
	}
	for i := range want {
		if marks[i] != want[i] {
			t.Errorf("idle marks %v, want %v", marks, want)
			break
		}
	}
}
