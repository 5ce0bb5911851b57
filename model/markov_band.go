package model

// bandSolver solves the linear systems of a chain restricted to a set of
// its states, by banded elimination without subtraction (the
// Grassmann–Taksar–Heyman rule).
//
// The matrix is M = D − R over the kept states: R the rates between them,
// D the diagonal of each state's total rate out (to kept states, to the
// others, and a shift σ ≥ 0). With σ = 0 and the others absorbing, M h = 1
// gives the expected times to reach them; c^T M⁻¹ gives the expected time
// spent in each kept state before absorption. Every such M is an M-matrix:
// elimination keeps the off-diagonal rates positive and recomputes each
// pivot as the sum of its row's remaining rates out, never as a
// difference, so every entry of a solution is accurate to a few units of
// rounding relative to itself, however far apart the chain's time scales
// lie (hitting times of 10¹³ s beside rates of 10 a second). An iterative
// method with a tolerance could not resolve the probability of a mode
// 10⁻¹⁰ times less likely than the other.
//
// The chain's states are numbered so that a jump moves the index by at
// most the orbit's (or the queue's) levels plus one: the kept states keep
// that band, and elimination costs n·w² for n states of band w, fill-in
// staying inside the band.
type bandSolver struct {
	n, w int
	// a holds row i's band, columns i−w..i+w, at a[i*(2w+1)+(j−i+w)]: left
	// of the diagonal the elimination's multipliers, right of it the
	// remaining rates.
	a     []float64
	pivot []float64 // D_i after elimination: each state's rate out to the states after it and out of the set
}

// newBandSolver factors M for the states of c that keep says, with the
// shift sigma added to every state's rate out. They are eliminated in
// index order, or from the last index down with down set: the states
// farthest from the target first, so that every pivot holds a rate
// straight to a state still there or to the target and none underflows
// (a pivot that held only the rate of reaching a target 10⁻⁴⁰⁰ as likely
// would). kept lists the states in the order of the solver's vectors.
func newBandSolver(c *markovChain, keep func(i int) bool, sigma float64, down bool) (s *bandSolver, kept []int) {
	pos := make([]int, c.states())
	for k := range pos {
		i := k
		if down {
			i = len(pos) - 1 - k
		}
		pos[i] = -1
		if keep(i) {
			pos[i] = len(kept)
			kept = append(kept, i)
		}
	}
	w := 0
	for k, i := range kept {
		for e := c.ptr[i]; e < c.ptr[i+1]; e++ {
			if j := pos[c.to[e]]; j >= 0 {
				w = max(w, abs(j-k))
			}
		}
	}
	s = &bandSolver{n: len(kept), w: w, a: make([]float64, len(kept)*(2*w+1)), pivot: make([]float64, len(kept))}
	exit := make([]float64, len(kept))
	for k, i := range kept {
		exit[k] = sigma
		for e := c.ptr[i]; e < c.ptr[i+1]; e++ {
			if j := pos[c.to[e]]; j >= 0 {
				s.a[s.at(k, j)] += c.rate[e]
			} else {
				exit[k] += c.rate[e]
			}
		}
	}
	s.factor(exit)
	return s, kept
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// at is the position of entry (i, j) of the band.
func (s *bandSolver) at(i, j int) int { return i*(2*s.w+1) + j - i + s.w }

// factor eliminates the states in order: state k's rates in and out are
// folded into the states after it, each pivot the sum of what leaves. The
// diagonal's slot gathers the self-loops elimination makes, which a pivot
// leaves out and nothing reads.
func (s *bandSolver) factor(exit []float64) {
	for k := range s.n {
		last := min(s.n-1, k+s.w)
		kk := s.at(k, 0)
		rowK := s.a[kk+k+1 : kk+last+1]
		d := exit[k]
		for _, r := range rowK {
			d += r
		}
		s.pivot[k] = d
		for i := k + 1; i <= last; i++ {
			ii := s.at(i, 0)
			r := s.a[ii+k]
			if r == 0 {
				continue
			}
			p := r / d
			s.a[ii+k] = p
			exit[i] += p * exit[k]
			rowI := s.a[ii+k+1 : ii+last+1]
			rowI = rowI[:len(rowK)]
			for l, x := range rowK {
				rowI[l] += p * x
			}
		}
	}
}

// solve overwrites b with the x of M x = b.
func (s *bandSolver) solve(b []float64) {
	for i := range s.n {
		lo := max(0, i-s.w)
		row := s.a[s.at(i, lo) : s.at(i, lo)+i-lo]
		x := b[i]
		for j, p := range row {
			x += p * b[lo+j]
		}
		b[i] = x
	}
	for j := s.n - 1; j >= 0; j-- {
		hi := min(s.n-1, j+s.w)
		row := s.a[s.at(j, j+1) : s.at(j, j+1)+hi-j]
		x := b[j]
		for l, r := range row {
			x += r * b[j+1+l]
		}
		b[j] = x / s.pivot[j]
	}
}

// solveT overwrites c with the x of xᵀ M = cᵀ, for c ≥ 0, scaled: it
// returns the factor the solution was multiplied by to keep it finite (1
// unless it would overflow; a stationary distribution relative to a state
// 10⁻⁴⁰⁰ times less likely than another does).
func (s *bandSolver) solveT(c []float64) (scale float64) {
	scale = 1
	rescale := func(x float64) {
		if x > bandHuge {
			for i := range c {
				c[i] /= x
			}
			scale /= x
		}
	}
	// Uᵀ z = c, forward: each z_j, once final, passes its share on to the
	// states after it along row j of U.
	for j := range s.n {
		c[j] /= s.pivot[j]
		rescale(c[j])
		hi := min(s.n-1, j+s.w)
		row := s.a[s.at(j, j+1) : s.at(j, j+1)+hi-j]
		z := c[j]
		for l, r := range row {
			c[j+1+l] += r * z
		}
	}
	// Lᵀ x = z, backward: each x_i, once final, passes its share on to the
	// states before it along row i of L.
	for i := s.n - 1; i >= 0; i-- {
		rescale(c[i])
		lo := max(0, i-s.w)
		row := s.a[s.at(i, lo) : s.at(i, lo)+i-lo]
		x := c[i]
		for j, p := range row {
			c[lo+j] += p * x
		}
	}
	return scale
}

// bandHuge is where solveT rescales its solution.
const bandHuge = 1e200
