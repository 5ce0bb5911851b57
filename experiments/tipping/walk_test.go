package tipping

import (
	"math"
	"sync"
	"testing"

	"github.com/stormlab/stormlab/experiments/spec"
)

// fake runs walk and summarise over a line of n points whose verdicts a
// function gives, as a deterministic engine would: point i tips when
// tips(i). It returns the search and the points run.
func fake(t *testing.T, n, scan int, tips func(i int) bool) (*Search, []int) {
	t.Helper()
	var mu sync.Mutex
	done := map[int]*Eval{}
	var order []int
	eval := func(i int) (*Eval, error) {
		mu.Lock()
		defer mu.Unlock()
		if i < 0 || i >= n {
			t.Fatalf("point %d off a line of %d", i, n)
		}
		if e, ok := done[i]; ok {
			return e, nil
		}
		e := &Eval{Index: i, Value: float64(i), Runs: 1, exact: true}
		if tips(i) {
			e.Tipped = 1
		}
		done[i] = e
		order = append(order, i)
		return e, nil
	}
	if err := walk(n, scan, eval); err != nil {
		t.Fatal(err)
	}
	s := &Search{Spec: &spec.Tipping{Key: "blip", Path: "fault.0.length"}}
	for _, e := range done {
		s.Evals = append(s.Evals, *e)
	}
	s.summarise()
	return s, order
}

// A single step is found exactly, wherever it lies, in a handful of
// points: the scan, then a bisection of the one stretch that changes.
func TestWalkFindsEveryStepExactly(t *testing.T) {
	const n = 601
	for k := 1; k < n; k++ {
		s, run := fake(t, n, 5, func(i int) bool { return i >= k })
		if s.Status != Found || s.Critical != float64(k) || s.Recovers.Value != float64(k-1) || s.Changes != 1 {
			t.Fatalf("step at %d: %s, critical %v, bracket %v–%v, %d changes", k, s.Status, s.Critical, s.Recovers.Value, s.Tips.Value, s.Changes)
		}
		// 5 scan points, then a bisection of 150 points at most.
		if limit := 5 + int(math.Ceil(math.Log2(150))); len(run) > limit {
			t.Fatalf("step at %d: %d points run, more than %d", k, len(run), limit)
		}
	}
}

// A verdict that changes back (a window that tips, recovering beyond it)
// is reported as non-monotone with both brackets, never smoothed into one
// boundary.
func TestWalkReportsNonMonotone(t *testing.T) {
	s, _ := fake(t, 101, 5, func(i int) bool { return i >= 30 && i < 60 })
	if s.Status != NonMonotone || s.Changes != 2 || len(s.Brackets) != 2 {
		t.Fatalf("window 30–59: %s, %d changes, %d brackets", s.Status, s.Changes, len(s.Brackets))
	}
	if s.Brackets[0][1].Value != 30 || s.Brackets[1][0].Value != 59 || s.Brackets[1][1].Value != 60 {
		t.Errorf("brackets %v–%v and %v–%v, want 29–30 and 59–60", s.Brackets[0][0].Value, s.Brackets[0][1].Value, s.Brackets[1][0].Value, s.Brackets[1][1].Value)
	}
	if s.Critical != 30 {
		t.Errorf("estimate %v, want the first change from the mild end, 30", s.Critical)
	}
	if s.Monotone() {
		t.Error("Monotone() holds for a window")
	}
	// Tipping at the mild end and recovering beyond: the wrong way.
	s, _ = fake(t, 101, 5, func(i int) bool { return i < 40 })
	if s.Status != NonMonotone || !math.IsNaN(s.Critical) {
		t.Errorf("reversed step: %s, critical %v; want non-monotone without an estimate", s.Status, s.Critical)
	}
}

// A range in which nothing tips, and one in which everything does, are
// findings of their own, with no estimate.
func TestWalkWithoutBoundary(t *testing.T) {
	s, run := fake(t, 301, 5, func(int) bool { return false })
	if s.Status != Nothing || s.Region != Stable || !math.IsNaN(s.Critical) || len(run) != 5 {
		t.Errorf("nothing tips: %s, region %s, critical %v, %d points", s.Status, s.Region, s.Critical, len(run))
	}
	s, _ = fake(t, 301, 5, func(int) bool { return true })
	if s.Status != Already || s.Region != Vulnerable || !math.IsNaN(s.Critical) {
		t.Errorf("everything tips: %s, region %s, critical %v", s.Status, s.Region, s.Critical)
	}
}

// The scan spreads its points evenly, both ends included, without repeats.
func TestScanPoints(t *testing.T) {
	for _, c := range []struct {
		n, k int
		want []int
	}{
		{601, 5, []int{0, 150, 300, 450, 600}},
		{2, 5, []int{0, 1}},
		{4, 5, []int{0, 1, 2, 3}},
		{11, 2, []int{0, 10}},
	} {
		got := scanPoints(c.n, c.k)
		if len(got) != len(c.want) {
			t.Errorf("scanPoints(%d, %d) = %v, want %v", c.n, c.k, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("scanPoints(%d, %d) = %v, want %v", c.n, c.k, got, c.want)
				break
			}
		}
	}
}

// A stochastic answer: the estimate interpolates the share that tips to
// one half within the bracket, and the interval runs between the nearest
// points certain to recover and certain to tip.
func TestStochasticEstimate(t *testing.T) {
	shares := []struct {
		value  float64
		tipped int
		lo, hi float64 // Wilson bounds of the share that tips
	}{
		{0, 0, 0, 0.1},
		{1, 2, 0.05, 0.45},  // certain to recover
		{2, 8, 0.25, 0.6},   // recovers, not certain
		{3, 12, 0.4, 0.75},  // tips, not certain
		{4, 18, 0.55, 0.95}, // certain to tip
		{5, 20, 0.85, 1},
	}
	s := &Search{Spec: &spec.Tipping{Key: "blip", Path: "fault.0.length"}}
	for i, x := range shares {
		s.Evals = append(s.Evals, Eval{Index: i, Value: x.value, Runs: 20, Tipped: x.tipped, Lo: x.lo, Hi: x.hi})
	}
	s.summarise()
	if s.Status != Found || s.Recovers.Value != 2 || s.Tips.Value != 3 {
		t.Fatalf("%s, bracket %v–%v; want found, 2–3", s.Status, s.Recovers.Value, s.Tips.Value)
	}
	// 8/20 at 2 and 12/20 at 3: one half is crossed halfway.
	if math.Abs(s.Critical-2.5) > 1e-12 {
		t.Errorf("estimate %v, want 2.5", s.Critical)
	}
	if s.Lo != 1 || s.Hi != 4 {
		t.Errorf("interval %v–%v, want 1–4", s.Lo, s.Hi)
	}
	// A point certain to tip on the mild side of one certain to recover
	// is a non-monotone answer; one only likely to tip is noise.
	s.Evals[1].Tipped, s.Evals[1].Lo, s.Evals[1].Hi = 18, 0.55, 0.95
	s.summarise()
	if s.Status != Found {
		t.Errorf("a likely change back, certain of nothing: %s, want found", s.Status)
	}
	s.Evals[3].Tipped, s.Evals[3].Lo, s.Evals[3].Hi = 1, 0, 0.25
	s.summarise()
	if s.Status != NonMonotone {
		t.Errorf("certain inversion: %s, want non-monotone", s.Status)
	}
}
