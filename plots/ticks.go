package plots

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// This file holds the tickers of the figures' axes: round numbers, an
// axis's own values, powers of ten, and labels thinned so they never touch.

// niceTicks labels round numbers, about five of them, with k and M suffixes
// for large ones.
type niceTicks struct{}

// Ticks implements plot.Ticker.
func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: formatNum(lo)}}
	}
	step := niceStep((hi - lo) / 5)
	var ticks []plot.Tick
	for v := math.Ceil(lo/step-1e-9) * step; v <= hi+step*1e-9; v += step {
		v = math.Round(v/step) * step // no accumulated error in the labels
		ticks = append(ticks, plot.Tick{Value: v, Label: formatNum(v)})
	}
	// Unlabelled minor ticks halfway.
	for i, n := 0, len(ticks); i <= n; i++ {
		var m float64
		if i < n {
			m = ticks[i].Value - step/2
		} else {
			m = ticks[n-1].Value + step/2
		}
		if m >= lo && m <= hi {
			ticks = append(ticks, plot.Tick{Value: m})
		}
	}
	return ticks
}

// axisTicks are ticks at given values, such as an axis's own values; unlike
// plot.ConstantTicks (which the bars' category names use), drawTiled thins
// their labels when they would overlap.
type axisTicks []plot.Tick

// Ticks implements plot.Ticker.
func (t axisTicks) Ticks(_, _ float64) []plot.Tick { return t }

// upTo drops a ticker's ticks above max: a share's axis may run past 1 to
// make room for labels, but has no values there.
type upTo struct {
	plot.Ticker
	max float64
}

// Ticks implements plot.Ticker.
func (u upTo) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range u.Ticker.Ticks(lo, hi) {
		if t.Value <= u.max+1e-9 {
			out = append(out, t)
		}
	}
	return out
}

// fitTicks keeps the labels of a ticker from touching along an axis of
// the given length. When neighbouring labels would come closer than
// tickGap, an x axis that may stagger moves every other label down a line
// if that leaves room (an axis placed by index cannot be read between its
// labels, so it keeps them all where it can); otherwise fitTicks keeps
// every k-th label (the first, then every k-th after it, for the smallest
// k that leaves room) and leaves the others as unlabelled ticks.
type fitTicks struct {
	plot.Ticker
	sty      text.Style // the tick labels' style
	length   vg.Length  // the data area's length along the axis
	vertical bool       // a y axis: labels stack by their height, not their width
	stagger  bool       // labels may alternate between two lines
}

// tickGap is the least space between two tick labels.
const tickGap = 0.08 * vg.Inch

// Ticks implements plot.Ticker.
func (f fitTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := f.Ticker.Ticks(lo, hi)
	if !(hi > lo) || f.length <= 0 {
		return ticks
	}
	var labelled []int // the labelled ticks within the axis, by value
	for i, t := range ticks {
		if t.Label != "" && t.Value >= lo && t.Value <= hi {
			labelled = append(labelled, i)
		}
	}
	sort.SliceStable(labelled, func(a, b int) bool { return ticks[labelled[a]].Value < ticks[labelled[b]].Value })
	pos := func(t plot.Tick) vg.Length { return vg.Length((t.Value-lo)/(hi-lo)) * f.length }
	size := func(t plot.Tick) vg.Length {
		if f.vertical {
			return f.sty.Height(t.Label)
		}
		return f.sty.Width(t.Label)
	}
	fits := func(k int) bool {
		for j := k; j < len(labelled); j += k {
			a, b := ticks[labelled[j-k]], ticks[labelled[j]]
			if pos(b)-pos(a) < (size(a)+size(b))/2+tickGap {
				return false
			}
		}
		return true
	}
	if fits(1) {
		return ticks
	}
	out := slices.Clone(ticks)
	if f.stagger && !f.vertical && fits(2) {
		for n, i := range labelled {
			if n%2 == 1 {
				out[i].Label = "\n" + out[i].Label
			}
		}
		return out
	}
	k := 2
	for k < len(labelled) && !fits(k) {
		k++
	}
	for n, i := range labelled {
		if n%k != 0 {
			out[i].Label = ""
		}
	}
	return out
}

// unlabelled marks an axis's ticks without writing their values, for a
// panel that shares its axis with a neighbour that writes them.
type unlabelled struct{ plot.Ticker }

// Ticks implements plot.Ticker.
func (u unlabelled) Ticks(lo, hi float64) []plot.Tick {
	ticks := u.Ticker.Ticks(lo, hi)
	for i := range ticks {
		ticks[i].Label = ""
	}
	return ticks
}

// fitAxis makes an axis's tick labels fit its data area length, for the
// tickers whose labels may be thinned (not the bars' category names, which
// wrap to fit), and reports whether it changed the ticker.
func fitAxis(a *plot.Axis, length vg.Length, vertical bool) bool {
	m := a.Tick.Marker
	if f, ok := m.(fitTicks); ok {
		m = f.Ticker
	}
	switch m.(type) {
	case niceTicks, bandTicks, expTicks, upTo:
		a.Tick.Marker = fitTicks{Ticker: m, sty: a.Tick.Label, length: length, vertical: vertical}
		return true
	case axisTicks:
		a.Tick.Marker = fitTicks{Ticker: m, sty: a.Tick.Label, length: length, vertical: vertical, stagger: true}
		return true
	}
	return false
}

// niceStep is the smallest of 1, 2, 2.5, 5 × 10^k that is at least x.
func niceStep(x float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= x*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// expTicks labels an axis that shows log10 of the values: the powers of
// ten, with minor ticks at their multiples. With floored set, the bottom of
// the axis also stands for every smaller value and is labelled "≤".
type expTicks struct{ floored bool }

// Ticks implements plot.Ticker.
func (t expTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for e := math.Floor(lo); e <= math.Ceil(hi); e++ {
		if e >= lo-1e-9 && e <= hi+1e-9 {
			label := formatNum(math.Pow(10, e))
			if t.floored && e <= lo+1e-9 {
				label = "≤" + label
			}
			ticks = append(ticks, plot.Tick{Value: e, Label: label})
		}
		for m := 2.0; m < 10; m++ {
			if v := e + math.Log10(m); v >= lo && v <= hi {
				ticks = append(ticks, plot.Tick{Value: v})
			}
		}
	}
	return ticks
}

// formatNum writes a tick value: 0.25, 40, 1,500, 20k, 6M, 1e+12.
func formatNum(v float64) string {
	a := math.Abs(v)
	switch {
	case v == 0:
		return "0"
	case a >= 1e9:
		return strconv.FormatFloat(v, 'g', 3, 64)
	case a >= 1e6:
		return strconv.FormatFloat(round(v/1e6, 3), 'f', -1, 64) + "M"
	case a >= 1e4:
		return strconv.FormatFloat(round(v/1e3, 3), 'f', -1, 64) + "k"
	case a >= 1000:
		s := strconv.FormatFloat(round(v, 6), 'f', -1, 64)
		if i := strings.IndexByte(s, '.'); i < 0 && len(s) == 4 {
			return s[:1] + "," + s[1:]
		}
		return s
	}
	return strconv.FormatFloat(round(v, 6), 'g', -1, 64)
}

// round rounds x to d digits after the point.
func round(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}
