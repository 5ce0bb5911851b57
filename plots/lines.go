package plots

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// lines draws a metric against the X axis (numeric), one line per value of
// the Line axis, one panel per value of the Panel axis, over the grid's
// product. Cells without a value (a recovery time that never came) sit in a
// "never" band above the top, each marked with a cross. Its findings say,
// per line, at which X values the system recovers.
//
// Uneven X values (the largest gap between neighbours more than
// unevenRatio = 3 times the smallest) are placed by index, evenly spaced
// and labelled with the values as the grid writes them, and the axis and
// the caption say "not to scale"; even ones stay linear.
type lines struct{}

func (lines) name() string { return "lines" }

func (lines) roles() []role {
	return []role{{key: "x", required: true, numeric: true}, {key: "line", required: true}, {key: "panel"}}
}

func (lines) cells(g *sweep.Grid) []sweep.Cell { return g.Product() }

func (lines) defaultName(f *spec.Figure) string { return joinNonEmpty("lines", f.Metric, f.X) }

func (lines) draw(d *data, f *spec.Figure) (figure, error) {
	o, err := d.orders(f.X, f.Line, f.Panel)
	if err != nil {
		return figure{}, err
	}
	xo, lo, po := o[0], o[1], o[2]
	if !numeric(xo.values) {
		return figure{}, fmt.Errorf("a lines figure needs a numeric x axis, got %q", f.X)
	}
	if err := d.checkAxes("lines", f.X, f.Line, f.Panel); err != nil {
		return figure{}, err
	}
	m, err := metric(d.g, f.Metric)
	if err != nil {
		return figure{}, err
	}

	xp := xo.placement()

	// pts[panel][line] are the points in x order.
	type point struct {
		x, y  float64   // y is NaN when the cell has no value
		state cellState // valueCell when it recovered (in every replicate)
	}
	np, nl, nx := len(po.values), len(lo.values), len(xo.values)
	grid := make([][][]*point, np)
	for p := range grid {
		grid[p] = make([][]*point, nl)
		for l := range grid[p] {
			grid[p][l] = make([]*point, nx)
		}
	}
	replicates := false
	seen := map[cellState]bool{}
	for i := range d.cells {
		c, r := &d.cells[i], &d.results[i]
		pt := &point{x: xp.at(xo.values[xo.of(c)].Num), y: m.Value(r)}
		if !r.Recovered() {
			pt.state = stateOf(r.Verdict)
			seen[pt.state] = true
		}
		grid[po.of(c)][lo.of(c)][xo.of(c)] = pt
		replicates = replicates || r.Replicates > 1
	}

	// The y range: the finite values, and a band above them for the rest.
	ylo, yhi := math.Inf(1), math.Inf(-1)
	band := false
	inBand := make([]bool, nl) // the lines with a point in the band
	for _, p := range grid {
		for l, pts := range p {
			for _, pt := range pts {
				switch {
				case pt == nil:
				case math.IsNaN(pt.y) || math.IsInf(pt.y, 0):
					band = true
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
	logY := !band && ylo > 0 && yhi/ylo >= 1000
	yOf := func(v float64) float64 { return v }
	switch {
	case logY:
		ylo, yhi = math.Floor(math.Log10(ylo)), math.Ceil(math.Log10(yhi))
		yOf = math.Log10
	default:
		if ylo >= 0 {
			ylo = 0
		}
		if yhi <= ylo {
			yhi = ylo + 1
		}
		yhi = niceCeil(yhi)
	}
	// When several lines reach the band, each gets a row of its own there,
	// in legend order from the top, so that none hides another.
	lane := make([]int, nl)
	lanes := 0
	for l, ok := range inBand {
		if ok {
			lane[l] = lanes
			lanes++
		}
	}
	top, bandY, ymax := yhi, yhi, yhi
	laneY := func(int) float64 { return bandY }
	if band {
		span := yhi - ylo
		top = yhi + 0.06*span
		bandY = yhi + 0.13*span
		ymax = yhi + 0.2*span
		if lanes > 1 {
			step := 0.045 * span
			ymax = top + step*float64(lanes+1)
			bandY = (top + ymax) / 2
			laneY = func(l int) float64 { return ymax - step*float64(lane[l]+1) }
		}
	}

	title := f.Title
	if title == "" {
		title = capitalize(fmt.Sprintf("%s against %s", metricLabel(m), axisName(f.X)))
	}
	neverText := "stuck, never recovers"
	if replicates {
		neverText = "not every replicate recovers"
	}
	if seen[drainingCell] {
		neverText += "; rings: still draining when the run ends, unhealthy but not stuck"
	}
	if seen[notJudgedCell] {
		neverText += "; squares: not judged, no request after the fault"
	}
	fs := facts(d.cells)
	more := fmt.Sprintf("y: %s.", metricDoc(m))
	if f.Line != "" {
		more = fmt.Sprintf("One line per %s; %s", axisName(f.Line), more)
	}
	if band {
		more += " Crosses in the band at the top: " + neverText
		if lanes > 1 {
			more += ", a row for each line"
		}
		more += "."
	} else {
		more += " Crosses: " + neverText + "."
	}
	if xp.index {
		more += " " + notToScale(f.X)
	}
	xs := xp.positions()
	xmin, xmax := xs[0], xs[nx-1]
	if xmax <= xmin {
		xmin, xmax = xmin-0.5, xmax+0.5
	}
	pad := 0.05 * (xmax - xmin) // room for the end markers
	xmin, xmax = xmin-pad, xmax+pad

	rows, cols := tiling(np)
	drawFn := func(c draw.Canvas) {
		body := header(c, title, subtitle(fs))
		right := draw.Crop(body, body.Max.X-body.Min.X-legendWidth, 0, 0, 0)
		left := draw.Crop(body, 0, -legendWidth-0.15*vg.Inch, 0, 0)
		var panels []*plot.Plot
		for p := range grid {
			pl := newPlot()
			if f.Panel != "" {
				pl.Title.Text = valueLabel(f.Panel, po.values[p])
			}
			if t := xp.ticks(xo); t != nil {
				pl.X.Tick.Marker = t
			}
			r, col := p/cols, p%cols
			if r == rows-1 {
				pl.X.Label.Text = d.placedLabel(f.X, xp)
			}
			if col == 0 {
				pl.Y.Label.Text = metricLabel(m)
			}
			pl.Add(plotter.NewGrid())
			if band {
				pl.Add(&hband{lo: top, hi: ymax, fill: color.RGBA{R: 0xfb, G: 0xe3, B: 0xe3, A: 0xff}})
				pl.Y.Tick.Marker = bandTicks{top: yhi, band: bandY}
			}
			if logY {
				pl.Y.Tick.Marker = expTicks{}
			}
			for l, pts := range grid[p] {
				var line, ok, never, slow, unjudged plotter.XYs
				for _, pt := range pts {
					if pt == nil {
						continue
					}
					y := yOf(pt.y)
					if math.IsNaN(y) || math.IsInf(y, 0) {
						y = laneY(l)
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
				if lanes > 1 {
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
			pl.Y.Min, pl.Y.Max = ylo, ymax
			panels = append(panels, pl)
		}
		drawTiled(left, panels, rows, cols)

		var entries []entry
		for l, v := range lo.values {
			ls, okSty, _ := lineStyles(l)
			text := v.Text
			if f.Line == "" {
				text = metricLabel(m)
			}
			entries = append(entries, entry{text: text, thumbs: []plot.Thumbnailer{lineThumb{ls}, glyphThumb{okSty}}})
		}
		_, _, neverSty := lineStyles(0)
		neverSty.Color = color.Black
		nt := neverText
		if band && lanes > 1 {
			nt += " (in the band at the top, a row for each line)"
		} else if band {
			nt += " (in the band at the top)"
		}
		entries = append(entries, entry{text: nt, thumbs: []plot.Thumbnailer{glyphThumb{neverSty}}})
		legendTitle := d.axisLabel(f.Line)
		if f.Line == "" {
			legendTitle = ""
		}
		drawLegend(right, legendTitle, entries)
	}
	return figure{title: title, caption: caption(fs, more), draw: drawFn}, nil
}

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

// findings say, per line, at which X values the system recovers and at
// which it never does.
func (lines) findings(d *data, f *spec.Figure) []string {
	if !aboutRecovery(f.Metric) {
		return nil // the figure draws another metric
	}
	lineAx, _ := d.g.Axis(f.Line)
	var parts []string
	for _, lv := range lineAx.Values {
		type pt struct {
			x float64
			r *model.Result
		}
		var pts []pt
		for i := range d.cells {
			if v, _ := d.cells[i].Get(f.Line); v.Text != lv.Text {
				continue
			}
			x, _ := d.cells[i].Get(f.X)
			pts = append(pts, pt{x.Num, &d.results[i]})
		}
		if len(pts) == 0 {
			continue // a line the figure leaves out
		}
		sort.Slice(pts, func(i, j int) bool { return pts[i].x < pts[j].x })
		var rec, stuck, slow, unjudged []float64
		slowest := 0.0
		for _, p := range pts {
			switch p.r.Verdict {
			case model.Recovered:
				rec = append(rec, p.x)
				if !math.IsNaN(p.r.RecoveryS) {
					slowest = math.Max(slowest, p.r.RecoveryS)
				}
			case model.Draining:
				slow = append(slow, p.x)
			case model.NotJudged:
				unjudged = append(unjudged, p.x)
			default:
				stuck = append(stuck, p.x)
			}
		}
		name := fmt.Sprintf("%s %s", f.Line, lv.Text)
		var says []string
		switch {
		case len(rec) == len(pts):
			says = append(says, fmt.Sprintf("recovers at every %s (at most %s s after the fault)", f.X, Number(slowest)))
		case len(rec) > 0:
			says = append(says, fmt.Sprintf("recovers at %s %s (at most %s s after the fault)", f.X, d.spans(f.X, rec), Number(slowest)))
		}
		switch {
		case len(stuck) == len(pts):
			says = append(says, "is stuck (never recovers) throughout")
		case len(stuck) > 0:
			says = append(says, fmt.Sprintf("is stuck (never recovers) at %s", d.spans(f.X, stuck)))
		}
		if len(slow) > 0 {
			says = append(says, fmt.Sprintf("is still draining when the run ends at %s", d.spans(f.X, slow)))
		}
		if len(unjudged) > 0 {
			says = append(says, fmt.Sprintf("is not judged at %s (no request after the fault)", d.spans(f.X, unjudged)))
		}
		parts = append(parts, fmt.Sprintf("at %s it %s", name, joinAnd(says)))
	}
	if len(parts) == 0 {
		return nil
	}
	return []string{"Across " + f.X + ": " + strings.Join(parts, "; ") + "."}
}
