package model

// rng is a run's generator: MINSTD, whose draws follow the order of the
// "Retries and Storm Risk" article's loop, or PCG. Every sampler is written
// in terms of Float64 alone, so a sampler asked for one item consumes
// exactly one draw whichever generator runs.
type rng struct {
	ms  *Minstd // nil for PCG
	pcg pcgSource
}

func newRNG(p *Plan, seed uint64) *rng {
	if p.Minstd {
		return &rng{ms: NewMinstd(seed)}
	}
	return &rng{pcg: newPCG(seed)}
}

// float64 is one uniform draw, without an interface call for MINSTD.
func (r *rng) float64() float64 {
	if r.ms != nil {
		return r.ms.Float64()
	}
	return r.pcg.r.Float64()
}

// Float64 makes r a source for the samplers.
func (r *rng) Float64() float64 { return r.float64() }

// release hands MINSTD's buffer back at the end of a run.
func (r *rng) release() {
	if r.ms != nil {
		r.ms.release()
	}
}
