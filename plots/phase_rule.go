package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// This file draws the rule of thumb for naive retries over a phase diagram
// (and a regions figure): blip ≈ capacity × timeout / load, the time a
// fault takes to build the backlog of a healthy dependency.

// ruleCurve is the rule of thumb over a panel's x range: the blip length
// at which naive retries tip the system, the time a fault takes to build
// the backlog of a healthy dependency, as each row's facts state it
// (Facts.RuleOfThumb). rows[i] is a row of column i; with xIsLoad the load
// is the x value (sampled finely across each column), else the row's own
// load.
func ruleCurve(rows []*Row, xs, xe []float64, xIsLoad bool) plotter.XYs {
	var out plotter.XYs
	for i, c := range rows {
		if c == nil {
			continue
		}
		if !xIsLoad {
			y, _ := c.Facts.rule(c.Facts.Load)
			out = append(out, plotter.XY{X: xs[i], Y: y})
			continue
		}
		const steps = 16
		for k := 0; k <= steps; k++ {
			if k == 0 && i > 0 {
				continue // the previous column ended here
			}
			x := xe[i] + (xe[i+1]-xe[i])*float64(k)/steps
			if y, ok := c.Facts.rule(x); ok {
				out = append(out, plotter.XY{X: x, Y: y})
			}
		}
	}
	return out
}

// ruleValues is the rule of thumb at the rows' own loads: the x value
// where it is the load, else the load of rows[i], the row of column i.
func ruleValues(rows []*Row, xs []float64, xIsLoad bool) []float64 {
	var out []float64
	for i, c := range rows {
		load := xs[i]
		if c == nil {
			continue
		}
		if !xIsLoad {
			load = c.Facts.Load
		}
		if y, ok := c.Facts.rule(load); ok && !math.IsInf(y, 0) {
			out = append(out, y)
		}
	}
	return out
}

// placeCurve maps a curve drawn in the axes' units to plot coordinates
// through the axes' placements, dropping points that have no place (an
// infinite blip where a cell's load is 0); nil when no point is left.
func placeCurve(c plotter.XYs, xp, yp placement) plotter.XYs {
	var out plotter.XYs
	for _, p := range c {
		x, y := xp.at(p.X), yp.at(p.Y)
		if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
			continue
		}
		out = append(out, plotter.XY{X: x, Y: y})
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// ruleLines draws the rule of thumb: a dashed black line on a white halo,
// visible over any cell colour.
func ruleLines(xys plotter.XYs) (halo, dashed *plotter.Line) {
	halo = &plotter.Line{XYs: xys, LineStyle: draw.LineStyle{Color: color.White, Width: vg.Points(6)}}
	dashed = &plotter.Line{XYs: xys, LineStyle: draw.LineStyle{
		Color: color.Black, Width: vg.Points(lineWidth),
		Dashes: []vg.Length{vg.Points(7), vg.Points(4)},
	}}
	return halo, dashed
}

// overlay draws a plotter without letting it pad the plot for its line
// width, which would shift one panel's axes against its neighbours'.
type overlay struct{ plot.Plotter }
