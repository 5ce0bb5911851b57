package model

import "testing"

// TestSlidingSum: with slices of 3 ticks, what was added leaves the sum
// once ten newer slices have begun, also across a jump of several slices;
// reset empties it where it stands.
func TestSlidingSum(t *testing.T) {
	w := newSlidingSum(3)
	w.slide(0)
	w.add(5) // slice 0
	w.slide(4)
	w.add(2) // slice 1
	for _, c := range []struct{ t, want int64 }{{29, 7}, {30, 2}, {33, 0}} {
		w.slide(c.t)
		if w.sum != c.want {
			t.Errorf("at tick %d: sum %d, want %d", c.t, w.sum, c.want)
		}
	}
	w.add(4)
	w.slide(100) // many slices later: everything expired
	if w.sum != 0 {
		t.Errorf("after a long gap: sum %d, want 0", w.sum)
	}
	w.add(1)
	w.reset()
	if w.sum != 0 || w.parts != [10]int64{} {
		t.Errorf("after reset: %+v", w)
	}
}
