package model

// peakRate keeps the most calls the dependency received in one bin of the
// run's series (one second, or one tick when ticks are longer), so that the
// peak load (Metrics.PeakLoadX) is a rate per second whatever the tick: at
// 10 ms ticks one busy tick of 5 calls is not a rate of 500 a second.
type peakRate struct {
	binTicks int64
	bin      int64 // the bin being filled
	binEnd   int64 // its end: (bin+1)·binTicks
	n        int64 // calls in it so far
	peak     int64 // the most calls in any bin so far
}

func newPeakRate(p *Plan) peakRate {
	bt := p.seriesBinTicks()
	return peakRate{binTicks: bt, binEnd: bt}
}

// tick counts k calls in tick t: add for one tick, without a division
// while t is in the bin being filled.
func (r *peakRate) tick(t, k int64) {
	if t >= r.binEnd || t < r.binEnd-r.binTicks {
		r.add(t, t+1, k)
		return
	}
	r.n += k
	r.peak = max(r.peak, r.n)
}

// add counts perTick calls in each of ticks a..b−1.
func (r *peakRate) add(a, b, perTick int64) {
	for a < b {
		if bin := a / r.binTicks; bin != r.bin {
			r.bin, r.n = bin, 0
			r.binEnd = (bin + 1) * r.binTicks
		}
		end := min(b, r.binEnd)
		r.n += (end - a) * perTick
		r.peak = max(r.peak, r.n)
		a = end
	}
}

// perSecond is the peak as calls per second of its bin.
func (r *peakRate) perSecond(tickS float64) float64 {
	return float64(r.peak) / (float64(r.binTicks) * tickS)
}
