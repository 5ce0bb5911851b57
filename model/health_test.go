package model

import (
	"math"
	"testing"
)

// TestHealthQueueRule: unhealthy above the limit; only ticks from the
// fault's start count for the verdict; recovery counts from the fault's end.
func TestHealthQueueRule(t *testing.T) {
	p := &Plan{Health: HealthPlan{Rule: HealthQueue, Limit: 100, WindowTicks: 1}, Fault: FaultWindow{Has: true, From: 10}}
	h := newHealth(p, true)
	backlog := map[int64]int64{5: 500, 12: 101, 13: 100, 20: 300}
	for x := int64(0); x < 30; x++ {
		if got := h.observe(x, 0, 0, backlog[x]); got != (backlog[x] > 100) {
			t.Errorf("tick %d, backlog %d: unhealthy %v", x, backlog[x], got)
		}
	}
	if rec, s := h.recovery(30, 1, 15); !rec || s != 6 {
		t.Errorf("last unhealthy tick 20, fault ends at 15 s: recovered %v after %v s, want after 6 s", rec, s)
	}
	h.observe(30, 0, 0, 101)
	if rec, s := h.recovery(31, 1, 15); rec || !math.IsNaN(s) {
		t.Errorf("unhealthy in the last tick: recovered %v, %v", rec, s)
	}
	quiet := newHealth(p, false)
	quiet.observe(5, 0, 0, 500)
	if rec, s := quiet.recovery(30, 1, 15); !rec || s != 0 {
		t.Errorf("unhealthy only before the fault: recovered %v after %v s, want after 0 s", rec, s)
	}
}

// TestHealthGoodput: over the last w ticks, successes ≥ goodput × arrivals;
// healthy until a whole window has passed; idle ticks age the window.
func TestHealthGoodput(t *testing.T) {
	p := &Plan{Health: HealthPlan{Rule: HealthGoodput, Goodput: 0.9, WindowTicks: 3}}
	h := newHealth(p, true)
	steps := []struct {
		ok, arr   int64
		unhealthy bool
	}{{0, 10, false}, {0, 10, false}, {30, 10, false}, {5, 10, false}, {5, 10, false}, {10, 10, true}, {10, 10, true}, {10, 10, false}}
	for i, s := range steps {
		if got := h.observe(int64(i), s.ok, s.arr, 0); got != s.unhealthy {
			t.Errorf("tick %d (%d of %d): unhealthy %v, want %v", i, s.ok, s.arr, got, s.unhealthy)
		}
	}
	// Ticks 8..9 idle: the window still holds ticks 6 and 7 (20 of 20),
	// then only tick 7, then nothing.
	var marks [][3]int64
	h.observe(8, 0, 10, 0) // 20 of 30: unhealthy
	h.idle(9, 13, 0, func(x, y int64, bad bool) {
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
