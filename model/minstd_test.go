package model

import (
	"math"
	"testing"
)

// TestMinstd checks the generator against its definition, state ← state ×
// 48271 mod (2^31 − 1), and Park and Miller's published check value: from
// state 1, the 10,000th state of the 48271 generator is 399268537.
func TestMinstd(t *testing.T) {
	m := NewMinstd(1)
	for range 10000 {
		m.Next()
	}
	if v := m.Next(); v != 48271*uint64(399268537)%minstdM {
		t.Errorf("10,001st state from 1: %d, want 399268537 × 48271 mod (2^31 − 1)", v)
	}
	for _, seed := range []uint64{20260802, 1, minstdM - 1, 1 << 40, math.MaxUint64} {
		m := NewMinstd(seed)
		s := seed % minstdM
		if s == 0 {
			s = 1
		}
		for i := range 100000 {
			s = s * minstdA % minstdM
			if u := m.Float64(); u != float64(s)/minstdM {
				t.Fatalf("seed %d, draw %d: %v, want %v", seed, i, u, float64(s)/minstdM)
			}
		}
	}
	if NewMinstd(minstdM).Next() != minstdA || NewMinstd(0).Next() != minstdA {
		t.Error("a seed that is a multiple of 2^31 − 1 should become 1")
	}
}

// TestKnuthPoisson: the sampler consumes k+1 draws for a result k, the
// unrolled form gives the same variates as the plain one, and the mean and
// variance are λ.
func TestKnuthPoisson(t *testing.T) {
	long(t)
	for _, lam := range []float64{0.05, 0.9722, 3, 30} {
		a, b := NewMinstd(5), NewMinstd(5)
		l := math.Exp(-lam)
		for i := range 200000 {
			if x, y := knuthPoissonL(a, l), b.poissonL(l); x != y {
				t.Fatalf("λ = %v, variate %d: %d plain, %d unrolled", lam, i, x, y)
			}
		}
	}
	m := NewMinstd(7)
	ref := NewMinstd(7)
	for i := range 1000 {
		var k int64
		if i%2 == 0 {
			k = knuthPoisson(m, 0.9722)
		} else {
			k = m.poissonL(math.Exp(-0.9722))
		}
		for range k + 1 {
			ref.Next()
		}
		if a, b := ref.Next(), m.Next(); a != b {
			t.Fatalf("result %d did not consume %d draws", k, k+1)
		}
	}
	for _, lam := range []float64{0.03, 0.9722, 7, 120, 1300} {
		var sum, sq float64
		const n = 20000
		for range n {
			x := float64(knuthPoisson(m, lam))
			sum += x
			sq += x * x
		}
		mean := sum / n
		v := sq/n - mean*mean
		if math.Abs(mean-lam) > 5*math.Sqrt(lam/n) || math.Abs(v-lam) > 0.1*lam+0.01 {
			t.Errorf("λ = %v: mean %.3f, variance %.3f", lam, mean, v)
		}
	}
}

// TestSamplers checks the PCG-side samplers' means and variances.
func TestSamplers(t *testing.T) {
	r := newPCG(11)
	moments := func(n int, draw func() float64) (float64, float64) {
		var sum, sq float64
		for range n {
			x := draw()
			sum += x
			sq += x * x
		}
		m := sum / float64(n)
		return m, sq/float64(n) - m*m
	}
	for _, lam := range []float64{0.2, 3, 9.9, 10, 45, 5000} {
		m, v := moments(40000, func() float64 { return float64(r.poisson(lam)) })
		if math.Abs(m-lam) > 5*math.Sqrt(lam/40000) || math.Abs(v-lam) > 0.05*lam+0.02 {
			t.Errorf("poisson λ=%v: mean %.3f var %.3f", lam, m, v)
		}
	}
	for _, lam := range []float64{0.01, 0.3, 0.49} {
		// Zero-truncated: mean λ/(1−e^−λ).
		want := lam / -math.Expm1(-lam)
		m, _ := moments(40000, func() float64 { return float64(poissonPositive(r, lam)) })
		if math.Abs(m-want) > 0.02 {
			t.Errorf("positive poisson λ=%v: mean %.4f, want %.4f", lam, m, want)
		}
	}
	for _, c := range []struct {
		n int64
		p float64
	}{{1, 0.3}, {10, 0.5}, {17, 0.02}, {100, 0.05}, {1000, 0.3}, {1000, 0.9}, {1 << 30, 0.4}, {50, 1e-9}} {
		np := float64(c.n) * c.p
		want := np * (1 - c.p)
		m, v := moments(20000, func() float64 { return float64(binomial(r, c.n, c.p)) })
		if math.Abs(m-np) > 5*math.Sqrt(want/20000)+1e-9 || math.Abs(v-want) > 0.06*want+0.01 {
			t.Errorf("binomial(%d, %v): mean %.3f var %.3f, want %.3f %.3f", c.n, c.p, m, v, np, want)
		}
	}
	for _, c := range []struct{ total, marked, n int64 }{
		{10, 3, 4}, {50, 25, 32}, {1000, 300, 200}, {1000, 999, 500}, {1 << 40, 1 << 38, 1 << 20}, {200, 5, 190}} {
		N, K, n := float64(c.total), float64(c.marked), float64(c.n)
		mean := n * K / N
		want := mean * (N - K) / N * (N - n) / (N - 1)
		lo, hi := max(0, c.n-(c.total-c.marked)), min(c.n, c.marked)
		m, v := moments(20000, func() float64 {
			x := hypergeometric(r, c.total, c.marked, c.n)
			if x < lo || x > hi {
				t.Fatalf("hypergeometric(%d, %d, %d) = %d, outside [%d, %d]", c.total, c.marked, c.n, x, lo, hi)
			}
			return float64(x)
		})
		if math.Abs(m-mean) > 5*math.Sqrt(want/20000)+1e-9 || math.Abs(v-want) > 0.06*want+0.01 {
			t.Errorf("hypergeometric(%d, %d, %d): mean %.3f var %.3f, want %.3f %.3f", c.total, c.marked, c.n, m, v, mean, want)
		}
	}
	// geometric gaps: P(gap ≥ g) = e^−λg.
	m, _ := moments(40000, func() float64 { return float64(geometricGap(r, 0.1)) })
	if want := math.Exp(-0.1) / -math.Expm1(-0.1); math.Abs(m-want) > 0.3 {
		t.Errorf("geometric gap: mean %.3f, want %.3f", m, want)
	}
}

func TestMinstdJump(t *testing.T) {
	a := uint64(1)
	for range 4 {
		a = a * minstdA % minstdM
	}
	if a != minstdA4 {
		t.Errorf("48271^4 mod (2^31 − 1) = %d, the code says %d", a, minstdA4)
	}
}
