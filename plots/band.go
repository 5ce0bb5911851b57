package plots

import (
	"image/color"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/stormlab/stormlab/model"
)

// This file holds what figures of replicated cells share: a shaded band
// between the 10th and the 90th percentile of the replicates, drawn under
// the line of their mean.

// band is the area between two curves with the same x values.
type band struct {
	lo, hi plotter.XYs
	fill   color.Color
}

// bandFill is a line colour made light enough to shade behind lines.
func bandFill(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	const a = 0x48
	// Premultiplied: each channel scaled by the alpha.
	return color.RGBA{R: uint8(r >> 8 * a / 0xff), G: uint8(g >> 8 * a / 0xff), B: uint8(b >> 8 * a / 0xff), A: a}
}

// Plot implements plot.Plotter: the polygon along hi, then back along lo.
func (b *band) Plot(c draw.Canvas, p *plot.Plot) {
	if len(b.lo) < 2 {
		return
	}
	trX, trY := p.Transforms(&c)
	pts := make([]vg.Point, 0, 2*len(b.lo))
	for _, q := range b.hi {
		pts = append(pts, vg.Point{X: trX(q.X), Y: trY(q.Y)})
	}
	for i := len(b.lo) - 1; i >= 0; i-- {
		pts = append(pts, vg.Point{X: trX(b.lo[i].X), Y: trY(b.lo[i].Y)})
	}
	c.FillPolygon(b.fill, c.ClipPolygonXY(pts))
}

// seriesBand is one cell's mean over its replicates and their band, per
// second, for a series column; per is 1 for a level and the bin width for a
// count drawn as a rate.
func seriesBand(b *model.SeriesBand, column string, rate bool) (mean, lo, hi plotter.XYs, ok bool) {
	m, p10, p90, ok := b.Column(column)
	if !ok {
		return nil, nil, nil, false
	}
	per := 1.0
	if rate {
		per = b.Step
	}
	mean, lo, hi = make(plotter.XYs, len(m)), make(plotter.XYs, len(m)), make(plotter.XYs, len(m))
	for j := range m {
		mean[j] = plotter.XY{X: b.T[j], Y: m[j] / per}
		lo[j] = plotter.XY{X: b.T[j], Y: p10[j] / per}
		hi[j] = plotter.XY{X: b.T[j], Y: p90[j] / per}
	}
	return mean, lo, hi, true
}

// bandEntry is the legend's line for the bands of n replicates.
func bandEntry() entry {
	return entry{text: "10th–90th percentile of the replicates", thumbs: []plot.Thumbnailer{swatch{bandFill(color.Gray{Y: 0x40})}}}
}

// addBands adds the bands to a plot, on its y scale, within the x range.
func addBands(p *plot.Plot, bands []band, y yAxis, xr [2]float64) {
	for _, b := range bands {
		p.Add(&band{lo: y.xys(clip(b.lo, xr)), hi: y.xys(clip(b.hi, xr)), fill: b.fill})
	}
}

// bandTops are the upper edges of the bands, for fitting a scale.
func bandTops(bands []band) []plotter.XYs {
	out := make([]plotter.XYs, len(bands))
	for i, b := range bands {
		out[i] = b.hi
	}
	return out
}

// peak is the largest y of a curve.
func peak(xys plotter.XYs) float64 {
	m := 0.0
	for _, q := range xys {
		m = max(m, q.Y)
	}
	return m
}

// bandCaption says what the lines and bands of replicated cells are: "Lines:
// the mean of 20 replicates per cell; bands: their 10th–90th percentile."
func bandCaption(rows []Row, idx []int) string {
	var ns []choice
	for _, i := range idx {
		if b := rows[i].Result.Band; b != nil {
			ns = append(ns, choice{float64(b.Replicates), strconv.Itoa(b.Replicates)})
		}
	}
	return "Lines: the mean of " + choices(ns) + " replicates per cell; bands: their 10th–90th percentile, second by second."
}
