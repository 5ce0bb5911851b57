package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// Bar chart layout, in category widths and points.
const (
	groupWidth    = 0.8  // share of a category its bars fill when there are several
	singleWidth   = 0.6  // share of a category a lone bar fills
	barFill       = 0.9  // share of its slot a bar fills: a thin gap between neighbours
	maxLabelled   = 24   // most bars in a panel that get value labels
	maxLabelLines = 4    // most lines a category name may wrap onto before it is rotated
	labelPad      = 2.5  // points between a bar (or its error bar) and its value label
	valueSize     = 11.0 // value label type size before it shrinks to fit
)

// bars draws a metric as bars: a group per value of the X axis (in the
// axis's order, then the values only cells beside the grid have), a bar per
// value of the Line axis in each group, a panel per value of the Panel axis.
// A bar without a value (a recovery that never came) is hatched red and
// reaches a band at the top; replicated results are means with an error bar
// of one standard deviation; few bars carry their values. The axis of a
// share (0 to 1) has no ticks above 1, where only the labels have room.
type bars struct{}

func (bars) name() string { return "bars" }

func (bars) roles() []role { return []role{{key: "x", required: true}, {key: "line"}, {key: "panel"}} }

// cells are every cell, the ones beside the product too: their values
// become categories of their own.
func (bars) cells(g *sweep.Grid) []sweep.Cell { return g.Cells() }

func (bars) defaultName(f *spec.Figure) string { return joinNonEmpty("bars", f.X, f.Y) }

func (bars) findings(*data, *spec.Figure) []string { return nil }

func (bars) draw(d *data, f *spec.Figure) (figure, error) {
	ch, err := newBarChart(d, f)
	if err != nil {
		return figure{}, err
	}
	m := ch.m
	title := f.Title
	if title == "" {
		title = fmt.Sprintf("%s by %s", metricLabel(m), axisName(f.X))
		if f.Line != "" {
			title += " and " + axisName(f.Line)
		}
		title = capitalize(title)
	}
	fs := facts(d.cells)
	more := "Bar height: " + metricDoc(m) + "."
	if f.Line != "" {
		more = fmt.Sprintf("One group of bars per %s, one bar per %s; bar height: %s.", axisName(f.X), axisName(f.Line), metricDoc(m))
	}
	if ch.never {
		var docs []string
		for _, cs := range ch.noValueStates() {
			docs = append(docs, ch.neverDoc(cs))
		}
		more += " Hatched bars reaching the band at the top have no value: " + strings.Join(docs, "; ") + "."
	}
	if ch.replicated {
		more += " Bars are means over the seeded replicates"
		if ch.spread {
			more += "; error bars ± one standard deviation"
		}
		more += "."
	}
	if ch.partial {
		more += " (k/n) after a recovery time: k of n replicates recovered; the bar averages those."
	}

	var entries []entry
	if f.Line != "" {
		for l, v := range ch.lo.values {
			entries = append(entries, entry{text: v.Text, thumbs: []plot.Thumbnailer{swatch{lineColour(l)}}})
		}
	}
	for _, cs := range ch.noValueStates() {
		entries = append(entries, entry{text: ch.neverDoc(cs), thumbs: []plot.Thumbnailer{hatchThumb{hatchColour(cs)}}})
	}
	if ch.spread {
		entries = append(entries, entry{text: "± one standard deviation over the replicates", thumbs: []plot.Thumbnailer{whiskerThumb{}}})
	}
	legendTitle := ""
	if f.Line != "" {
		legendTitle = d.axisLabel(f.Line)
	}

	drawFn := func(c draw.Canvas) {
		body := header(c, title, subtitle(fs))
		left := body
		if len(entries) > 0 {
			right := draw.Crop(body, body.Max.X-body.Min.X-legendWidth, 0, 0, 0)
			left = draw.Crop(body, 0, -legendWidth-0.15*vg.Inch, 0, 0)
			drawLegend(right, legendTitle, entries)
		}
		panels, rows, cols := ch.panelPlots(d, f, left)
		drawTiled(left, panels, rows, cols)
	}
	return figure{title: title, caption: caption(fs, more), draw: drawFn}, nil
}

// barChart is a bars figure's data: its axes, and per panel the bars.
type barChart struct {
	m          model.Metric
	xo, lo, po axisOrder
	panels     [][]bar // per panel, in category then line order
	never      bool    // some bar has no value
	states     map[cellState]bool
	spread     bool // some bar has an error bar
	replicated bool // some result averages several replicates
	partial    bool // some recovery time averages only the replicates that recovered
}

// bar is one bar: a cell's value.
type bar struct {
	cat, line int     // index on the X and the Line axis
	v         float64 // the value; NaN when there is none
	sd        float64 // standard deviation over replicates; NaN for no error bar
	label     string  // the value as written on the bar
	short     string  // the same, compact, for narrow bars
	// state is, for a bar without a value, how its run ended (a recovery
	// time that never came: stuck, still draining, not judged); its hatch
	// takes that state's colour.
	state cellState
}

// newBarChart groups the cells into bars by their values on the X, Line and
// Panel axes. Values missing from the grid's axes (cells beside the grid)
// become extra categories; two cells that would be the same bar are an
// error.
func newBarChart(d *data, f *spec.Figure) (*barChart, error) {
	ch := &barChart{}
	var err error
	if ch.xo, err = d.categories(f.X); err != nil {
		return nil, err
	}
	if ch.lo, err = d.categories(f.Line); err != nil {
		return nil, err
	}
	if ch.po, err = d.categories(f.Panel); err != nil {
		return nil, err
	}
	if err := d.checkAxes("bars", f.X, f.Line, f.Panel); err != nil {
		return nil, err
	}
	if ch.m, err = metric(d.g, f.Metric); err != nil {
		return nil, err
	}
	ch.panels = make([][]bar, len(ch.po.values))
	seen := map[[3]int]int{} // panel, category, line → cell index
	for i := range d.cells {
		c, r := &d.cells[i], &d.results[i]
		key := [3]int{ch.po.of(c), ch.xo.of(c), ch.lo.of(c)}
		if j, ok := seen[key]; ok {
			return nil, sameBar(&d.cells[j], c, f.X, f.Line, f.Panel)
		}
		seen[key] = i
		b := ch.newBar(r)
		b.cat, b.line = key[1], key[2]
		ch.panels[key[0]] = append(ch.panels[key[0]], b)
	}
	for _, p := range ch.panels {
		slices.SortFunc(p, func(a, b bar) int { return (a.cat-b.cat)*len(ch.lo.values) + a.line - b.line })
	}
	return ch, nil
}

// newBar is the bar of one result.
func (ch *barChart) newBar(r *model.Result) bar {
	m := ch.m
	b := bar{v: m.Value(r), sd: math.NaN()}
	if m.Name == "recovery_s" && !r.Recovered() {
		b.state = stateOf(r.Verdict)
		if r.Replicates <= 1 {
			b.v = math.NaN()
		}
	}
	if math.IsInf(b.v, 0) {
		b.v = math.NaN()
	}
	if r.Replicates > 1 {
		ch.replicated = true
		if m.SD != nil && !math.IsNaN(b.v) {
			if sd := m.SD(r); !math.IsNaN(sd) && !math.IsInf(sd, 0) {
				b.sd = sd
				ch.spread = true
			}
		}
	}
	if math.IsNaN(b.v) {
		ch.never = true
		if ch.states == nil {
			ch.states = map[cellState]bool{}
		}
		ch.states[b.state] = true
		b.label, b.short = ch.noValueWord(b.state), ch.noValueWord(b.state)
		return b
	}
	b.state = valueCell
	b.label, b.short = valueText(m, b.v, false), valueText(m, b.v, true)
	if m.Name == "recovery_s" && r.Replicates > 1 && !r.Recovered() {
		ch.partial = true
		note := fmt.Sprintf(" (%d/%d)", int(math.Round(r.RecoveredShare*float64(r.Replicates))), r.Replicates)
		b.label += note
		b.short += note
	}
	return b
}

// neverWord labels the band bars without a value reach.
func (ch *barChart) neverWord() string {
	if ch.m.Name == "recovery_s" {
		return "none"
	}
	return "n/a"
}

// noValueWord labels a bar without a value: how its run ended, for a
// recovery time; "n/a" otherwise.
func (ch *barChart) noValueWord(cs cellState) string {
	switch {
	case ch.m.Name != "recovery_s":
		return "n/a"
	case cs == drainingCell:
		return "draining"
	case cs == notJudgedCell:
		return "not judged"
	}
	return "never"
}

// neverDoc says what a bar without a value in state cs means, for the
// legend and the caption.
func (ch *barChart) neverDoc(cs cellState) string {
	switch {
	case ch.m.Name != "recovery_s":
		return "no value"
	case cs == drainingCell:
		return "no recovery yet: still draining when the run ends"
	case cs == notJudgedCell:
		return "not judged: no request after the fault"
	case ch.replicated:
		return "no replicate recovers (stuck)"
	}
	return "stuck: never recovers"
}

// noValueStates are the states of the bars without a value, in legend
// order.
func (ch *barChart) noValueStates() []cellState {
	var out []cellState
	for _, cs := range []cellState{stuckCell, drainingCell, notJudgedCell, valueCell} {
		if ch.states[cs] {
			out = append(out, cs)
		}
	}
	return out
}

// sameBar is the error for two cells that would be drawn as one bar: it
// names the axes, not drawn, on which they differ.
func sameBar(a, b *sweep.Cell, drawn ...string) error {
	var differ []string
	for _, p := range a.Params {
		if v, _ := b.Get(p.Axis); v.Text != p.Text && !slices.Contains(drawn, p.Axis) {
			differ = append(differ, fmt.Sprintf("%s (%s and %s)", p.Axis, p.Text, v.Text))
		}
	}
	if len(differ) == 0 {
		return fmt.Errorf("cells %s and %s would be the same bar", a.Label(), b.Label())
	}
	return fmt.Errorf("cells %s and %s would be the same bar: they differ in %s; give the figure that axis (x, line or panel) or a range that keeps one value",
		a.Label(), b.Label(), strings.Join(differ, ", "))
}

// valueText writes a bar's value for a slide: counts as whole numbers with
// thousands separators, ratios with two decimals, seconds with an "s",
// booleans as yes or no. Compact writes large numbers as 12.3k or 6.29M.
func valueText(m model.Metric, v float64, compact bool) string {
	unit := ""
	if m.Kind == "seconds" {
		unit = "s"
	}
	if compact && math.Abs(v) >= 1e4 {
		return compactNum(v) + unit
	}
	whole := v == math.Trunc(v) || math.Abs(v) >= 100
	switch m.Kind {
	case "bool":
		switch v {
		case 0:
			return "no"
		case 1:
			return "yes"
		}
		return grouped(v, 2)
	case "count", "seconds":
		if whole {
			return grouped(v, 0) + unit
		}
		return grouped(v, 1) + unit
	}
	if math.Abs(v) >= 1000 {
		return grouped(v, 0)
	}
	return grouped(v, 2)
}

// grouped writes v with dec decimals and commas between thousands: 6,290,460.
func grouped(v float64, dec int) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', dec, 64)
	whole, frac, _ := strings.Cut(s, ".")
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	if frac != "" {
		whole += "." + frac
	}
	if v < 0 && strings.Trim(s, "0.") != "" {
		whole = "-" + whole
	}
	return whole
}

// compactNum writes a large number with three significant digits and a k
// or M suffix: 12.3k, 150k, 6.29M.
func compactNum(v float64) string {
	unit, x := "k", v/1e3
	if math.Abs(v) >= 1e6 {
		unit, x = "M", v/1e6
	}
	dec := 0
	switch a := math.Abs(x); {
	case a < 9.995:
		dec = 2
	case a < 99.95:
		dec = 1
	}
	s := strconv.FormatFloat(x, 'f', dec, 64)
	if dec > 0 {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s + unit
}

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
func (ch *barChart) panelPlots(d *data, f *spec.Figure, c draw.Canvas) ([]*plot.Plot, int, int) {
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
			pl.X.Label.Text = d.axisLabel(f.X)
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
			pl.Add(&hband{lo: yr.bandLo, hi: yr.ymax, fill: color.RGBA{R: 0xfb, G: 0xe3, B: 0xe3, A: 0xff}})
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
