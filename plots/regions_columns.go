package plots

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The colours of the regions figure: what the system does at a value of the
// key.
func recoversColour() color.Color   { return color.RGBA{R: 0xc7, G: 0xe9, B: 0xb4, A: 0xff} }
func tipsColour() color.Color       { return color.RGBA{R: 0xf4, G: 0xa5, B: 0x82, A: 0xff} }
func overloadedColour() color.Color { return color.RGBA{R: 0x73, G: 0x73, B: 0x73, A: 0xff} }
func unclearColour() color.Color    { return color.RGBA{R: 0xc2, G: 0xa5, B: 0xcf, A: 0xff} }
func drainingColour() color.Color   { return color.RGBA{R: 0xfe, G: 0xe0, B: 0x8b, A: 0xff} }

// segment is a stretch of the key, in its unit, filled in one colour.
type segment struct {
	lo, hi float64
	fill   color.Color
}

// columnsPlot fills each column of a regions figure with its segments.
type columnsPlot struct {
	xe     []float64   // column edges, in plot coordinates
	cols   [][]segment // per column, in the key's unit
	lo, hi float64
}

// Plot implements plot.Plotter.
func (cp *columnsPlot) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	const overlap = 0.6 // hides antialiasing seams between columns
	for i, segs := range cp.cols {
		x0, x1 := trX(cp.xe[i]), trX(cp.xe[i+1])
		if i+2 < len(cp.xe) {
			x1 += overlap
		}
		if segs == nil {
			fillRect(c, vg.Rectangle{Min: vg.Point{X: x0, Y: trY(cp.lo)}, Max: vg.Point{X: x1, Y: trY(cp.hi)}}, abortedColour())
		}
		for _, s := range segs {
			if s.hi <= s.lo {
				continue
			}
			y1 := trY(s.hi)
			if s.hi < cp.hi {
				y1 += overlap // no seam with the segment above
			}
			fillRect(c, vg.Rectangle{Min: vg.Point{X: x0, Y: trY(s.lo)}, Max: vg.Point{X: x1, Y: y1}}, s.fill)
		}
	}
	// Thin white lines between columns: each is a search of its own.
	ls := draw.LineStyle{Color: color.White, Width: vg.Points(1)}
	for i := 1; i+1 < len(cp.xe); i++ {
		x := trX(cp.xe[i])
		c.StrokeLine2(ls, x, trY(cp.lo), x, trY(cp.hi))
	}
}

// DataRange implements plot.DataRanger.
func (cp *columnsPlot) DataRange() (xmin, xmax, ymin, ymax float64) {
	return cp.xe[0], cp.xe[len(cp.xe)-1], cp.lo, cp.hi
}

// interval is the 95% interval of one boundary estimate.
type interval struct{ x, lo, hi float64 }

// intervalsPlot draws intervals as error bars.
type intervalsPlot struct{ bars []interval }

// Plot implements plot.Plotter.
func (b *intervalsPlot) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, br := range b.bars {
		whisker(c, trX(br.x), trY(br.lo), trY(br.hi), vg.Points(5), true)
	}
}

// boundaryStyles are the searched boundary's line and points.
func boundaryStyles() (draw.LineStyle, draw.GlyphStyle) {
	return draw.LineStyle{Color: color.Black, Width: vg.Points(lineWidth)},
		draw.GlyphStyle{Color: color.Black, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
}
