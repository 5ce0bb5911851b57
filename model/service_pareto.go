package model

import (
	"math"
	"time"
)

// ParetoParams are the keys of a Pareto (power-law tail) service time.
type ParetoParams struct {
	Min   Duration `toml:"min" doc:"the shortest service time, the law's scale"`
	Alpha float64  `toml:"alpha" doc:"the tail's index: P(time > x) = (min / x)^alpha; above 1, for a finite mean"`
}

func (p *ParetoParams) bounds(dst []Bound) []Bound {
	return append(dst,
		Bound{"min", "", span(Duration(time.Microsecond), LongestWait), &p.Min},
		Bound{"alpha", "", Range{1.01, 100, ""}, &p.Alpha})
}

// paretoService is the Pareto law of scale xm and index alpha.
type paretoService struct{ xm, alpha float64 }

func paretoServiceKind() serviceKind {
	return serviceKind{Kind: Kind{Name: "pareto", Doc: "a heavy tail: P(time > x) = (min / x)^alpha from min on", Engines: OnStochastic,
		Params: ParetoParams{Min: Duration(20 * time.Millisecond), Alpha: 2}},
		make: func(params any, _ float64) serviceLaw {
			p := params.(ParetoParams)
			return paretoService{p.Min.Seconds(), p.Alpha}
		}}
}

func (p paretoService) survival(x float64) float64 {
	if x <= p.xm {
		return 1
	}
	return math.Pow(p.xm/x, p.alpha)
}

func (p paretoService) upper(s float64) float64 { return p.xm * math.Pow(s, -1/p.alpha) }

func (p paretoService) mean() float64 {
	if p.alpha <= 1 {
		return math.Inf(1)
	}
	return p.alpha * p.xm / (p.alpha - 1)
}
