package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// phase is the metastability phase diagram: one coloured rectangle per
// cell of the grid's product over the X and Y axes, both numeric, one panel
// per value of the Panel axis, a shared colour scale, "never recovers" in
// its own colour, and optionally the rule of thumb for naive retries. Its
// findings say, per panel, where the system tips and, with the rule of
// thumb over load, where the rule parts from the simulation.
//
// An axis whose values are uneven (the largest gap between neighbours more
// than unevenRatio = 3 times the smallest, as with backoff waits of 10ms to
// 4s) places them by index: evenly spaced, equal cells, ticks labelled with
// the values as the grid writes them, "not to scale" on the axis and in the
// caption. Even grids (load 50..95 step 1) stay linear. The rule of thumb
// is computed in the axes' units and mapped through the same placement.
type phase struct{}

func (phase) name() string { return "phase" }

func (phase) roles() []role {
	return []role{{key: "x", required: true, numeric: true}, {key: "y", required: true, numeric: true}, {key: "panel"}}
}

func (phase) cells(g *sweep.Grid) []sweep.Cell { return g.Product() }

func (phase) defaultName(f *spec.Figure) string { return joinNonEmpty("phase", f.X, f.Y) }

func (phase) draw(d *data, f *spec.Figure) (figure, error) {
	o, err := d.orders(f.X, f.Y, f.Panel)
	if err != nil {
		return figure{}, err
	}
	xo, yo, po := o[0], o[1], o[2]
	if !numeric(xo.values) || !numeric(yo.values) {
		return figure{}, fmt.Errorf("a phase figure needs numeric x and y axes, got %q and %q", f.X, f.Y)
	}
	if err := d.checkAxes("phase", f.X, f.Y, f.Panel); err != nil {
		return figure{}, err
	}
	m, err := metric(d.g, f.Metric)
	if err != nil {
		return figure{}, err
	}

	// z[panel][x][y] is the colour value, NaN where there is none; st says
	// whether the cell has a value or, instead, how it ended (stuck,
	// draining, not judged); a position no drawn cell fills (its cell was
	// aborted at the memory cap) stays aborted.
	nx, ny, np := len(xo.values), len(yo.values), len(po.values)
	z := make([][][]float64, np)
	st := make([][][]cellState, np)
	first := make([][]*sweep.Cell, np) // panel, x → a cell in that column
	for p := range z {
		z[p] = make([][]float64, nx)
		st[p] = make([][]cellState, nx)
		first[p] = make([]*sweep.Cell, nx)
		for x := range z[p] {
			z[p][x] = make([]float64, ny)
			st[p][x] = make([]cellState, ny)
			for y := range z[p][x] {
				z[p][x][y], st[p][x][y] = math.NaN(), abortedCell
			}
		}
	}
	mode := colourMode(m, d.results)
	seen := map[cellState]bool{}
	for i := range d.cells {
		c := &d.cells[i]
		p, x, y := po.of(c), xo.of(c), yo.of(c)
		z[p][x][y], st[p][x][y] = mode.value(&d.results[i])
		seen[st[p][x][y]] = true
		if first[p][x] == nil {
			first[p][x] = c
		}
	}
	aborted := nx*ny*np > len(d.cells)
	scale, err := newScale(mode, z)
	if err != nil {
		return figure{}, err
	}

	xs, ys := xo.nums(), yo.nums()
	xe, ye := edges(xs), edges(ys) // in the axes' units
	xp, yp := xo.placement(), yo.placement()
	pxe, pye := edges(xp.positions()), edges(yp.positions()) // in plot coordinates
	title := f.Title
	if title == "" {
		what := metricLabel(m)
		if mode.share {
			what = "share of replicates that recovered"
		}
		title = capitalize(fmt.Sprintf("%s by %s and %s", what, axisName(f.X), axisName(f.Y)))
	}
	fs := facts(d.cells)
	var rule []plotter.XYs // per panel, nil where the rule is not drawn
	drawn, off := false, ""
	if f.RuleOfThumb {
		var below, above []float64 // the rule's values in panels it misses
		for p := range po.values {
			c := ruleCurve(first[p], xs, xe, f.X == "load")
			switch {
			case slices.ContainsFunc(c, func(p plotter.XY) bool { return p.Y > ye[0] && p.Y < ye[ny] }):
				drawn = true
			case len(c) > 0 && c[0].Y <= ye[0]:
				below = append(below, ruleValues(first[p], xs, f.X == "load")...)
				c = nil // off the panel: its halo would show at the edge
			case len(c) > 0:
				above = append(above, ruleValues(first[p], xs, f.X == "load")...)
				c = nil
			}
			rule = append(rule, placeCurve(c, xp, yp))
		}
		off = ruleOffAxis(below, "below the smallest", axisName(f.Y), d.text(f.Y, ys[0]), drawn) +
			ruleOffAxis(above, "above the largest", axisName(f.Y), d.text(f.Y, ys[ny-1]), drawn)
	}
	more := "Each rectangle is one grid cell; colour: " + mode.doc
	if scale.log {
		more += " (log scale)"
	}
	more += "."
	for _, cs := range []cellState{stuckCell, drainingCell, notJudgedCell} {
		if seen[cs] {
			more += " " + cs.caption()
		}
	}
	if aborted {
		more += " Grey: aborted at the memory cap, no value."
	}
	if drawn {
		more += " Dashed: the rule of thumb for naive retries, blip ≈ capacity × timeout / load."
	}
	more += off
	var byIndex []string
	if xp.index {
		byIndex = append(byIndex, f.X)
	}
	if yp.index {
		byIndex = append(byIndex, f.Y)
	}
	if n := notToScale(byIndex...); n != "" {
		more += " " + n
	}

	rows, cols := tiling(np)
	drawFn := func(c draw.Canvas) {
		body := header(c, title, subtitle(fs))
		right := draw.Crop(body, body.Max.X-body.Min.X-legendWidth, 0, 0, 0)
		left := draw.Crop(body, 0, -legendWidth-0.15*vg.Inch, 0, 0)

		var panels []*plot.Plot
		for p := range po.values {
			pl := newPlot()
			if f.Panel != "" {
				pl.Title.Text = valueLabel(f.Panel, po.values[p])
			}
			if t := xp.ticks(xo); t != nil {
				pl.X.Tick.Marker = t
			}
			if t := yp.ticks(yo); t != nil {
				pl.Y.Tick.Marker = t
			}
			// The panels share their axes: the values are written along
			// the left column and under the lowest panel of each column.
			if p+cols >= np {
				pl.X.Label.Text = d.placedLabel(f.X, xp)
			} else {
				pl.X.Tick.Marker = unlabelled{pl.X.Tick.Marker}
			}
			if p%cols == 0 {
				pl.Y.Label.Text = d.placedLabel(f.Y, yp)
			} else {
				pl.Y.Tick.Marker = unlabelled{pl.Y.Tick.Marker}
			}
			pl.X.Padding, pl.Y.Padding = 0, 0
			zp, sp := z[p], st[p]
			pl.Add(&cellsPlot{xe: pxe, ye: pye, colour: func(i, j int) color.Color { return scale.colour(zp[i][j], sp[i][j]) }})
			if rule != nil && rule[p] != nil {
				halo, dashed := ruleLines(rule[p])
				pl.Add(overlay{halo}, overlay{dashed})
			}
			pl.X.Min, pl.X.Max = pxe[0], pxe[nx]
			pl.Y.Min, pl.Y.Max = pye[0], pye[ny]
			panels = append(panels, pl)
		}
		drawTiled(left, panels, rows, cols)

		var entries []entry
		for _, cs := range []cellState{stuckCell, drainingCell, notJudgedCell} {
			if seen[cs] {
				entries = append(entries, entry{text: cs.legend(), thumbs: []plot.Thumbnailer{swatch{cs.colour()}}})
			}
		}
		if aborted {
			entries = append(entries, entry{text: "aborted at the memory cap", thumbs: []plot.Thumbnailer{swatch{abortedColour()}}})
		}
		if drawn {
			halo, dashed := ruleLines(nil)
			entries = append(entries, entry{text: "rule of thumb for naive retries:\nblip\u00a0= capacity\u00a0×\u00a0timeout\u00a0/\u00a0load", thumbs: []plot.Thumbnailer{halo, dashed}})
		}
		colourLegend(right, mode.label, scale, entries)
	}
	return figure{title: title, caption: caption(fs, more), draw: drawFn}, nil
}

// metric looks a metric up by its results.csv column in the grid
// (recovery_s if empty).
func metric(g *sweep.Grid, name string) (model.Metric, error) {
	if name == "" {
		name = "recovery_s"
	}
	m, ok := g.Metric(name)
	if !ok {
		return m, fmt.Errorf("%q is not a results.csv column", name)
	}
	return m, nil
}

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
func colourMode(m model.Metric, results []model.Result) mode {
	replicates := false
	for i := range results {
		replicates = replicates || results[i].Replicates > 1
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

// edges are the boundaries of the cells centred on xs (ascending): halfway
// between neighbours, and as far out again at both ends.
func edges(xs []float64) []float64 {
	n := len(xs)
	out := make([]float64, n+1)
	if n == 1 {
		out[0], out[1] = xs[0]-0.5, xs[0]+0.5
		return out
	}
	for i := 1; i < n; i++ {
		out[i] = (xs[i-1] + xs[i]) / 2
	}
	out[0] = xs[0] - (xs[1]-xs[0])/2
	out[n] = xs[n-1] + (xs[n-1]-xs[n-2])/2
	return out
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

// ruleCurve is the rule of thumb over a panel's x range: the blip length
// at which naive retries tip the system, the time a fault takes to build
// the backlog of a healthy dependency, as each cell's plan states it
// (model.Plan.RuleOfThumb). cells[i] is a cell of column i; with xIsLoad the
// load is the x value (sampled finely across each column), else the cell's
// own load.
func ruleCurve(cells []*sweep.Cell, xs, xe []float64, xIsLoad bool) plotter.XYs {
	var out plotter.XYs
	for i, c := range cells {
		if c == nil {
			continue
		}
		if !xIsLoad {
			y, _ := c.Plan.RuleOfThumb(c.Plan.Load)
			out = append(out, plotter.XY{X: xs[i], Y: y})
			continue
		}
		const steps = 16
		for k := 0; k <= steps; k++ {
			if k == 0 && i > 0 {
				continue // the previous column ended here
			}
			x := xe[i] + (xe[i+1]-xe[i])*float64(k)/steps
			if y, ok := c.Plan.RuleOfThumb(x); ok {
				out = append(out, plotter.XY{X: x, Y: y})
			}
		}
	}
	return out
}

// ruleOffAxis is the caption's sentence for a rule of thumb that lies
// beyond the values tried (where, "below the smallest"), with its values
// there; empty when there are none. In a figure that draws the rule in
// other panels, it speaks of "some panels".
func ruleOffAxis(values []float64, where, axis, limit string, drawn bool) string {
	if len(values) == 0 {
		return ""
	}
	v := secondsRange(values)
	if drawn {
		return fmt.Sprintf(" In some panels the rule of thumb, %s, lies %s %s tried (%s) and is not drawn.", v, where, axis, limit)
	}
	return fmt.Sprintf(" The rule of thumb for naive retries (blip ≈ capacity × timeout / load), %s, lies %s %s tried (%s) and is not drawn.", v, where, axis, limit)
}

// secondsRange writes the span of values in seconds: "0.42 s", "1.05–2.00 s".
func secondsRange(values []float64) string {
	lo, hi := Ratio(slices.Min(values)), Ratio(slices.Max(values))
	if lo == hi {
		return lo + " s"
	}
	return lo + "–" + hi + " s"
}

// ruleValues is the rule of thumb at the cells' own loads: the x value
// where it is the load, else the load of cells[i], the cell of column i.
func ruleValues(cells []*sweep.Cell, xs []float64, xIsLoad bool) []float64 {
	var out []float64
	for i, c := range cells {
		load := xs[i]
		if c == nil {
			continue
		}
		if !xIsLoad {
			load = c.Plan.Load
		}
		if y, ok := c.Plan.RuleOfThumb(load); ok && !math.IsInf(y, 0) {
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

// findings describe, per panel, the boundary between recovering and
// never-recovering cells and, with the rule of thumb over load, where the
// rule (blip ≈ capacity × timeout / load) parts from it; a table of
// tipping points follows, and the panels ranked by the area that never
// recovers. Panels of replicated cells are described by the share of runs
// that recover. A figure coloured by another metric has none.
func (phase) findings(d *data, f *spec.Figure) []string {
	if !aboutRecovery(f.Metric) {
		return nil // coloured by another metric
	}
	cells, results := d.cells, d.results
	names, groups := d.panels(f.Panel)
	var out []string
	for _, name := range names {
		idx := groups[name]
		if replicated(results, idx) {
			out = append(out, d.shareFindings(f, name, idx))
			continue
		}
		// The lowest Y that is stuck, per X; the cells still draining when
		// the run ends are told apart, not counted as tipped.
		tip := map[float64]float64{}
		var xs []float64
		ys := map[float64]bool{}
		var draining []int
		slowest, sx, sy := -1.0, 0.0, 0.0
		for _, i := range idx {
			x, _ := cells[i].Get(f.X)
			y, _ := cells[i].Get(f.Y)
			if _, seen := tip[x.Num]; !seen {
				tip[x.Num] = math.Inf(1)
				xs = append(xs, x.Num)
			}
			ys[y.Num] = true
			r := &results[i]
			switch {
			case r.Verdict == model.Stuck && y.Num < tip[x.Num]:
				tip[x.Num] = y.Num
			case r.Verdict == model.Draining:
				draining = append(draining, i)
			case r.Recovered() && r.RecoveryS > slowest:
				slowest, sx, sy = r.RecoveryS, x.Num, y.Num
			}
		}
		sort.Float64s(xs)
		ylist := make([]float64, 0, len(ys))
		for y := range ys {
			ylist = append(ylist, y)
		}
		sort.Float64s(ylist)
		label := "All cells"
		if name != "" {
			label = fmt.Sprintf("**%s**", name)
		}
		// Group the loads by the blip from which they never recover.
		var groupsByTip []string
		tipped := 0
		for i := 0; i < len(xs); {
			j := i
			for j < len(xs) && tip[xs[j]] == tip[xs[i]] {
				j++
			}
			switch t := tip[xs[i]]; {
			case t == ylist[0]:
				tipped += j - i
				groupsByTip = append(groupsByTip, fmt.Sprintf("from %s %s, the smallest tried, at %s %s", f.Y, d.text(f.Y, t), f.X, d.spans(f.X, xs[i:j])))
			case !math.IsInf(t, 1):
				tipped += j - i
				groupsByTip = append(groupsByTip, fmt.Sprintf("from %s %s at %s %s", f.Y, d.text(f.Y, t), f.X, d.spans(f.X, xs[i:j])))
			}
			i = j
		}
		drain := d.drainingSentence(f, draining)
		if tipped == 0 {
			s := fmt.Sprintf("%s: recovers in every cell", label)
			if len(draining) > 0 {
				s = fmt.Sprintf("%s: stuck in no cell", label)
			}
			if slowest >= 0 {
				s += fmt.Sprintf("; the slowest recovery is %s s, at %s %s and %s %s", Number(slowest), f.X, d.text(f.X, sx), f.Y, d.text(f.Y, sy))
			}
			out = append(out, s+"."+drain)
			continue
		}
		s := fmt.Sprintf("%s: stuck (never recovers) %s", label, strings.Join(sample(groupsByTip, 6), ", "))
		if tipped < len(xs) {
			s += fmt.Sprintf("; at the other %d values of %s it is stuck nowhere", len(xs)-tipped, f.X)
		}
		s += "." + drain
		if f.RuleOfThumb && f.X == "load" {
			s += " " + d.ruleComparison(f.Y, idx, xs, tip, ylist)
		}
		out = append(out, s)
	}
	if f.RuleOfThumb && f.X == "load" {
		out = append(out, d.tippingTable(f))
	}
	if len(names) > 1 {
		out = append(out, d.metastableRanking(f, names, groups))
	}
	return out
}

// drainingSentence says which cells were still draining when the run ended
// (unhealthy, the backlog still shrinking), with the slowest drain among
// them; empty when none was.
func (d *data) drainingSentence(f *spec.Figure, idx []int) string {
	if len(idx) == 0 {
		return ""
	}
	byX := map[float64][]float64{}
	var xs []float64
	slow := idx[0]
	for _, i := range idx {
		x, _ := d.cells[i].Get(f.X)
		y, _ := d.cells[i].Get(f.Y)
		if _, ok := byX[x.Num]; !ok {
			xs = append(xs, x.Num)
		}
		byX[x.Num] = append(byX[x.Num], y.Num)
		if slower(&d.results[i], &d.results[slow]) {
			slow = i
		}
	}
	sort.Float64s(xs)
	var where []string
	for _, x := range xs {
		ys := sorted(byX[x])
		where = append(where, fmt.Sprintf("%s %s at %s %s", f.X, d.text(f.X, x), f.Y, d.spans(f.Y, ys)))
	}
	x, _ := d.cells[slow].Get(f.X)
	y, _ := d.cells[slow].Get(f.Y)
	return fmt.Sprintf(" %d cell%s %s still draining when the run ends, unhealthy but not stuck (%s): slower than the run, not metastable; the slowest, at %s %s and %s %s, holds %s.",
		len(idx), plural(len(idx)), isAre(len(idx)), strings.Join(sample(where, 4), "; "), f.X, x.Text, f.Y, y.Text, Drain(&d.results[slow]))
}

// slower reports whether a draining run needs longer than b after the run
// to reach the healthy limit (or, without a limit, drains at a lower rate).
func slower(a, b *model.Result) bool {
	if !math.IsNaN(a.DrainLeftS) && !math.IsNaN(b.DrainLeftS) {
		return a.DrainLeftS > b.DrainLeftS
	}
	return a.DrainRate < b.DrainRate
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// metastableRanking ranks the panels by the area of their metastable
// region: the share of their cells that never recover (with replicates,
// the share of runs that never recover, averaged over the cells), least
// first, ties in panel order.
func (d *data) metastableRanking(f *spec.Figure, names []string, groups map[string][]int) string {
	type rank struct {
		name  string
		never float64 // cells (or runs, in cells) that never recover
		cells int
	}
	var ranks []rank
	replicates := false
	for _, n := range names {
		r := rank{name: n, cells: len(groups[n])}
		for _, i := range groups[n] {
			r.never += stuckShare(&d.results[i])
			replicates = replicates || d.results[i].Replicates > 1
		}
		ranks = append(ranks, r)
	}
	sort.SliceStable(ranks, func(i, j int) bool {
		return ranks[i].never/float64(ranks[i].cells) < ranks[j].never/float64(ranks[j].cells)
	})
	what := "cells that are stuck (never recover)"
	if replicates {
		what = "runs that never recover in stuck cells, as shares summed over the cells"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Panels ranked by the area of the metastable region, the share of the %s × %s grid that is stuck (cells still draining when the run ends do not count):\n\n| rank | %s | %s | share of the grid |\n|---|---|---|---|\n",
		axisName(f.X), axisName(f.Y), Escape(axisName(f.Panel)), what)
	for i, r := range ranks {
		fmt.Fprintf(&b, "| %d | %s | %s of %s | %s |\n", i+1, Escape(r.name), Number(r.never), Number(float64(r.cells)), fmt.Sprintf("%.0f%%", 100*r.never/float64(r.cells)))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// tippingTable lists, for a sample of loads, the rule of thumb's blip and
// the shortest blip that never recovers in each panel.
func (d *data) tippingTable(f *spec.Figure) string {
	cells, results := d.cells, d.results
	names, groups := d.panels(f.Panel)
	xAx, _ := d.g.Axis(f.X)
	xs := make([]float64, 0, len(xAx.Values))
	for _, v := range xAx.Values {
		xs = append(xs, v.Num)
	}
	sort.Float64s(xs)
	if len(xs) > 12 {
		var picked []float64
		for i := 0; i < 11; i++ {
			picked = append(picked, xs[i*(len(xs)-1)/10])
		}
		xs = picked[:11]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Shortest %s at which it is stuck (never recovers), by %s, beside the rule of thumb (capacity × timeout / load):\n\n| %s | rule of thumb |", f.Y, f.X, f.X)
	for _, n := range names {
		fmt.Fprintf(&b, " %s |", Escape(n))
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(names)) + "\n")
	for _, x := range xs {
		rule := "—"
		row := ""
		for _, n := range names {
			tip := math.Inf(1)
			for _, i := range groups[n] {
				xv, _ := cells[i].Get(f.X)
				if xv.Num != x {
					continue
				}
				if r, ok := cells[i].Plan.RuleOfThumb(x); ok {
					rule = Ratio(r) + " s"
				}
				if yv, _ := cells[i].Get(f.Y); results[i].Verdict == model.Stuck && yv.Num < tip {
					tip = yv.Num
				}
			}
			if math.IsInf(tip, 1) {
				row += " never stuck |"
			} else {
				row += fmt.Sprintf(" %s s |", Number(tip))
			}
		}
		fmt.Fprintf(&b, "| %s | %s |%s\n", Number(x), rule, row)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// ruleComparison compares the simulated boundary with the rule of thumb,
// saying only what the grid can show. The rule says the system tips once
// load × blip outgrows the backlog of a healthy dependency, so on the grid
// it predicts the shortest blip above that backlog / load. Where the
// simulation tips there, the rule holds to within the grid's spacing (the
// blip below recovers); where the smallest blip tried already tips, the
// grid cannot place the boundary at all; elsewhere it tips later or
// earlier than the rule.
func (d *data) ruleComparison(yAxis string, idx []int, xs []float64, tip map[float64]float64, ys []float64) string {
	p := d.cells[idx[0]].Plan
	var within, already, later, earlier []float64
	var withinText, laterText, earlierText []string
	var alreadyRule []float64
	for _, x := range xs {
		rule, ok := p.RuleOfThumb(x)
		if !ok || math.IsInf(tip[x], 1) {
			continue
		}
		pred := predictedTip(rule, ys)
		switch {
		case tip[x] == ys[0] && pred == ys[0]:
			already = append(already, x)
			alreadyRule = append(alreadyRule, rule)
		case tip[x] == pred:
			within = append(within, x)
			below := ys[slices.Index(ys, pred)-1]
			withinText = append(withinText, fmt.Sprintf("at load %s it recovers at %s and tips at %s, where the rule says %s s",
				Number(x), d.text(yAxis, below), d.text(yAxis, pred), Ratio(rule)))
		case tip[x] > pred:
			later = append(later, x)
			laterText = append(laterText, fmt.Sprintf("%s where it predicts %s", d.text(yAxis, tip[x]), d.text(yAxis, pred)))
		default:
			earlier = append(earlier, x)
			earlierText = append(earlierText, fmt.Sprintf("%s where it predicts %s", d.text(yAxis, tip[x]), d.text(yAxis, pred)))
		}
	}
	var parts []string
	if len(within) > 0 {
		parts = append(parts, fmt.Sprintf("tips at the first grid %s above the rule of thumb's value (%s × %v / load) at load %s: the rule holds there to within the grid's spacing (e.g. %s)",
			yAxis, Number(p.Capacity), p.EdgeTimeout, d.spans("load", within), withinText[len(withinText)/2]))
	}
	if len(already) > 0 {
		parts = append(parts, fmt.Sprintf("is already metastable at the smallest %s tried (%s) at load %s, so the grid can neither show where it tips nor test the rule of thumb, which puts the tipping point below it (%s × %v / load = %s)",
			yAxis, d.text(yAxis, ys[0]), d.spans("load", already), Number(p.Capacity), p.EdgeTimeout, secondsRange(alreadyRule)))
	}
	if len(later) > 0 {
		parts = append(parts, fmt.Sprintf("tips later than the rule at load %s (e.g. %s)", d.spans("load", later), laterText[0]))
	}
	if len(earlier) > 0 {
		parts = append(parts, fmt.Sprintf("tips earlier than the rule at load %s (e.g. %s)", d.spans("load", earlier), earlierText[0]))
	}
	if len(parts) == 0 {
		return ""
	}
	return "It " + strings.Join(parts, "; it ") + "."
}

// predictedTip is the shortest grid value above the rule's threshold.
func predictedTip(rule float64, ys []float64) float64 {
	for _, y := range ys {
		if y > rule+1e-9 {
			return y
		}
	}
	return math.Inf(1)
}

// shareFindings describes a panel of replicated cells: where every run
// recovered and where none did, as runs of X values with the Y values they
// hold for.
func (d *data) shareFindings(f *spec.Figure, name string, idx []int) string {
	cells, results := d.cells, d.results
	always, never, slow := map[float64][]float64{}, map[float64][]float64{}, map[float64][]float64{}
	var xs []float64
	seen := map[float64]bool{}
	for _, i := range idx {
		x, _ := cells[i].Get(f.X)
		y, _ := cells[i].Get(f.Y)
		if !seen[x.Num] {
			seen[x.Num] = true
			xs = append(xs, x.Num)
		}
		switch r := &results[i]; {
		case r.RecoveredShare == 1:
			always[x.Num] = append(always[x.Num], y.Num)
		case r.RecoveredShare == 0 && r.Verdict == model.Draining:
			slow[x.Num] = append(slow[x.Num], y.Num)
		case r.RecoveredShare == 0:
			never[x.Num] = append(never[x.Num], y.Num)
		}
	}
	sort.Float64s(xs)
	describe := func(set map[float64][]float64) string {
		var parts []string
		for i := 0; i < len(xs); {
			ys := set[xs[i]]
			sort.Float64s(ys)
			key := fmt.Sprint(ys)
			j := i + 1
			for j < len(xs) && fmt.Sprint(sorted(set[xs[j]])) == key {
				j++
			}
			if len(ys) > 0 {
				parts = append(parts, fmt.Sprintf("%s %s with %s %s", f.X, d.spans(f.X, xs[i:j]), f.Y, d.spans(f.Y, ys)))
			}
			i = j
		}
		return strings.Join(parts, "; ")
	}
	label := "All cells"
	if name != "" {
		label = fmt.Sprintf("**%s: %s**", strings.ReplaceAll(f.Panel, ".", " "), name)
	}
	n := results[idx[0]].Replicates
	var s []string
	if a := describe(always); a != "" {
		s = append(s, fmt.Sprintf("all %d runs recover at %s", n, a))
	}
	if nv := describe(never); nv != "" {
		s = append(s, fmt.Sprintf("none recovers at %s", nv))
	}
	if sl := describe(slow); sl != "" {
		s = append(s, fmt.Sprintf("none has recovered when the run ends, but none is stuck either (each still draining) at %s", sl))
	}
	if len(s) == 0 {
		return label + ": every cell has runs that recover and runs that do not."
	}
	mixed := len(idx)
	for _, ys := range always {
		mixed -= len(ys)
	}
	for _, ys := range never {
		mixed -= len(ys)
	}
	for _, ys := range slow {
		mixed -= len(ys)
	}
	if mixed > 0 {
		s = append(s, fmt.Sprintf("in the other %d cells some runs recover and some do not", mixed))
	}
	return label + ": " + strings.Join(s, "; ") + "."
}

func sorted(xs []float64) []float64 {
	out := append([]float64(nil), xs...)
	sort.Float64s(out)
	return out
}
