package model

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// This file holds the first-passage summaries beside recovery: the time
// from an intervention until healthy for good, and the spread of the time
// to collapse over replicates.

// afterChange is the seconds from the plan's first change until the run was
// healthy for good: 0 when it was healthy from the change on; NaN when it
// never was again, or when the plan has no change.
func (h *health) afterChange(p *Plan) float64 {
	if len(p.Changes) == 0 || h.lastBad == p.Ticks-1 {
		return math.NaN()
	}
	at := p.Changes[0].At
	if h.lastBad < at {
		return 0
	}
	return float64(h.lastBad+1-at) * p.TickS
}

// collapseSpread is the share of the replicates that were ever unhealthy,
// and the 10th, 50th and 90th percentiles of their times to collapse (the
// smallest value with at least that share of them at or below it); NaN
// quantiles when none collapsed.
func collapseSpread(runs []Metrics) (share, p10, p50, p90 float64) {
	var xs []float64
	for i := range runs {
		if !math.IsNaN(runs[i].CollapseS) {
			xs = append(xs, runs[i].CollapseS)
		}
	}
	if len(runs) > 0 {
		share = float64(len(xs)) / float64(len(runs))
	}
	if len(xs) == 0 {
		return share, math.NaN(), math.NaN(), math.NaN()
	}
	slices.Sort(xs)
	return share, stat.Quantile(0.1, stat.Empirical, xs, nil), stat.Quantile(0.5, stat.Empirical, xs, nil), stat.Quantile(0.9, stat.Empirical, xs, nil)
}

// turningLoads are, under a load shape, the loads offered at the run's
// first unhealthy tick (where it tipped) and at the tick it turned healthy
// for good after being unhealthy (where it came back); NaN for a load that
// does not change, or a turn that did not happen.
func (h *health) turningLoads(p *Plan) (tip, back float64) {
	tip, back = math.NaN(), math.NaN()
	if len(p.Shape) == 0 {
		return tip, back
	}
	if h.firstBad >= 0 {
		tip = p.LoadAt(h.firstBad)
	}
	if h.lastBad >= 0 && h.lastBad < p.Ticks-1 {
		back = p.LoadAt(h.lastBad + 1)
	}
	return tip, back
}
