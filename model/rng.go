package model

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// rng is a run's generator: MINSTD, whose draws follow the order of the
// "Retries and Storm Risk" article's loop, or PCG. Every sampler of
// samplers.go is written in terms of Float64 alone, so a sampler asked for
// one item consumes exactly one draw whichever generator runs; Poisson
// variates come from gonum's distuv under PCG and from Knuth's product
// method under MINSTD, which that article's tables pin.
type rng struct {
	ms  *Minstd   // nil for PCG
	pcg *rand.PCG // the PCG state
}

func newRNG(p *Plan, seed uint64) *rng {
	if p.Minstd {
		return &rng{ms: NewMinstd(seed)}
	}
	return newPCG(seed)
}

// newPCG is a PCG generator seeded from seed.
func newPCG(seed uint64) *rng {
	src := rand.NewPCG(seed, SplitMix(seed))
	return &rng{pcg: src}
}

// Float64 is one uniform draw: MINSTD's, or rand.Rand's Float64 of the
// PCG source (the same number, worked out here so that the draw does not
// go through rand.Rand and its Source). It makes r a source for the
// samplers; the engine calls it directly, without an interface.
func (r *rng) Float64() float64 {
	if r.ms != nil {
		return r.ms.Float64()
	}
	return float64(r.pcg.Uint64()<<11>>11) / (1 << 53)
}

// poisson draws a Poisson variate with mean lambda.
func (r *rng) poisson(lambda float64) int64 {
	switch {
	case lambda <= 0:
		return 0
	case r.ms != nil:
		return knuthPoisson(r, lambda)
	}
	return int64(distuv.Poisson{Lambda: lambda, Src: r.pcg}.Rand())
}

// release hands MINSTD's buffer back at the end of a run.
func (r *rng) release() {
	if r.ms != nil {
		r.ms.release()
	}
}
