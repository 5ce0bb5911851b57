package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// This file holds a series figure's scales: its curves, the y axes (linear,
// or log when cells differ by orders of magnitude) and the time ticks.

// curve is one line of a series figure.
type curve struct {
	xys   plotter.XYs
	style draw.LineStyle
}

// spanText writes a time span for a panel title: "1h", "5 minutes", "90 s".
func spanText(s float64) string {
	switch {
	case s >= 3600 && math.Mod(s, 3600) == 0:
		if s == 3600 {
			return "1 h"
		}
		return fmt.Sprintf("%g h", s/3600)
	case s >= 120 && math.Mod(s, 60) == 0:
		return fmt.Sprintf("%g minutes", s/60)
	}
	return fmt.Sprintf("%g s", s)
}

// spread is the ratio of the largest to the smallest value, each at least 1.
func spread(xs []float64) float64 {
	lo, hi := math.Inf(1), 1.0
	for _, x := range xs {
		lo, hi = math.Min(lo, math.Max(x, 1)), math.Max(hi, x)
	}
	if math.IsInf(lo, 1) {
		return 1
	}
	return hi / lo
}

// curveXYs are the curves' points.
func curveXYs(cs []curve) []plotter.XYs {
	out := make([]plotter.XYs, len(cs))
	for i, c := range cs {
		out[i] = c.xys
	}
	return out
}

// yAxis is a vertical scale: linear from 0, or the log10 of the values
// drawn on a linear axis (so gonum centres the label as usual) from 1, with
// anything below 1 drawn at 1.
type yAxis struct {
	log    bool
	lo, hi float64 // the axis range, in log10 units when log
}

// newYAxis fits a scale to the points.
func newYAxis(log bool, xys ...plotter.XYs) yAxis {
	hi := 1.0
	for _, c := range xys {
		for _, p := range c {
			hi = math.Max(hi, p.Y)
		}
	}
	if log {
		return yAxis{log: true, lo: 0, hi: math.Ceil(math.Log10(hi * 1.05))}
	}
	return yAxis{lo: 0, hi: niceCeil(hi * 1.05)}
}

// xys are the points in axis units.
func (a yAxis) xys(in plotter.XYs) plotter.XYs {
	out := slices.Clone(in)
	if a.log {
		for i := range out {
			out[i].Y = math.Log10(math.Max(out[i].Y, 1))
		}
	}
	return out
}

// apply sets a plot's y range and ticks.
func (a yAxis) apply(p *plot.Plot) {
	p.Y.Min, p.Y.Max = a.lo, a.hi
	if a.log {
		p.Y.Tick.Marker = expTicks{floored: true}
	}
}

// flatten drops the points inside runs of equal y, which change nothing
// drawn but keep an hour of flat series out of the SVG.
func flatten(xys plotter.XYs) plotter.XYs {
	var out plotter.XYs
	for i, p := range xys {
		if i > 0 && i+1 < len(xys) && xys[i-1].Y == p.Y && xys[i+1].Y == p.Y {
			continue
		}
		out = append(out, p)
	}
	return out
}

// clip keeps the points within the x range and one on either side.
func clip(xys plotter.XYs, xr [2]float64) plotter.XYs {
	i := 0
	for i+1 < len(xys) && xys[i+1].X <= xr[0] {
		i++
	}
	j := len(xys)
	for j-1 > i && xys[j-2].X >= xr[1] {
		j--
	}
	return xys[i:j]
}

// vband shades the full height of a plot between two x values.
type vband struct {
	lo, hi float64
	fill   color.Color
}

// Plot implements plot.Plotter.
func (b *vband) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x0, x1 := max(trX(b.lo), c.Min.X), min(trX(b.hi), c.Max.X)
	if x1 > x0 {
		fillRect(c, vg.Rectangle{Min: vg.Point{X: x0, Y: c.Min.Y}, Max: vg.Point{X: x1, Y: c.Max.Y}}, b.fill)
	}
}

// timeTicks labels seconds at steps that are round in minutes and hours.
type timeTicks struct{}

// Ticks implements plot.Ticker.
func (timeTicks) Ticks(lo, hi float64) []plot.Tick {
	step := 1.0
	for _, s := range []float64{1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1200, 1800, 3600, 7200, 10800, 21600, 43200, 86400} {
		step = s
		if (hi-lo)/s <= 5 {
			break
		}
	}
	var ticks []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi+1e-9; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: formatNum(v)})
	}
	return ticks
}
