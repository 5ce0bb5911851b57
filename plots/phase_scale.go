package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/stormlab/stormlab/model"
)

// This file holds the phase diagram's colours: what a cell is coloured by,
// the colour scale, and the colour bar beside the panels.

// mode is what a phase diagram colours by.
type mode struct {
	label string // colour bar title
	doc   string // for the caption
	share bool   // share of replicates that recovered, 0..1
	// value is a cell's colour value, or instead of one how it ended.
	value func(*model.Result) (float64, cellState)
}

// colourMode colours by the metric, except that recovery over replicates is
// coloured by the share of replicates that recovered. A cell coloured by
// its recovery that did not recover is coloured by how it ended instead
// (stuck, still draining, not judged); so is a cell of replicates none of
// which recovered, and one with no verdict.
func colourMode(m model.Metric, rows []Row) mode {
	replicates := false
	for i := range rows {
		replicates = replicates || rows[i].Result.Replicates > 1
	}
	if replicates && (m.Name == "recovery_s" || m.Name == "recovered" || m.Name == "recovered_share") {
		return mode{
			label: "share of replicates that recovered\n(0 = none, 1 = all)",
			doc:   "the share of seeded replicates that recovered (0 = none, 1 = all)",
			share: true,
			value: func(r *model.Result) (float64, cellState) {
				if r.Verdict == model.Draining && r.RecoveredShare == 0 || !r.Verdict.Judged() {
					return math.NaN(), stateOf(r.Verdict)
				}
				return r.RecoveredShare, valueCell
			},
		}
	}
	md := mode{label: metricLabel(m), doc: metricDoc(m), value: func(r *model.Result) (float64, cellState) { return m.Value(r), valueCell }}
	if m.Name == "recovery_s" {
		md.value = func(r *model.Result) (float64, cellState) {
			switch {
			case !r.Recovered():
				return math.NaN(), stateOf(r.Verdict)
			case math.IsNaN(r.RecoveryS):
				return 0, valueCell // healthy without a fault: nothing to recover from
			}
			return r.RecoveryS, valueCell
		}
	}
	return md
}

// colourScale maps a value to a colour: a sequential palette over its range;
// a cell without a value takes the colour of how it ended.
type colourScale struct {
	cm    palette.ColorMap // over log10 of the values when log
	log   bool             // values below 1 take the colour of 1
	empty bool             // no cell has a value: the bar shows nothing
}

// newScale builds the colour scale for the values of z: shares over 0..1
// from red (none recovered) to blue (all), anything else from light (low)
// to dark (high) over [0 or the least value, the greatest value], on a log
// scale from 1 when the values span more than two orders of magnitude.
func newScale(md mode, z [][][]float64) (colourScale, error) {
	var s colourScale
	if md.share {
		s.cm = palette.Reverse(moreland.SmoothBlueRed())
		s.cm.SetMin(0)
		s.cm.SetMax(1)
		return s, nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range z {
		for _, col := range p {
			for _, v := range col {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
	}
	if lo > hi { // nothing but NaN
		lo, hi, s.empty = 0, 1, true
	}
	if lo >= 0 {
		lo = 0
	}
	if hi <= lo {
		hi = lo + 1
	}
	cm, err := sequential()
	if err != nil {
		return s, err
	}
	s.cm = cm
	hi = niceCeil(hi)
	if s.log = lo >= 0 && hi >= 100*math.Max(1, minPositive(z)); s.log {
		lo, hi = 0, math.Log10(hi)
	}
	cm.SetMin(lo)
	cm.SetMax(hi)
	return s, nil
}

// minPositive is the least value above 0 (+Inf if none).
func minPositive(z [][][]float64) float64 {
	m := math.Inf(1)
	for _, p := range z {
		for _, col := range p {
			for _, v := range col {
				if v > 0 && !math.IsInf(v, 0) {
					m = math.Min(m, v)
				}
			}
		}
	}
	return m
}

// sequential is ColorBrewer's YlGnBu as a continuous map, light to dark.
func sequential() (palette.ColorMap, error) {
	// ColorBrewer's 9-class YlGnBu, darkest first (NewLuminance wants
	// luminance rising), written out so the binary need not build every
	// ColorBrewer palette when it starts.
	dark := []color.Color{
		color.RGBA{0x08, 0x1d, 0x58, 0xff}, color.RGBA{0x25, 0x34, 0x94, 0xff}, color.RGBA{0x22, 0x5e, 0xa8, 0xff},
		color.RGBA{0x1d, 0x91, 0xc0, 0xff}, color.RGBA{0x41, 0xb6, 0xc4, 0xff}, color.RGBA{0x7f, 0xcd, 0xbb, 0xff},
		color.RGBA{0xc7, 0xe9, 0xb4, 0xff}, color.RGBA{0xed, 0xf8, 0xb1, 0xff}, color.RGBA{0xff, 0xff, 0xd9, 0xff},
	}
	cm, err := moreland.NewLuminance(dark)
	if err != nil {
		return nil, err
	}
	return palette.Reverse(cm), nil
}

// niceCeil rounds x up to a round number for the top of a colour bar.
func niceCeil(x float64) float64 {
	if x <= 0 {
		return x
	}
	step := niceStep(x / 5)
	return math.Ceil(x/step-1e-9) * step
}

// colour is the colour of a cell with value v and state cs.
func (s colourScale) colour(v float64, cs cellState) color.Color {
	if cs != valueCell {
		return cs.colour()
	}
	if math.IsNaN(v) {
		return notJudgedColour()
	}
	if s.log {
		v = math.Log10(math.Max(v, 1))
	}
	v = math.Max(s.cm.Min(), math.Min(s.cm.Max(), v))
	c, err := s.cm.At(v)
	if err != nil {
		return stuckColour()
	}
	return c
}

// colourLegend draws the right-hand column of a phase diagram: the colour
// bar under its title, then the other legend entries.
func colourLegend(c draw.Canvas, label string, s colourScale, entries []entry) {
	if s.empty {
		drawLegend(c, "", entries)
		return
	}
	if s.log {
		label += "\nlog scale"
	}
	used := drawLegend(c, label, nil) + 0.06*vg.Inch
	barH := (c.Max.Y - c.Min.Y) * 0.5
	bar := plot.New()
	bar.HideX()
	bar.Y.Tick.Label.Font = sans(tickSize)
	bar.Y.Tick.Marker = niceTicks{}
	if s.log {
		bar.Y.Tick.Marker = expTicks{floored: true}
	}
	bar.Y.Padding = 0
	bar.Add(&colourBar{s.cm})
	bc := draw.Crop(c, 0, 0, 0, -used)
	bc.Min.Y = bc.Max.Y - barH
	bc.Max.X = bc.Min.X + 1.2*vg.Inch
	bar.Draw(bc)
	rest := draw.Crop(c, 0, 0, 0, -used-barH-0.25*vg.Inch)
	drawLegend(rest, "", entries)
}

// colourBar draws a colour map as a vertical bar of thin bands. Unlike
// plotter.ColorBar, which embeds a raster image, it stays vector in SVG, so
// every viewer shows it and it is sharp at any size.
type colourBar struct{ cm palette.ColorMap }

// Plot implements plot.Plotter.
func (b *colourBar) Plot(c draw.Canvas, p *plot.Plot) {
	const bands = 128
	lo, hi := b.cm.Min(), b.cm.Max()
	for i := 0; i < bands; i++ {
		y0 := lo + (hi-lo)*float64(i)/bands
		y1 := lo + (hi-lo)*float64(i+1)/bands
		col, err := b.cm.At((y0 + y1) / 2)
		if err != nil {
			continue
		}
		top := c.Y(p.Y.Norm(y1))
		if i+1 < bands {
			top += 0.3 // overlap the next band: no seams
		}
		fillRect(c, vg.Rectangle{Min: vg.Point{X: c.Min.X, Y: c.Y(p.Y.Norm(y0))}, Max: vg.Point{X: c.Max.X, Y: top}}, col)
	}
}

// DataRange implements plot.DataRanger.
func (b *colourBar) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, 1, b.cm.Min(), b.cm.Max()
}
