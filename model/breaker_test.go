package model

import "testing"

// TestBreakerConsecutive: trips after threshold failures in a row (a
// success resets the run), fails calls at once while open, lets probes
// through half-open, closes on a probe's success and opens again on its
// failure.
func TestBreakerConsecutive(t *testing.T) {
	b := newBreaker(BreakerPlan{Kind: BreakerConsecutive, Threshold: 5, OpenTicks: 30, Probes: 2})
	b.record(0, 0, 4)
	b.record(0, 1, 0) // a success resets the run
	b.record(0, 0, 4)
	if got := b.allow(1, 10); got != 10 {
		t.Fatalf("4 failures in a row: %d of 10 allowed, want all", got)
	}
	b.record(1, 0, 1) // the fifth in a row
	if got := b.allow(2, 10); got != 0 {
		t.Fatalf("open: %d allowed", got)
	}
	b.record(2, 0, 3) // answers of calls made before: ignored
	if got := b.allow(30, 10); got != 0 {
		t.Fatalf("still open at tick 30: %d allowed", got)
	}
	if got := b.allow(31, 10); got != 2 {
		t.Fatalf("half-open at tick 31: %d allowed, want the 2 probes", got)
	}
	if got := b.allow(31, 10); got != 0 {
		t.Fatalf("probes spent: %d allowed", got)
	}
	b.record(32, 0, 1) // a probe fails: open again until 62
	if got := b.allow(61, 1); got != 0 {
		t.Fatalf("reopened: %d allowed at 61", got)
	}
	if got := b.allow(62, 5); got != 2 {
		t.Fatalf("half-open again at 62: %d", got)
	}
	b.record(63, 1, 0) // a probe succeeds: closed
	if got := b.allow(63, 50); got != 50 {
		t.Fatalf("closed: %d of 50 allowed", got)
	}
}

// TestBreakerRatio: trips when failures are at least ratio of the calls in
// the window, once min_calls were made; old slices leave the window.
func TestBreakerRatio(t *testing.T) {
	b := newBreaker(BreakerPlan{Kind: BreakerRatio, Ratio: 0.5, MinCalls: 10, SliceTicks: 1, OpenTicks: 5, Probes: 1})
	b.record(0, 1, 8) // 8 of 9: under min_calls
	if b.allow(0, 1) != 1 {
		t.Fatal("tripped before min_calls")
	}
	b.record(20, 6, 5) // the first calls left the window: 5 of 11 < 0.5
	if b.allow(20, 1) != 1 {
		t.Fatal("tripped on 5 failures of 11")
	}
	b.record(20, 0, 1) // 6 of 12
	if b.allow(21, 1) != 0 {
		t.Fatal("did not trip at half the calls failing")
	}
}
