package model

import (
	"math"
	"math/cmplx"

	"gonum.org/v1/gonum/mat"
)

// Tolerances of the spectral gap's Arnoldi iteration.
const (
	gapKrylov   = 24    // Krylov vectors per cycle
	gapRestarts = 60    // cycles at most
	gapTol      = 1e-10 // a Ritz value is taken when its residual is at most this share of it
	gapShift    = 1e-10 // σ, as a share of the chain's largest rate out
)

// spectralGap is −Re λ₂: λ₂ the eigenvalue of the generator Q with the
// largest real part after 0, the rate at which the slowest mode decays (its
// inverse is the relaxation time). It runs Arnoldi's method on (σI − Q)⁻¹,
// applied with one banded factorization (bandSolver), in the space of
// vectors x with π·x = 0 — the complement of the eigenvector of 0, kept by
// projecting every Krylov vector — so the eigenvalues nearest σ come first:
// λ = σ − 1/θ for a Ritz value θ. Of the Ritz values of a cycle it takes
// the one with the largest real part λ, converged when its residual is at
// most gapTol of θ; otherwise it restarts from that Ritz vector. ok is false
// when no cycle converged.
func spectralGap(c *markovChain, pi []float64) (gap float64, ok bool) {
	n := c.states()
	if n < 3 {
		return math.NaN(), false
	}
	for _, p := range pi {
		if math.IsNaN(p) || math.IsInf(p, 0) {
			return math.NaN(), false
		}
	}
	top := 0.0
	for _, r := range c.out {
		top = max(top, r)
	}
	sigma := gapShift * top
	s, _ := newBandSolver(c, func(int) bool { return true }, sigma, false)
	project := func(x []float64) {
		d := 0.0
		for i, p := range pi {
			d += p * x[i]
		}
		for i := range x {
			x[i] -= d
		}
	}
	m := min(gapKrylov, n-2)
	v := make([][]float64, m+1)
	for j := range v {
		v[j] = make([]float64, n)
	}
	for i := range v[0] { // a fixed start with no structure of the chain's
		v[0][i] = float64(SplitMix(uint64(i))>>11)/(1<<53) - 0.5
	}
	h := mat.NewDense(m+1, m, nil)
	best := math.NaN()
	for range gapRestarts {
		project(v[0])
		normalize(pi, v[0])
		h.Zero()
		size := m
		for j := range m {
			w := v[j+1]
			copy(w, v[j])
			s.solve(w)
			project(w)
			for range 2 { // Gram–Schmidt twice keeps the basis orthogonal
				for i := 0; i <= j; i++ {
					d := wdot(pi, w, v[i])
					h.Set(i, j, h.At(i, j)+d)
					for k := range w {
						w[k] -= d * v[i][k]
					}
				}
			}
			nw := normalize(pi, w)
			h.Set(j+1, j, nw)
			if nw <= 1e-14*math.Abs(h.At(j, j)) { // an invariant subspace: exact
				size = j + 1
				break
			}
		}
		var eig mat.Eigen
		hm := mat.DenseCopyOf(h.Slice(0, size, 0, size))
		if !eig.Factorize(hm, mat.EigenRight) {
			return math.NaN(), false
		}
		theta := eig.Values(nil)
		var vecs mat.CDense
		eig.VectorsTo(&vecs)
		pick, lam := -1, complex(math.Inf(-1), 0)
		for k, t := range theta {
			if t == 0 {
				continue
			}
			if l := complex(sigma, 0) - 1/t; real(l) > real(lam) {
				pick, lam = k, l
			}
		}
		if pick < 0 {
			return math.NaN(), false
		}
		y := make([]complex128, size)
		norm := 0.0
		for i := range size {
			y[i] = vecs.At(i, pick)
			norm += real(y[i] * cmplx.Conj(y[i]))
		}
		norm = math.Sqrt(norm)
		resid := math.Abs(h.At(size, size-1)) * cmplx.Abs(y[size-1]) / norm
		if size < m {
			resid = 0
		}
		best = -real(lam)
		if resid <= gapTol*cmplx.Abs(theta[pick]) {
			return best, true
		}
		// Restart from the Ritz vector (its real and imaginary parts
		// together for a complex pair).
		next := make([]float64, n)
		for i := range size {
			re, im := real(y[i]), imag(y[i])
			for k := range next {
				next[k] += (re + im) * v[i][k]
			}
		}
		copy(v[0], next)
	}
	return best, false
}

// wdot is the inner product of a and b weighted by w.
func wdot(w, a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += w[i] * a[i] * b[i]
	}
	return s
}

// normalize scales x to length one in the inner product weighted by w and
// returns its length before.
func normalize(w, x []float64) float64 {
	l := math.Sqrt(wdot(w, x, x))
	if l > 0 {
		for i := range x {
			x[i] /= l
		}
	}
	return l
}
