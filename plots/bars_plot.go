package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// barsPlot draws one panel's bars, their error bars and value labels.
type barsPlot struct {
	bars   []bar
	lines  int       // bars per category
	group  float64   // share of a category the bars fill
	neverY float64   // the top of a bar without a value
	labels labelMode // value labels, if shown
}

// Plot implements plot.Plotter.
func (bp *barsPlot) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	base := trY(math.Max(0, p.Y.Min))
	slot := bp.group / float64(bp.lines)
	w := slot
	if bp.lines > 1 {
		w *= barFill
	}
	sty := bp.labels.style()
	for _, b := range bp.bars {
		x := float64(b.cat) + (float64(b.line)-float64(bp.lines-1)/2)*slot
		x0, x1 := trX(x-w/2), trX(x+w/2)
		var top vg.Length
		labelSty := sty
		if math.IsNaN(b.v) {
			r := vg.Rectangle{Min: vg.Point{X: x0, Y: base}, Max: vg.Point{X: x1, Y: trY(bp.neverY)}}
			fill := color.Color(color.White) // as in the legend
			if bp.lines > 1 {
				fill = tint(lineColour(b.line)) // which line it is
			}
			neverBar(c, r, fill, hatchColour(b.state))
			top = r.Max.Y
			labelSty.Color = hatchColour(b.state)
			if !bp.labels.never {
				continue // the band says it
			}
		} else {
			y := trY(b.v)
			fillRect(c, vg.Rectangle{Min: vg.Point{X: x0, Y: min(base, y)}, Max: vg.Point{X: x1, Y: max(base, y)}}, lineColour(b.line))
			top = max(base, y)
			if !math.IsNaN(b.sd) {
				lo, hi := b.v-b.sd, b.v+b.sd
				y0, y1 := trY(math.Max(lo, p.Y.Min)), trY(hi)
				whisker(c, (x0+x1)/2, y0, y1, min(0.3*(x1-x0), 0.08*vg.Inch), lo >= p.Y.Min)
				top = max(top, y1)
			}
		}
		if bp.labels.show {
			c.FillText(labelSty, vg.Point{X: (x0 + x1) / 2, Y: top + vg.Points(labelPad)}, bp.labels.text(b))
		}
	}
}

// neverBar draws a bar without a value: filled with a light tint of its
// line's colour, hatched and outlined in the colour of how its run ended.
func neverBar(c draw.Canvas, r vg.Rectangle, fill, hatch color.Color) {
	fillRect(c, r, fill)
	ls := draw.LineStyle{Color: hatch, Width: vg.Points(1.2)}
	// 45° lines x - y = t, every step, clipped to r.
	step := 0.07 * vg.Inch
	w, h := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
	for t := -h + step/2; t < w; t += step {
		u0, u1 := max(0, -t), min(h, w-t) // along the line, from the bottom left
		if u1 > u0 {
			c.StrokeLine2(ls, r.Min.X+t+u0, r.Min.Y+u0, r.Min.X+t+u1, r.Min.Y+u1)
		}
	}
	c.StrokeLines(ls, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min})
}

// whisker draws an error bar at x from y0 up to y1, with a cap half wide
// at the top and, unless the bar was cut off at the axis, at the bottom.
func whisker(c draw.Canvas, x, y0, y1, half vg.Length, bottomCap bool) {
	ls := draw.LineStyle{Color: color.Gray{Y: 0x10}, Width: vg.Points(1.5)}
	c.StrokeLine2(ls, x, y0, x, y1)
	c.StrokeLine2(ls, x-half, y1, x+half, y1)
	if bottomCap {
		c.StrokeLine2(ls, x-half, y0, x+half, y0)
	}
}

// tint is a light version of col, for the fill of a bar without a value.
func tint(col color.Color) color.Color {
	r, g, b, _ := col.RGBA()
	mix := func(v uint32) uint8 { return uint8(0xff - (0xff-v>>8)*30/100) }
	return color.RGBA{R: mix(r), G: mix(g), B: mix(b), A: 0xff}
}

// DataRange implements plot.DataRanger; the axes are set explicitly.
func (bp *barsPlot) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, 0, 0, 0
}

// hatchThumb is the legend thumbnail of a bar without a value.
type hatchThumb struct{ hatch color.Color }

// Thumbnail implements plot.Thumbnailer.
func (h hatchThumb) Thumbnail(c *draw.Canvas) { neverBar(*c, c.Rectangle, color.White, h.hatch) }

// hatchColour is the hatch of a bar without a value: its state's colour,
// the stuck red for a metric other than recovery (no value at all); a
// darker orange and pink than the phase diagrams' fills, to read as lines.
func hatchColour(cs cellState) color.Color {
	switch cs {
	case drainingCell:
		return color.RGBA{R: 0xe6, G: 0x55, B: 0x0d, A: 0xff}
	case notJudgedCell:
		return color.RGBA{R: 0xc5, G: 0x1b, B: 0x7d, A: 0xff}
	}
	return stuckColour()
}

// whiskerThumb is the legend thumbnail of an error bar: a whisker lying
// on its side, which fits the wide, low thumbnail.
type whiskerThumb struct{}

// Thumbnail implements plot.Thumbnailer.
func (whiskerThumb) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	ls := draw.LineStyle{Color: color.Gray{Y: 0x10}, Width: vg.Points(1.5)}
	y, half := (r.Min.Y+r.Max.Y)/2, (r.Max.Y-r.Min.Y)/2
	x0, x1 := r.Min.X+0.05*vg.Inch, r.Max.X-0.05*vg.Inch
	c.StrokeLine2(ls, x0, y, x1, y)
	c.StrokeLine2(ls, x0, y-half, x0, y+half)
	c.StrokeLine2(ls, x1, y-half, x1, y+half)
}
