package plots

import (
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/stormlab/stormlab/experiments/spec"
)

// This file lays a bars figure out: how the value labels and the category
// names fit, the y range shared by the panels, and the panels themselves.

// labelMode is how value labels fit over the bars.
type labelMode struct {
	show    bool      // few enough bars to label
	size    vg.Length // type size in points
	short   bool      // compact numbers
	upright bool      // rotated a quarter turn, reading upwards
	never   bool      // bars without a value are labelled too (when it fits across)
}

// style is the text style of a value label.
func (lm labelMode) style() text.Style {
	sty := textStyle(lm.size)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YBottom
	if lm.upright {
		sty.Rotation = math.Pi / 2
		sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	}
	return sty
}

// text is a bar's label in this mode.
func (lm labelMode) text(b bar) string {
	if lm.short {
		return b.short
	}
	return b.label
}

// room is the height a label takes above its bar.
func (lm labelMode) room(ch *barChart) vg.Length {
	if !lm.show {
		return 0
	}
	sty := lm.style()
	if !lm.upright {
		return sty.Height("0") + vg.Points(labelPad)
	}
	var w vg.Length
	for _, p := range ch.panels {
		for _, b := range p {
			if !math.IsNaN(b.v) {
				w = max(w, sty.Width(lm.text(b)))
			}
		}
	}
	return w + vg.Points(labelPad)
}

// labelModeFor chooses how the value labels fit bars slot wide (a bar and
// its gap): as written at 11 pt, compact, compact at 10 and 9 pt, and
// failing all that upright. More than maxLabelled bars in a panel get none.
// Bars without a value are labelled only when the word fits across them
// (a column of upright "never"s is noise; the band says it).
func (ch *barChart) labelModeFor(slot vg.Length) labelMode {
	for _, p := range ch.panels {
		if len(p) > maxLabelled {
			return labelMode{}
		}
	}
	fits := func(lm labelMode) bool {
		sty := lm.style()
		for _, p := range ch.panels {
			for _, b := range p {
				if !math.IsNaN(b.v) && sty.Width(lm.text(b)) > slack*slot {
					return false
				}
			}
		}
		return true
	}
	for _, lm := range []labelMode{
		{show: true, size: valueSize},
		{show: true, size: valueSize, short: true},
		{show: true, size: valueSize - 1, short: true},
		{show: true, size: valueSize - 2, short: true},
	} {
		if fits(lm) {
			lm.never = lm.style().Width(ch.neverWord()) <= slack*slot
			return lm
		}
	}
	return labelMode{show: true, size: valueSize - 1, short: true, upright: true}
}

// categoryTicks labels the categories at 0, 1, …: each name wrapped to a
// category's width, at the largest type size (11, 10 or 9 pt) at which
// every name fits on maxLabelLines lines; failing that, on one line
// rising by 30° to its category. It returns the ticks, the tick label style and the number of
// lines.
func categoryTicks(o axisOrder, width vg.Length) (plot.ConstantTicks, text.Style, int) {
	names := make([]string, len(o.values))
	for i, v := range o.values {
		names[i] = v.Text
	}
	for size := vg.Length(tickSize); size >= tickSize-2; size-- {
		sty := textStyle(size)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		var ticks plot.ConstantTicks
		most := 0
		for i, name := range names {
			lines := wrap(sty, name, slack*width)
			for _, l := range lines {
				if sty.Width(l) > slack*width {
					lines = nil // a word wider than the category
					break
				}
			}
			if lines == nil || len(lines) > maxLabelLines {
				ticks = nil
				break
			}
			most = max(most, len(lines))
			ticks = append(ticks, plot.Tick{Value: float64(i), Label: strings.Join(lines, "\n")})
		}
		if ticks != nil {
			return ticks, sty, most
		}
	}
	sty := textStyle(tickSize - 1)
	sty.Rotation = math.Pi / 6
	sty.XAlign, sty.YAlign = draw.XRight, draw.YTop
	ticks := make(plot.ConstantTicks, len(names))
	for i, name := range names {
		ticks[i] = plot.Tick{Value: float64(i), Label: name}
	}
	return ticks, sty, 1
}

// barRange is the y range of the bars, shared by all panels: from 0 (or
// the least value) to a round number above the highest bar or error bar
// with room for a label of height room in a data area dataH high; when
// some bar has no value, a band above for it, which such bars reach at
// neverY.
type barRange struct {
	lo, hi       float64 // the scale of values
	bandLo       float64 // where the band starts, when there is one
	neverY, ymax float64 // a bar without a value reaches neverY; the axis ends at ymax
}

// newBarRange fits the y range around the bars.
func (ch *barChart) newBarRange(room, dataH vg.Length) barRange {
	lo, hi := 0.0, math.Inf(-1)
	for _, p := range ch.panels {
		for _, b := range p {
			if math.IsNaN(b.v) {
				continue
			}
			top := b.v
			if !math.IsNaN(b.sd) {
				top += b.sd
			}
			lo, hi = math.Min(lo, b.v), math.Max(hi, top)
		}
	}
	if !(hi > lo) {
		hi = lo + 1
	}
	frac := math.Min(0.3, float64(room/dataH)) + 0.01 // of the axis, for labels
	const bandGap, stub = 0.03, 0.07                  // of the axis: below the band, and a never bar's top inside it
	band := 0.0
	if ch.never {
		band = bandGap + stub + frac
	}
	// The label above the highest bar fits below yhi: (yhi-hi) ≥ frac × span,
	// where the span (ymax-lo) is (yhi-lo) / (1-band).
	g := frac / (1 - band)
	yhi := niceCeil(lo + (hi-lo)/(1-g))
	r := barRange{lo: lo, hi: yhi, ymax: yhi}
	if ch.never {
		span := (yhi - lo) / (1 - band)
		r.bandLo = yhi + bandGap*span
		r.neverY = r.bandLo + stub*span
		r.ymax = lo + span
	}
	return r
}

// barLayout is how a bars figure's panels share the canvas, and what that
// leaves each: rows × cols tiles, a category's width, the category names'
// ticks and the estimated height of a panel's data area.
type barLayout struct {
	rows, cols int
	catW       vg.Length
	ticks      plot.ConstantTicks
	tickSty    text.Style
	dataH      vg.Length
}

// layout estimates a panel's data area in rows × cols tiles of c: its
// tile less the y axis, the panel title and the x axis; it sizes the
// category names and the value labels.
func (ch *barChart) layout(f *spec.Figure, c draw.Canvas, rows, cols int) barLayout {
	l := barLayout{rows: rows, cols: cols}
	tile := panelTiles(rows, cols).At(c, 0, 0)
	l.catW = (tile.Max.X - tile.Min.X - 1.0*vg.Inch) / vg.Length(len(ch.xo.values))
	var lines int
	l.ticks, l.tickSty, lines = categoryTicks(ch.xo, l.catW)
	xAxisH := l.tickSty.Height("Xg") * vg.Length(lines)
	if l.tickSty.Rotation != 0 {
		for _, t := range l.ticks {
			r := l.tickSty.Rectangle(t.Label)
			xAxisH = max(xAxisH, r.Max.Y-r.Min.Y)
		}
	}
	xAxisH += textStyle(labelSize).Height("Xg") + 0.3*vg.Inch
	l.dataH = tile.Max.Y - tile.Min.Y - xAxisH
	if f.Panel != "" {
		l.dataH -= textStyle(panelSize).Height("Xg") + 0.1*vg.Inch
	}
	return l
}

// panelPlots builds one plot per panel for the canvas c the panels will be
// tiled in, and returns them with the tiling.
func (ch *barChart) panelPlots(t *Table, f *spec.Figure, c draw.Canvas) ([]*plot.Plot, int, int) {
	nx, nl := len(ch.xo.values), len(ch.lo.values)
	rows, cols := tiling(len(ch.panels))
	lay := ch.layout(f, c, rows, cols)
	catW, ticks, tickSty, dataH := lay.catW, lay.ticks, lay.tickSty, lay.dataH
	group := groupWidth
	if nl == 1 {
		group = singleWidth
	}
	lm := ch.labelModeFor(catW * vg.Length(group/float64(nl)))
	yr := ch.newBarRange(lm.room(ch), max(dataH, 0.5*vg.Inch))

	var out []*plot.Plot
	for p, bs := range ch.panels {
		pl := newPlot()
		if f.Panel != "" {
			pl.Title.Text = valueLabel(f.Panel, ch.po.values[p])
		}
		if p/lay.cols == lay.rows-1 {
			pl.X.Label.Text = t.axisLabel(f.X)
		}
		if p%lay.cols == 0 {
			pl.Y.Label.Text = metricLabel(ch.m)
		}
		pl.X.Tick.Marker = ticks
		pl.X.Tick.Label = tickSty
		pl.X.Tick.Length = 0
		if tickSty.Rotation != 0 {
			// Tick marks show which category a sloping name ends at, and
			// their length keeps a wider SVG fallback font off the axis.
			pl.X.Tick.Length = 0.1 * vg.Inch
		}
		pl.X.Padding, pl.Y.Padding = 0, 0
		grid := plotter.NewGrid()
		grid.Vertical.Color = nil
		if ch.never {
			pl.Add(&hband{lo: yr.bandLo, hi: yr.ymax, fill: bandColour()})
			pl.Y.Tick.Marker = bandTicks{top: yr.hi, band: yr.neverY, label: ch.neverWord()}
		}
		if shareMetric(ch.m) && yr.hi > 1 {
			pl.Y.Tick.Marker = upTo{Ticker: pl.Y.Tick.Marker, max: 1}
		}
		pl.Add(grid, &barsPlot{bars: bs, lines: nl, group: group, neverY: yr.neverY, labels: lm})
		pl.X.Min, pl.X.Max = -0.5, float64(nx)-0.5
		pl.Y.Min, pl.Y.Max = yr.lo, yr.ymax
		out = append(out, pl)
	}
	return out, lay.rows, lay.cols
}
