package model

import "testing"

// TestCredit: whole calls per tick with the fraction carried while busy;
// an idle server of less than one call per tick keeps one call ready; no
// capacity, no credit.
func TestCredit(t *testing.T) {
	var cr credit
	var got []int64
	for range 4 {
		n := cr.take(2.5)
		got = append(got, n)
		cr.spend(n) // busy: uses all of it
	}
	if want := []int64{2, 3, 2, 3}; !equal(got, want) {
		t.Errorf("2.5 per tick, busy: %v, want %v", got, want)
	}
	cr = credit{}
	got = got[:0]
	for range 6 {
		n := cr.take(0.4)
		got = append(got, n)
		cr.spend(0) // idle
	}
	if want := []int64{0, 0, 1, 1, 1, 1}; !equal(got, want) {
		t.Errorf("0.4 per tick, idle: %v, want %v (ready for one call once earned)", got, want)
	}
	if cr.take(0) != 0 || cr.acc != 0 {
		t.Error("an outage keeps no credit")
	}
	cr = credit{}
	if n, ok := cr.takeWhole(6); !ok || n != 6 {
		t.Errorf("takeWhole(6) = %d, %v", n, ok)
	}
	cr.spend(2)
	if cr.acc != 0 {
		t.Errorf("whole capacity left unused is lost, got %v", cr.acc)
	}
	cr = credit{}
	cr.idle(3, 0.3)
	if cr.take(0.3) != 1 {
		t.Error("three idle ticks at 0.3 leave the server ready for a call")
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
