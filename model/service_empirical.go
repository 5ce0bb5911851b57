package model

import (
	"sort"
	"time"
)

// EmpiricalParams are the keys of an empirical service time: the
// percentiles a user reads off their own latency histogram.
type EmpiricalParams struct {
	P50  Duration `toml:"p50" doc:"the median service time"`
	P90  Duration `toml:"p90" doc:"the 90th percentile (at least p50)"`
	P99  Duration `toml:"p99" doc:"the 99th percentile (at least p90)"`
	P999 Duration `toml:"p999" doc:"the 99.9th percentile (at least p99)"`
	Max  Duration `toml:"max" doc:"the longest service time (at least p999)"`
}

func (p *EmpiricalParams) bounds(dst []Bound) []Bound {
	r := span(Duration(time.Microsecond), LongestWait)
	return append(dst, Bound{"p50", "", r, &p.P50}, Bound{"p90", "", r, &p.P90}, Bound{"p99", "", r, &p.P99},
		Bound{"p999", "", r, &p.P999}, Bound{"max", "", r, &p.Max})
}

// levels are the percentiles' levels, in EmpiricalParams' order.
var levels = [...]float64{0.5, 0.9, 0.99, 0.999, 1}

// points is p's times, in seconds, in levels' order, with their keys.
func (p EmpiricalParams) points() ([5]float64, [5]string) {
	return [5]float64{p.P50.Seconds(), p.P90.Seconds(), p.P99.Seconds(), p.P999.Seconds(), p.Max.Seconds()},
		[5]string{"p50", "p90", "p99", "p999", "max"}
}

// empiricalService is piecewise linear in its distribution function
// between the given percentiles, from (0 s, level 0) to (max, level 1).
type empiricalService struct {
	p, x [len(levels) + 1]float64 // levels from 0 to 1 and their times, in seconds
}

func empiricalServiceKind() serviceKind {
	ms := func(n time.Duration) Duration { return Duration(n * time.Millisecond) }
	return serviceKind{Kind: Kind{Name: "empirical", Doc: "a pasted histogram: time rises linearly between the given percentiles, from 0 at level 0 to max", Engines: OnStochastic,
		Params: EmpiricalParams{P50: ms(20), P90: ms(45), P99: ms(180), P999: ms(300), Max: ms(400)}, check: checkEmpirical},
		make: func(params any, _ float64) serviceLaw { return newEmpirical(params.(EmpiricalParams)) }}
}

// checkEmpirical refuses percentiles that fall.
func checkEmpirical(params any) *FieldError {
	x, keys := params.(EmpiricalParams).points()
	for i := 1; i < len(x); i++ {
		if x[i] < x[i-1] {
			return bad(keys[i], "must be at least %s (%gs), is %gs", keys[i-1], x[i-1], x[i])
		}
	}
	return nil
}

// newEmpirical is the law of p's percentiles, which checkEmpirical passed.
func newEmpirical(p EmpiricalParams) empiricalService {
	x, _ := p.points()
	var e empiricalService
	for i, q := range levels {
		e.p[i+1], e.x[i+1] = q, x[i]
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
	i := sort.SearchFloat64s(e.p[:], f) // first level ≥ f
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
