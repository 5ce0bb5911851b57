package plots

import (
	"math"

	"gonum.org/v1/plot"
)

// yScale is the y axis of a regions figure, in the key's unit.
type yScale struct {
	lo, hi float64
	log    bool
	cut    bool // hi is below the range's severe end
}

// niceFloor rounds x > 0 down to 1, 2 or 5 times a power of ten.
func niceFloor(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{5, 2, 1} {
		if m*p <= x {
			return m * p
		}
	}
	return p
}

// below is the value a share frac of the axis's height below its top.
func (y yScale) below(frac float64) float64 {
	if y.log {
		return y.hi / math.Pow(y.hi/y.lo, frac)
	}
	return y.hi - frac*(y.hi-y.lo)
}

// clamp keeps a value within the axis.
func (y yScale) clamp(v float64) float64 { return math.Max(y.lo, math.Min(y.hi, v)) }

// apply sets a panel's y axis.
func (y yScale) apply(pl *plot.Plot) {
	if !y.log {
		return
	}
	pl.Y.Scale = plot.LogScale{}
	pl.Y.Tick.Marker = logTicks{}
}

// logTicks mark 1, 2 and 5 times the powers of ten on a log axis and label
// the powers of ten, which never crowd one another as linear positions
// would suggest.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); math.Pow(10, e) <= hi*1.0001; e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v >= lo*0.9999 && v <= hi*1.0001 {
				t := plot.Tick{Value: v}
				if m == 1 {
					t.Label = formatNum(v)
				}
				ticks = append(ticks, t)
			}
		}
	}
	return ticks
}
