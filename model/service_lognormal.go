package model

import (
	"math"
	"time"
)

// LognormalParams are the keys of a lognormal service time, given as a
// latency histogram reads: its median and its 99th percentile.
type LognormalParams struct {
	Median Duration `toml:"median" doc:"the median service time"`
	P99    Duration `toml:"p99" doc:"the 99th percentile of the service time (above median)"`
}

func (p *LognormalParams) bounds(dst []Bound) []Bound {
	return append(dst,
		Bound{"median", "", span(Duration(time.Microsecond), LongestWait/2), &p.Median},
		Bound{"p99", "", span(Duration(2*time.Microsecond), LongestWait), &p.P99})
}

// lognormalService is exp(mu + sigma·Z), Z standard normal.
type lognormalService struct{ mu, sigma float64 }

// z99 is the 99th percentile of the standard normal.
var z99 = math.Sqrt2 * math.Erfinv(0.98)

func lognormalServiceKind() serviceKind {
	return serviceKind{Kind: Kind{Name: "lognormal", Doc: "a lognormal time of the given median and 99th percentile", Engines: OnStochastic,
		Params: LognormalParams{Median: Duration(50 * time.Millisecond), P99: Duration(500 * time.Millisecond)},
		check: func(params any) *FieldError {
			if p := params.(LognormalParams); p.P99 <= p.Median {
				return bad("p99", "must be above median (%v), is %v", p.Median, p.P99)
			}
			return nil
		}},
		make: func(params any, _ float64) serviceLaw { return newLognormal(params.(LognormalParams)) }}
}

// newLognormal is the lognormal law with p's median and 99th percentile.
func newLognormal(p LognormalParams) lognormalService {
	return lognormalService{mu: math.Log(p.Median.Seconds()), sigma: math.Log(p.P99.Seconds()/p.Median.Seconds()) / z99}
}

func (l lognormalService) survival(x float64) float64 {
	if x <= 0 {
		return 1
	}
	return 0.5 * math.Erfc((math.Log(x)-l.mu)/(l.sigma*math.Sqrt2))
}

// upper inverts survival from the top: Φ⁻¹(1 − s) = √2·erfcinv(2s), which
// keeps its precision for small s.
func (l lognormalService) upper(s float64) float64 {
	return math.Exp(l.mu + l.sigma*math.Sqrt2*math.Erfcinv(2*s))
}

func (l lognormalService) mean() float64 { return math.Exp(l.mu + l.sigma*l.sigma/2) }
