package model

import (
	"math"
	"testing"
	"time"
)

// arrivalsPlan resolves a scenario with the given arrivals.
func arrivalsPlan(t *testing.T, kind string, load float64, tick Duration, faults ...Fault) *Plan {
	t.Helper()
	sc := Default()
	sc.Engine = "stochastic"
	sc.Arrivals, sc.Load, sc.Tick = kind, load, tick
	sc.Duration = Duration(100 * time.Duration(tick))
	sc.Fault = faults
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// drain draws every tick's arrivals as an engine does, jumping to next.
func drain(a *arrivals, ticks int64) []int64 {
	out := make([]int64, ticks)
	for a.next < ticks {
		t := a.next
		out[t] = a.draw(t)
	}
	return out
}

// TestConstantArrivals: load × tick per tick with the fraction carried,
// placed exactly on the ticks that have one when fewer than one a tick;
// spikes multiply the rate.
func TestConstantArrivals(t *testing.T) {
	p := arrivalsPlan(t, "constant", 2.5, Duration(time.Second))
	got := drain(newArrivals(p, newPCG(1)), 6)
	if want := []int64{2, 3, 2, 3, 2, 3}; !equal(got, want) {
		t.Errorf("2.5/s: %v, want %v", got, want)
	}
	p = arrivalsPlan(t, "constant", 0.25, Duration(time.Second))
	a := newArrivals(p, newPCG(1))
	if a.next != 3 {
		t.Errorf("0.25/s: the first request is due in tick 3, planned for %d", a.next)
	}
	got = drain(a, 12)
	if want := []int64{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}; !equal(got, want) {
		t.Errorf("0.25/s: %v, want %v", got, want)
	}
	p = arrivalsPlan(t, "constant", 1, Duration(time.Second), Fault{Kind: "spike", Start: Duration(2 * time.Second), Length: Duration(2 * time.Second), Factor: 3})
	if got := drain(newArrivals(p, newPCG(1)), 6); !equal(got, []int64{1, 1, 3, 3, 1, 1}) {
		t.Errorf("spike ×3 in ticks 2–3: %v", got)
	}
}

// TestPoissonArrivals: the mean per tick is load × tick, at high rates
// (drawn every tick) and at low ones (the gap to the next tick drawn).
func TestPoissonArrivals(t *testing.T) {
	for _, c := range []struct {
		load float64
		tick Duration
	}{{70, Duration(time.Second)}, {20, ms(10)}, {3, ms(10)}} {
		p := arrivalsPlan(t, "poisson", c.load, c.tick)
		var sum float64
		const runs = 400
		for seed := range uint64(runs) {
			for _, n := range drain(newArrivals(p, newPCG(seed)), 100) {
				sum += float64(n)
			}
		}
		mean := sum / runs / 100
		lam := c.load * c.tick.Seconds()
		if se := math.Sqrt(lam / runs / 100); math.Abs(mean-lam) > 5*se {
			t.Errorf("load %v at tick %v: %.4f per tick, want %.4f", c.load, c.tick, mean, lam)
		}
	}
}

// TestSplitClients: round robin for constant arrivals, a draw per request
// for few, binomials for many; every request lands on one client.
func TestSplitClients(t *testing.T) {
	var rr int64
	got := splitClients(nil, newPCG(1), 5, 3, true, false, &rr)
	if len(got) != 3 || got[0] != (split{0, 2}) || got[1] != (split{1, 2}) || got[2] != (split{2, 1}) || rr != 5 {
		t.Errorf("round robin of 5 over 3: %v (rr %d)", got, rr)
	}
	for _, n := range []int64{2, 1000} {
		var total int64
		for _, s := range splitClients(nil, newPCG(2), n, 7, false, false, &rr) {
			if s.d < 0 || s.d >= 7 {
				t.Errorf("client %d out of range", s.d)
			}
			total += s.n
		}
		if total != n {
			t.Errorf("%d requests split into %d", n, total)
		}
	}
	if got := splitClients(nil, newPCG(3), 4, 9, false, true, &rr); len(got) != 4 {
		t.Errorf("groups of one: %v, want four single requests", got)
	}
}
