package plots

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/stormlab/stormlab/experiments/spec"
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
// share (0 to 1) has no ticks above 1, where only the labels have room. Its
// title and caption are in bars_text.go, its layout in bars_layout.go.
type bars struct{}

func (bars) defaultName(f *spec.Figure) string { return joinNonEmpty("bars", f.X, f.Y) }

func (bars) findings(*Table, *spec.Figure) []string { return nil }

func (bars) draw(t *Table, f *spec.Figure) (figure, error) {
	ch, err := newBarChart(t, f)
	if err != nil {
		return figure{}, err
	}
	fs := facts(t.Rows)
	title := ch.title(f)
	entries := ch.legend(f)
	legendTitle := ""
	if f.Line != "" {
		legendTitle = t.axisLabel(f.Line)
	}
	drawFn := func(c draw.Canvas) {
		body := header(c, title, subtitle(fs))
		left := body
		if len(entries) > 0 {
			right := draw.Crop(body, body.Max.X-body.Min.X-legendWidth, 0, 0, 0)
			left = draw.Crop(body, 0, -legendWidth-0.15*vg.Inch, 0, 0)
			drawLegend(right, legendTitle, entries)
		}
		panels, rows, cols := ch.panelPlots(t, f, left)
		drawTiled(left, panels, rows, cols)
	}
	return figure{title: title, caption: caption(fs, ch.caption(f)), draw: drawFn}, nil
}

// legend is the legend's entries: a colour per line, the bars without a
// value by how their runs ended, the error bars.
func (ch *barChart) legend(f *spec.Figure) []entry {
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
	return entries
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
func newBarChart(t *Table, f *spec.Figure) (*barChart, error) {
	ch := &barChart{}
	var err error
	if ch.xo, err = t.categories(f.X); err != nil {
		return nil, err
	}
	if ch.lo, err = t.categories(f.Line); err != nil {
		return nil, err
	}
	if ch.po, err = t.categories(f.Panel); err != nil {
		return nil, err
	}
	if err := t.checkAxes("bars", f.X, f.Line, f.Panel); err != nil {
		return nil, err
	}
	if ch.m, err = t.metric(f.Metric); err != nil {
		return nil, err
	}
	ch.panels = make([][]bar, len(ch.po.values))
	seen := map[[3]int]int{} // panel, category, line → cell index
	for i := range t.Rows {
		c, r := &t.Rows[i], &t.Rows[i].Result
		key := [3]int{ch.po.of(c), ch.xo.of(c), ch.lo.of(c)}
		if j, ok := seen[key]; ok {
			return nil, sameBar(&t.Rows[j], c, f.X, f.Line, f.Panel)
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

// sameBar is the error for two cells that would be drawn as one bar: it
// names the axes, not drawn, on which they differ.
func sameBar(a, b *Row, drawn ...string) error {
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
