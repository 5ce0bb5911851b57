package model

import (
	"context"
	"fmt"
	"math"
)

// analyseMarkov solves the chain p describes: its stationary distribution,
// spectral gap and hitting times, each by banded elimination
// (bandSolver), the gap by Arnoldi's method on one factorization
// (spectralGap). The notes say where a number could not be had.
func analyseMarkov(p MarkovPlan) (MarkovMetrics, []string) {
	c := newMarkovChain(p)
	m := MarkovMetrics{States: float64(c.states())}
	var notes []string
	pi := c.stationary()
	m.Queue = make([]float64, p.Limit+1)
	for i, x := range pi {
		q, o := c.level(i)
		m.Queue[q] += x
		m.QueueMean += x * float64(q)
		m.OrbitMean += x * float64(o)
		if float64(q) > p.High {
			m.HighP += x
		}
	}
	gap, ok := spectralGap(c, pi)
	if !ok {
		notes = append(notes, fmt.Sprintf("markov: the spectral gap did not converge to %g in %d Arnoldi cycles; mixing_s is the last estimate", gapTol, gapRestarts))
	}
	m.Gap, m.MixingS = gap, math.Log(100)/gap
	m.FillS = c.hittingTime(c.index(0, 0), func(i int) bool { q, _ := c.level(i); return q < p.Limit }, false)
	empty := c.index(0, 0)
	m.DrainS = c.hittingTime(c.index(p.Limit, p.Orbit), func(i int) bool { return i != empty }, true)
	low := func(i int) bool { q, _ := c.level(i); return float64(q) <= p.High }
	m.TipS = c.hittingTime(empty, low, false)
	m.RecoverS = c.hittingTime(c.index(p.Limit, p.Orbit), func(i int) bool { return !low(i) }, true)
	m.Phase = markovPhase(&m, p.Horizon)
	return m, notes
}

// stationary is the chain's stationary distribution π (π Q = 0, Σ π = 1):
// π_j is proportional to the time spent in j between two visits to the
// empty state, c·M⁻¹ over the other states (c the rates out of the empty
// state, M their generator with the empty state absorbing) and 1 for the
// empty state itself.
func (c *markovChain) stationary() []float64 {
	empty := c.index(0, 0)
	s, kept := newBandSolver(c, func(i int) bool { return i != empty }, 0, true)
	pos := make(map[int]int, c.ptr[empty+1]-c.ptr[empty])
	for k, i := range kept {
		pos[i] = k
	}
	x := make([]float64, len(kept))
	for e := c.ptr[empty]; e < c.ptr[empty+1]; e++ {
		x[pos[int(c.to[e])]] += c.rate[e]
	}
	scale := s.solveT(x)
	pi := make([]float64, c.states())
	pi[empty] = scale
	sum := scale
	for k, i := range kept {
		pi[i] = x[k]
		sum += x[k]
	}
	for i := range pi {
		pi[i] /= sum
	}
	return pi
}

// hittingTime is the expected time from state from until the chain first
// leaves the states in (those outside are the target); down says that the
// target lies at the low indexes (see newBandSolver).
func (c *markovChain) hittingTime(from int, in func(i int) bool, down bool) float64 {
	if !in(from) {
		return 0
	}
	s, kept := newBandSolver(c, in, 0, down)
	h := make([]float64, len(kept))
	for k := range h {
		h[k] = 1
	}
	s.solve(h)
	for k, i := range kept {
		if i == from {
			return h[k]
		}
	}
	return math.NaN()
}

// runMarkov is the markov engine: one cell is one solve of its chain, with
// no replicates and no time series; the simulation's columns are empty.
func runMarkov(ctx context.Context, p *Plan) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	res := aborted(1, "") // every simulation metric NaN (an empty column), none aborted
	res.Aborted = ""
	res.Verdict = NotJudged
	res.Markov, res.Warnings = analyseMarkov(p.Markov)
	return res, nil
}
