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

	"github.com/stormlab/stormlab/experiments/spec"
)

// phase is the metastability phase diagram: one coloured rectangle per
// cell of the grid's product over the X and Y axes, both numeric, one panel
// per value of the Panel axis, a shared colour scale, "never recovers" in
// its own colour, and optionally the rule of thumb for naive retries. Its
// findings (phase_text.go) say, per panel, where the system tips and, with
// the rule of thumb over load, where the rule parts from the simulation.
//
// Each rectangle spans halfway to its neighbours. The colour scale is
// sequential and shared by all panels, on a log scale when the values span
// orders of magnitude; replicated results are coloured by the share of
// replicates that recovered; cells aborted at the memory cap are grey. The
// rule of thumb, blip = capacity × timeout / load, is drawn where it falls
// within the values tried and otherwise placed in the caption ("lies below
// the smallest blip tried").
//
// An axis whose values are uneven (the largest gap between neighbours more
// than unevenRatio = 3 times the smallest, as with backoff waits of 10ms to
// 4s) places them by index: evenly spaced, equal cells, ticks labelled with
// the values as the grid writes them, "not to scale" on the axis and in the
// caption. Even grids (load 50..95 step 1) stay linear. The rule of thumb
// is computed in the axes' units and mapped through the same placement.
type phase struct{}

func (phase) defaultName(f *spec.Figure) string { return joinNonEmpty("phase", f.X, f.Y) }

// phaseFigure is a phase diagram laid out: its axes, its cells' colours
// and states, and the rule of thumb per panel.
type phaseFigure struct {
	t          *Table
	f          *spec.Figure
	xo, yo, po axisOrder
	xp, yp     placement
	// z[panel][x][y] is the colour value, NaN where there is none; st says
	// whether the cell has a value or, instead, how it ended (stuck,
	// draining, not judged); a position no row fills (its cell was
	// aborted at the memory cap) stays aborted.
	z       [][][]float64
	st      [][][]cellState
	mode    mode
	scale   colourScale
	seen    map[cellState]bool // the states some cell shows
	aborted bool               // some position has no row
	// rule is the rule of thumb per panel in plot coordinates, nil where
	// it is not drawn; drawn says whether any panel draws it, below and
	// above are its values in the panels where it lies off the y axis.
	rule         []plotter.XYs
	drawn        bool
	below, above []float64
}

func (phase) draw(t *Table, f *spec.Figure) (figure, error) {
	ph, err := newPhaseFigure(t, f)
	if err != nil {
		return figure{}, err
	}
	fs := facts(t.Rows)
	title := ph.title()
	return figure{title: title, caption: caption(fs, ph.caption()), draw: func(c draw.Canvas) { ph.drawOn(c, title, fs) }}, nil
}

// newPhaseFigure places the rows on the figure's axes and colours them.
func newPhaseFigure(t *Table, f *spec.Figure) (*phaseFigure, error) {
	o, err := t.orders(f.X, f.Y, f.Panel)
	if err != nil {
		return nil, err
	}
	ph := &phaseFigure{t: t, f: f, xo: o[0], yo: o[1], po: o[2], seen: map[cellState]bool{}}
	if !numeric(ph.xo.values) || !numeric(ph.yo.values) {
		return nil, fmt.Errorf("a phase figure needs numeric x and y axes, got %q and %q", f.X, f.Y)
	}
	if err := t.checkAxes("phase", f.X, f.Y, f.Panel); err != nil {
		return nil, err
	}
	m, err := t.metric(f.Metric)
	if err != nil {
		return nil, err
	}
	nx, ny, np := len(ph.xo.values), len(ph.yo.values), len(ph.po.values)
	ph.z = make([][][]float64, np)
	ph.st = make([][][]cellState, np)
	first := make([][]*Row, np) // panel, x → a row in that column
	for p := range ph.z {
		ph.z[p] = make([][]float64, nx)
		ph.st[p] = make([][]cellState, nx)
		first[p] = make([]*Row, nx)
		for x := range ph.z[p] {
			ph.z[p][x] = make([]float64, ny)
			ph.st[p][x] = make([]cellState, ny)
			for y := range ph.z[p][x] {
				ph.z[p][x][y], ph.st[p][x][y] = math.NaN(), abortedCell
			}
		}
	}
	ph.mode = colourMode(m, t.Rows)
	for i := range t.Rows {
		r := &t.Rows[i]
		p, x, y := ph.po.of(r), ph.xo.of(r), ph.yo.of(r)
		ph.z[p][x][y], ph.st[p][x][y] = ph.mode.value(&r.Result)
		ph.seen[ph.st[p][x][y]] = true
		if first[p][x] == nil {
			first[p][x] = r
		}
	}
	ph.aborted = nx*ny*np > len(t.Rows)
	if ph.scale, err = newScale(ph.mode, ph.z); err != nil {
		return nil, err
	}
	ph.xp, ph.yp = ph.xo.placement(), ph.yo.placement()
	if f.RuleOfThumb {
		ph.placeRule(first)
	}
	return ph, nil
}

// placeRule computes the rule of thumb of each panel, in the axes' units
// through their placements, and notes the panels where it lies off the y
// axis instead (its halo would show at the edge).
func (ph *phaseFigure) placeRule(first [][]*Row) {
	xs, ys := ph.xo.nums(), ph.yo.nums()
	xe, ye := edges(xs), edges(ys)
	ny := len(ys)
	xIsLoad := ph.f.X == "load"
	for p := range ph.po.values {
		c := ruleCurve(first[p], xs, xe, xIsLoad)
		switch {
		case slices.ContainsFunc(c, func(p plotter.XY) bool { return p.Y > ye[0] && p.Y < ye[ny] }):
			ph.drawn = true
		case len(c) > 0 && c[0].Y <= ye[0]:
			ph.below = append(ph.below, ruleValues(first[p], xs, xIsLoad)...)
			c = nil
		case len(c) > 0:
			ph.above = append(ph.above, ruleValues(first[p], xs, xIsLoad)...)
			c = nil
		}
		ph.rule = append(ph.rule, placeCurve(c, ph.xp, ph.yp))
	}
}

// drawOn draws the figure on a slide: the panels on the left, the colour
// bar and the legend on the right.
func (ph *phaseFigure) drawOn(c draw.Canvas, title string, fs []string) {
	t, f := ph.t, ph.f
	nx, ny, np := len(ph.xo.values), len(ph.yo.values), len(ph.po.values)
	pxe, pye := edges(ph.xp.positions()), edges(ph.yp.positions()) // in plot coordinates
	rows, cols := tiling(np)
	left, right := slide(c, title, fs)

	var panels []*plot.Plot
	for p := range ph.po.values {
		pl := newPlot()
		if f.Panel != "" {
			pl.Title.Text = valueLabel(f.Panel, ph.po.values[p])
		}
		if tk := ph.xp.ticks(ph.xo); tk != nil {
			pl.X.Tick.Marker = tk
		}
		if tk := ph.yp.ticks(ph.yo); tk != nil {
			pl.Y.Tick.Marker = tk
		}
		// The panels share their axes: the values are written along the
		// left column and under the lowest panel of each column.
		if p+cols >= np {
			pl.X.Label.Text = t.placedLabel(f.X, ph.xp)
		} else {
			pl.X.Tick.Marker = unlabelled{pl.X.Tick.Marker}
		}
		if p%cols == 0 {
			pl.Y.Label.Text = t.placedLabel(f.Y, ph.yp)
		} else {
			pl.Y.Tick.Marker = unlabelled{pl.Y.Tick.Marker}
		}
		pl.X.Padding, pl.Y.Padding = 0, 0
		zp, sp := ph.z[p], ph.st[p]
		pl.Add(&cellsPlot{xe: pxe, ye: pye, colour: func(i, j int) color.Color { return ph.scale.colour(zp[i][j], sp[i][j]) }})
		if ph.rule != nil && ph.rule[p] != nil {
			halo, dashed := ruleLines(ph.rule[p])
			pl.Add(overlay{halo}, overlay{dashed})
		}
		pl.X.Min, pl.X.Max = pxe[0], pxe[nx]
		pl.Y.Min, pl.Y.Max = pye[0], pye[ny]
		panels = append(panels, pl)
	}
	drawTiled(left, panels, rows, cols)

	var entries []entry
	for _, cs := range []cellState{stuckCell, drainingCell, notJudgedCell} {
		if ph.seen[cs] {
			entries = append(entries, entry{text: cs.legend(), thumbs: []plot.Thumbnailer{swatch{cs.colour()}}})
		}
	}
	if ph.aborted {
		entries = append(entries, entry{text: abortedCell.legend(), thumbs: []plot.Thumbnailer{swatch{abortedColour()}}})
	}
	if ph.drawn {
		halo, dashed := ruleLines(nil)
		entries = append(entries, entry{text: ruleLegend, thumbs: []plot.Thumbnailer{halo, dashed}})
	}
	colourLegend(right, ph.mode.label, ph.scale, entries)
}

// ruleLegend is the legend entry of the rule of thumb.
const ruleLegend = "rule of thumb for naive retries:\nblip\u00a0= capacity\u00a0×\u00a0timeout\u00a0/\u00a0load"

// slide lays a figure out on a slide: the title and the subtitle of the
// facts on top, the legend's column on the right, the panels' area on the
// left.
func slide(c draw.Canvas, title string, fs []string) (left, right draw.Canvas) {
	body := header(c, title, subtitle(fs))
	return draw.Crop(body, 0, -legendWidth-0.15*vg.Inch, 0, 0), draw.Crop(body, body.Max.X-body.Min.X-legendWidth, 0, 0, 0)
}

// tiling arranges n panels in rows and columns on a wide slide.
func tiling(n int) (rows, cols int) {
	rows = max(1, int(math.Round(math.Sqrt(float64(n)/1.6))))
	cols = (n + rows - 1) / rows
	return rows, cols
}

// cellsPlot fills one rectangle per cell between the given edges.
type cellsPlot struct {
	xe, ye []float64                  // cell edges, ascending
	colour func(i, j int) color.Color // colour of cell (x index, y index)
}

// Plot implements plot.Plotter.
func (cp *cellsPlot) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	const overlap = 0.6 // points (1.3 px); hides antialiasing seams between cells
	for i := 0; i+1 < len(cp.xe); i++ {
		for j := 0; j+1 < len(cp.ye); j++ {
			x0, x1 := trX(cp.xe[i]), trX(cp.xe[i+1])
			y0, y1 := trY(cp.ye[j]), trY(cp.ye[j+1])
			if i+2 < len(cp.xe) {
				x1 += overlap
			}
			if j+2 < len(cp.ye) {
				y1 += overlap
			}
			fillRect(c, vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x1, Y: y1}}, cp.colour(i, j))
		}
	}
}

// DataRange implements plot.DataRanger.
func (cp *cellsPlot) DataRange() (xmin, xmax, ymin, ymax float64) {
	return cp.xe[0], cp.xe[len(cp.xe)-1], cp.ye[0], cp.ye[len(cp.ye)-1]
}
