package model

import (
	"sort"
	"time"
)

// EmpiricalParams are the keys of an empirical service time: quantiles a
// user reads off their own latency histogram, as two lists of equal
// length.
type EmpiricalParams struct {
	Quantiles []float64  `toml:"quantiles" doc:"the quantiles' levels, rising, in (0, 1], the last 1 (the longest time): [0.5, 0.9, 0.99, 1]"`
	Times     []Duration `toml:"times" doc:"the service time at each level, not falling: [\"20ms\", \"45ms\", \"180ms\", \"400ms\"]"`
}

// empiricalService is piecewise linear in its distribution function
// between the given quantiles, from (0 s, 0) to the last, at level 1.
type empiricalService struct {
	p, x []float64 // levels from 0 to 1 and their times, in seconds
}

func empiricalServiceKind() serviceKind {
	return serviceKind{Kind: Kind{Name: "empirical", Doc: "a pasted histogram: time rises linearly between the given quantiles, from 0 at level 0", Engines: OnStochastic,
		Params: EmpiricalParams{Quantiles: []float64{0.5, 0.9, 0.99, 1}, Times: []Duration{Duration(20 * time.Millisecond), Duration(45 * time.Millisecond), Duration(180 * time.Millisecond), Duration(400 * time.Millisecond)}}},
		make:  func(params any, _ float64) serviceLaw { return newEmpirical(params.(EmpiricalParams)) },
		check: checkEmpirical}
}

// checkEmpirical refuses lists a law cannot be made from.
func checkEmpirical(params any) *FieldError {
	p := params.(EmpiricalParams)
	switch {
	case len(p.Quantiles) == 0:
		return bad("quantiles", "must list at least one level, the last 1")
	case len(p.Times) != len(p.Quantiles):
		return bad("times", "must have one time per level of quantiles (%d), has %d", len(p.Quantiles), len(p.Times))
	case p.Quantiles[len(p.Quantiles)-1] != 1:
		return bad("quantiles", "must end at 1 (the longest time), ends at %g", p.Quantiles[len(p.Quantiles)-1])
	}
	for i, q := range p.Quantiles {
		if q <= 0 || i > 0 && q <= p.Quantiles[i-1] {
			return bad("quantiles", "must rise strictly within (0, 1]; level %d is %g", i+1, q)
		}
		if p.Times[i] < 0 || i > 0 && p.Times[i] < p.Times[i-1] {
			return bad("times", "must not fall and not be negative; time %d is %v", i+1, p.Times[i])
		}
	}
	return nil
}

// newEmpirical is the law of p's quantiles, which checkEmpirical passed.
func newEmpirical(p EmpiricalParams) empiricalService {
	e := empiricalService{p: []float64{0}, x: []float64{0}}
	for i, q := range p.Quantiles {
		e.p = append(e.p, q)
		e.x = append(e.x, p.Times[i].Seconds())
	}
	return e
}

func (e empiricalService) survival(x float64) float64 {
	last := len(e.x) - 1
	if x >= e.x[last] {
		return 0
	}
	// the first knot above x: x lies in [x[i−1], x[i])
	i := sort.Search(len(e.x), func(i int) bool { return e.x[i] > x })
	if i == 0 {
		return 1
	}
	f := e.p[i-1] + (e.p[i]-e.p[i-1])*(x-e.x[i-1])/(e.x[i]-e.x[i-1])
	return 1 - f
}

func (e empiricalService) upper(s float64) float64 {
	f := 1 - s
	i := sort.SearchFloat64s(e.p, f) // first level ≥ f
	if i == 0 {
		return e.x[0]
	}
	if i >= len(e.p) {
		return e.x[len(e.x)-1]
	}
	return e.x[i-1] + (e.x[i]-e.x[i-1])*(f-e.p[i-1])/(e.p[i]-e.p[i-1])
}

// mean is the integral of the piecewise-linear quantile function: each
// piece's level span times its mid time.
func (e empiricalService) mean() float64 {
	var m float64
	for i := 1; i < len(e.p); i++ {
		m += (e.p[i] - e.p[i-1]) * (e.x[i] + e.x[i-1]) / 2
	}
	return m
}
