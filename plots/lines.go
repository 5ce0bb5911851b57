package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/model"
)

// lines draws a metric against the X axis (numeric), one line per value of
// the Line axis, one panel per value of the Panel axis, over the grid's
// product. Cells without a value (a recovery time that never came) sit in a
// "never" band above the top, each marked with a cross, a row for each
// line when several lines reach it. Its findings (lines_text.go) say, per
// line, at which X values the system recovers.
//
// Uneven X values (the largest gap between neighbours more than
// unevenRatio = 3 times the smallest) are placed by index, evenly spaced
// and labelled with the values as the grid writes them, and the axis and
// the caption say "not to scale"; even ones stay linear.
type lines struct{}

func (lines) defaultName(f *spec.Figure) string { return joinNonEmpty("lines", f.Metric, f.X) }

// linePoint is one cell of a lines figure.
type linePoint struct {
	x, y  float64   // y is NaN when the cell has no value
	state cellState // valueCell when it recovered (in every replicate)
}

// linesFigure is a lines figure laid out: the points per panel and line,
// and the y range with the band at the top for the points without a value.
type linesFigure struct {
	t          *Table
	f          *spec.Figure
	m          model.Metric
	xo, lo, po axisOrder
	xp         placement
	grid       [][][]*linePoint // panel, line, x
	replicates bool
	chain      bool // the rows are the markov engine's solves, which have no verdict to mark
	seen       map[cellState]bool
	// faultless: no row has a fault, so a run unhealthy at its end did not
	// fail to recover from anything.
	faultless bool
	logY      bool
	band      bool // some point has no value: a band at the top
	lanes     int  // lines with a point in the band
	lane      []int
	// The y range: values up to yhi; with a band, it starts at top, its
	// points sit at bandY (or a row of their line's), and the axis ends at
	// ymax.
	ylo, yhi, top, bandY, ymax float64
	step                       float64 // between the band's rows
}

func (lines) draw(t *Table, f *spec.Figure) (figure, error) {
	lf, err := newLinesFigure(t, f)
	if err != nil {
		return figure{}, err
	}
	fs := facts(t.Rows)
	title := lf.title()
	return figure{title: title, caption: caption(fs, lf.caption()), draw: func(c draw.Canvas) { lf.drawOn(c, title, fs) }}, nil
}

// newLinesFigure places the rows and fits the y range around them.
func newLinesFigure(t *Table, f *spec.Figure) (*linesFigure, error) {
	o, err := t.orders(f.X, f.Line, f.Panel)
	if err != nil {
		return nil, err
	}
	lf := &linesFigure{t: t, f: f, xo: o[0], lo: o[1], po: o[2], seen: map[cellState]bool{}, faultless: true}
	if !numeric(lf.xo.values) {
		return nil, fmt.Errorf("a lines figure needs a numeric x axis, got %q", f.X)
	}
	if err := t.checkAxes("lines", f.X, f.Line, f.Panel); err != nil {
		return nil, err
	}
	if lf.m, err = t.metric(f.Metric); err != nil {
		return nil, err
	}
	lf.xp = lf.xo.placement()
	np, nl, nx := len(lf.po.values), len(lf.lo.values), len(lf.xo.values)
	lf.grid = make([][][]*linePoint, np)
	for p := range lf.grid {
		lf.grid[p] = make([][]*linePoint, nl)
		for l := range lf.grid[p] {
			lf.grid[p][l] = make([]*linePoint, nx)
		}
	}
	for i := range t.Rows {
		c, r := &t.Rows[i], &t.Rows[i].Result
		pt := &linePoint{x: lf.xp.at(lf.xo.values[lf.xo.of(c)].Num), y: lf.m.Value(r)}
		lf.chain = lf.chain || r.Markov.Phase != model.PhaseNone
		lf.faultless = lf.faultless && len(c.Facts.Faults) == 0
		if !r.Recovered() && r.Markov.Phase == model.PhaseNone { // a chain's solve has no recovery to mark
			pt.state = stateOf(r.Verdict)
			lf.seen[pt.state] = true
		}
		lf.grid[lf.po.of(c)][lf.lo.of(c)][lf.xo.of(c)] = pt
		lf.replicates = lf.replicates || r.Replicates > 1
	}
	lf.fitY()
	return lf, nil
}

// fitY fits the y range: the finite values, and a band above them for the
// rest, a row for each line when several lines reach it, in legend order
// from the top, so that none hides another.
func (lf *linesFigure) fitY() {
	nl := len(lf.lo.values)
	ylo, yhi := math.Inf(1), math.Inf(-1)
	inBand := make([]bool, nl)
	for _, p := range lf.grid {
		for l, pts := range p {
			for _, pt := range pts {
				switch {
				case pt == nil:
				case math.IsNaN(pt.y) || math.IsInf(pt.y, 0):
					lf.band = true
					inBand[l] = true
				default:
					ylo, yhi = math.Min(ylo, pt.y), math.Max(yhi, pt.y)
				}
			}
		}
	}
	if ylo > yhi {
		ylo, yhi = 0, 1
	}
	lf.logY = !lf.band && ylo > 0 && yhi/ylo >= 1000
	if lf.logY {
		ylo, yhi = math.Floor(math.Log10(ylo)), math.Ceil(math.Log10(yhi))
	} else {
		if ylo >= 0 {
			ylo = 0
		}
		if yhi <= ylo {
			yhi = ylo + 1
		}
		yhi = niceCeil(yhi)
	}
	lf.lane = make([]int, nl)
	for l, ok := range inBand {
		if ok {
			lf.lane[l] = lf.lanes
			lf.lanes++
		}
	}
	lf.ylo, lf.yhi, lf.top, lf.bandY, lf.ymax = ylo, yhi, yhi, yhi, yhi
	if lf.band {
		span := yhi - ylo
		lf.top = yhi + 0.06*span
		lf.bandY = yhi + 0.13*span
		lf.ymax = yhi + 0.2*span
		if lf.lanes > 1 {
			lf.step = 0.045 * span
			lf.ymax = lf.top + lf.step*float64(lf.lanes+1)
			lf.bandY = (lf.top + lf.ymax) / 2
		}
	}
}

// laneY is where the points of line l without a value sit in the band.
func (lf *linesFigure) laneY(l int) float64 {
	if lf.band && lf.lanes > 1 {
		return lf.ymax - lf.step*float64(lf.lane[l]+1)
	}
	return lf.bandY
}

// drawOn draws the figure on a slide.
func (lf *linesFigure) drawOn(c draw.Canvas, title string, fs []string) {
	t, f := lf.t, lf.f
	xs := lf.xp.positions()
	xmin, xmax := xs[0], xs[len(xs)-1]
	if xmax <= xmin {
		xmin, xmax = xmin-0.5, xmax+0.5
	}
	pad := 0.05 * (xmax - xmin) // room for the end markers
	xmin, xmax = xmin-pad, xmax+pad
	yOf := func(v float64) float64 { return v }
	if lf.logY {
		yOf = math.Log10
	}

	rows, cols := tiling(len(lf.po.values))
	left, right := slide(c, title, fs)
	var panels []*plot.Plot
	for p := range lf.grid {
		pl := newPlot()
		if f.Panel != "" {
			pl.Title.Text = valueLabel(f.Panel, lf.po.values[p])
		}
		if tk := lf.xp.ticks(lf.xo); tk != nil {
			pl.X.Tick.Marker = tk
		}
		if p/cols == rows-1 {
			pl.X.Label.Text = t.placedLabel(f.X, lf.xp)
		}
		if p%cols == 0 {
			pl.Y.Label.Text = metricLabel(lf.m)
		}
		pl.Add(plotter.NewGrid())
		if lf.band {
			pl.Add(&hband{lo: lf.top, hi: lf.ymax, fill: bandColour()})
			pl.Y.Tick.Marker = bandTicks{top: lf.yhi, band: lf.bandY}
		}
		if lf.logY {
			pl.Y.Tick.Marker = expTicks{}
		}
		for l, pts := range lf.grid[p] {
			var line, ok, never, slow, unjudged plotter.XYs
			for _, pt := range pts {
				if pt == nil {
					continue
				}
				y := yOf(pt.y)
				if math.IsNaN(y) || math.IsInf(y, 0) {
					y = lf.laneY(l)
				}
				line = append(line, plotter.XY{X: pt.x, Y: y})
				switch pt.state {
				case valueCell:
					ok = append(ok, plotter.XY{X: pt.x, Y: y})
				case drainingCell:
					slow = append(slow, plotter.XY{X: pt.x, Y: y})
				case notJudgedCell:
					unjudged = append(unjudged, plotter.XY{X: pt.x, Y: y})
				default:
					never = append(never, plotter.XY{X: pt.x, Y: y})
				}
			}
			ls, okSty, neverSty := lineStyles(l)
			if lf.lanes > 1 {
				neverSty.Radius = vg.Points(4.5) // fits its row
			}
			if len(line) > 1 {
				pl.Add(&plotter.Line{XYs: line, LineStyle: ls})
			}
			if len(ok) > 0 {
				pl.Add(&plotter.Scatter{XYs: ok, GlyphStyle: okSty})
			}
			if len(never) > 0 {
				pl.Add(&plotter.Scatter{XYs: never, GlyphStyle: neverSty})
			}
			if len(slow) > 0 {
				sty := neverSty
				sty.Shape = boldRing{}
				pl.Add(&plotter.Scatter{XYs: slow, GlyphStyle: sty})
			}
			if len(unjudged) > 0 {
				sty := okSty
				sty.Shape = draw.BoxGlyph{}
				pl.Add(&plotter.Scatter{XYs: unjudged, GlyphStyle: sty})
			}
		}
		pl.X.Min, pl.X.Max = xmin, xmax
		pl.Y.Min, pl.Y.Max = lf.ylo, lf.ymax
		panels = append(panels, pl)
	}
	drawTiled(left, panels, rows, cols)

	var entries []entry
	for l, v := range lf.lo.values {
		ls, okSty, _ := lineStyles(l)
		text := v.Text
		if f.Line == "" {
			text = metricLabel(lf.m)
		}
		entries = append(entries, entry{text: text, thumbs: []plot.Thumbnailer{lineThumb{ls}, glyphThumb{okSty}}})
	}
	_, _, neverSty := lineStyles(0)
	neverSty.Color = color.Black
	if !lf.chain {
		entries = append(entries, entry{text: lf.neverLegend(), thumbs: []plot.Thumbnailer{glyphThumb{neverSty}}})
	}
	legendTitle := t.axisLabel(f.Line)
	if f.Line == "" {
		legendTitle = ""
	}
	drawLegend(right, legendTitle, entries)
}

// bandColour fills the band at the top of a chart where the cells without
// a value sit.
func bandColour() color.Color { return color.RGBA{R: 0xfb, G: 0xe3, B: 0xe3, A: 0xff} }

// lineStyles are the styles of line l: the line, its points, and the cross
// that marks a cell that never recovered.
func lineStyles(l int) (draw.LineStyle, draw.GlyphStyle, draw.GlyphStyle) {
	col := lineColour(l)
	return draw.LineStyle{Color: col, Width: vg.Points(lineWidth), Dashes: lineDash(l)},
		draw.GlyphStyle{Color: col, Radius: vg.Points(4), Shape: draw.CircleGlyph{}},
		draw.GlyphStyle{Color: col, Radius: vg.Points(6.5), Shape: boldCross{}}
}

// boldCross is a cross glyph with strokes thick enough for a projector.
type boldCross struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (boldCross) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	ls := draw.LineStyle{Color: sty.Color, Width: vg.Points(2.8)}
	c.StrokeLine2(ls, pt.X-r, pt.Y-r, pt.X+r, pt.Y+r)
	c.StrokeLine2(ls, pt.X-r, pt.Y+r, pt.X+r, pt.Y-r)
}

// boldRing is a ring glyph as thick as boldCross: a cell still draining
// when the run ends.
type boldRing struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (boldRing) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	ls := draw.LineStyle{Color: sty.Color, Width: vg.Points(2.4)}
	c.StrokeLines(ls, circlePath(pt, sty.Radius*0.8))
}

// circlePath is a closed circle of radius r around pt, as line segments.
func circlePath(pt vg.Point, r vg.Length) []vg.Point {
	const n = 24
	out := make([]vg.Point, n+1)
	for i := range out {
		a := 2 * math.Pi * float64(i) / n
		out[i] = vg.Point{X: pt.X + r*vg.Length(math.Cos(a)), Y: pt.Y + r*vg.Length(math.Sin(a))}
	}
	return out
}

// hband fills the full width of a plot between two y values.
type hband struct {
	lo, hi float64
	fill   color.Color
}

// Plot implements plot.Plotter.
func (b *hband) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	fillRect(c, vg.Rectangle{Min: vg.Point{X: c.Min.X, Y: trY(b.lo)}, Max: vg.Point{X: c.Max.X, Y: trY(b.hi)}}, b.fill)
}

// bandTicks are nice ticks up to top and a tick at the band, labelled
// label ("never" when empty).
type bandTicks struct {
	top, band float64
	label     string
}

// Ticks implements plot.Ticker.
func (t bandTicks) Ticks(lo, _ float64) []plot.Tick {
	label := t.label
	if label == "" {
		label = "never"
	}
	return append(niceTicks{}.Ticks(lo, t.top), plot.Tick{Value: t.band, Label: label})
}
