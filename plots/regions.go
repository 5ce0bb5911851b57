package plots

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/tipping"
)

// regions is the figure of a boundary search: the searched key up the y
// axis against a grid axis along x, a panel per value of another. Each
// column is one search, coloured by what the system does along the key:
// recovers below the boundary, never recovers above it, or is unhealthy
// without any fault at all (overloaded). The searched boundary is a line
// through the estimates, with its 95% interval for a stochastic engine,
// and the rule of thumb for naive retries is dashed beside it where it
// applies (an outage's length against the load, or the load against an
// outage's length). It is drawn from the experiment's boundary searches,
// not a [[figure]] (Tipping); its caption is in regions_text.go.
type regions struct {
	t    *spec.Tipping
	tab  *Table         // a row per search: the cell it started from
	cols []searchColumn // a column per search, in the rows' order

	// What draw lays out and the caption tells.
	exact, drawn bool
	chain        bool // the markov engine solved the points: the chain's verdicts
	categories   bool // x names configurations: a column each, side by side
	seen         map[string]bool
	y            yScale
	xp           placement
}

// searchColumn is one search: what it found, the rule of thumb at its
// other values, and its row.
type searchColumn struct {
	s      *tipping.Search // read for what it found, never for its cell
	rule   float64         // the rule of thumb in the key's unit (Search.RuleOfThumb)
	ruleOK bool
	row    *Row
}

// figure draws the regions figure, or says in a note why there is none.
func (r *regions) figure() (Figure, string, error) {
	if err := r.tab.checkAxes("tipping", r.t.X, r.t.Panel, r.keyAxis()); err != nil {
		return Figure{}, fmt.Sprintf("The search over %s has no figure: %v.", r.t.Key, err), nil
	}
	fig, err := r.draw()
	if err != nil {
		return Figure{}, "", err
	}
	out, err := fig.encode(r.t.Name)
	return out, "", err
}

// keyAxis is the name of the grid axis over the searched key, "" if none.
func (r *regions) keyAxis() string {
	for _, ax := range r.tab.Axes {
		if ax.Path != "" && ax.Path == r.t.Path {
			return ax.Name
		}
	}
	return ""
}

func (r *regions) draw() (figure, error) {
	t := r.t
	o, err := r.tab.orders(t.X, t.Panel)
	if err != nil {
		return figure{}, err
	}
	xo, po := o[0], o[1]
	xs := xo.nums()
	r.xp = xo.placement()
	r.categories = !numeric(xo.values)
	if r.categories {
		// Named values (policies) stand side by side, a column each.
		r.xp = placement{index: true, nums: make([]float64, len(xo.values))}
		for i := range xs {
			xs[i], r.xp.nums[i] = float64(i), float64(i)
		}
	}
	xp := r.xp
	pxe := edges(xp.positions())
	xe := edges(xs)
	np, nx := len(po.values), len(xo.values)
	at := make([][]*searchColumn, np) // panel, x → search
	for p := range at {
		at[p] = make([]*searchColumn, nx)
	}
	for i := range r.cols {
		c := &r.cols[i]
		at[po.of(c.row)][xo.of(c.row)] = c
	}
	r.y = r.yAxis()
	r.exact = len(r.cols) > 0 && r.cols[0].s.Exact()
	r.chain = len(r.cols) > 0 && r.cols[0].s.Chain()

	var rules [][]plotter.XYs // per panel, its pieces in plot coordinates
	r.seen = map[string]bool{}
	for p := range at {
		var pieces []plotter.XYs
		for _, c := range r.ruleCurve(at[p], xs, xe, xp.index) {
			if c = placeCurve(c, xp, placement{}); c != nil {
				r.drawn = true
				pieces = append(pieces, c)
			}
		}
		rules = append(rules, pieces)
		for _, c := range at[p] {
			if c != nil {
				seenKind := columnKind(c.s)
				r.seen[seenKind] = true
			}
		}
	}

	title := t.Title
	if title == "" {
		title = capitalize(fmt.Sprintf("Tipping points: %s against %s", tipping.KeyLabel(t), axisName(t.X)))
		if t.Service != "" {
			title = fmt.Sprintf("Tipping points of %s: %s against %s", t.Service, tipping.KeyLabel(t), axisName(t.X))
		}
	}
	fs := r.facts()
	y, exact := r.y, r.exact
	rows, cols := tiling(np)
	drawFn := func(c draw.Canvas) {
		left, right := slide(c, title, fs)
		var panels []*plot.Plot
		for p := range po.values {
			pl := newPlot()
			pl.Title.Text = r.panelTitle(po.values[p])
			if r.categories {
				// Each name wrapped to its column's width, as bars do.
				w := (left.Max.X - left.Min.X) / vg.Length(cols) * 0.8 / vg.Length(nx)
				ticks, sty, _ := categoryTicks(xo, w)
				pl.X.Tick.Marker, pl.X.Tick.Label = ticks, sty
			} else if tk := xp.ticks(xo); tk != nil {
				pl.X.Tick.Marker = tk
			}
			y.apply(pl)
			switch {
			case p+cols >= np && r.categories:
				pl.X.Label.Text = axisName(t.X)
			case p+cols >= np:
				pl.X.Label.Text = r.tab.placedLabel(t.X, xp)
			default:
				pl.X.Tick.Marker = unlabelled{pl.X.Tick.Marker}
			}
			if p%cols == 0 {
				pl.Y.Label.Text = r.keyLabel()
			} else {
				pl.Y.Tick.Marker = unlabelled{pl.Y.Tick.Marker}
			}
			pl.X.Padding, pl.Y.Padding = 0, 0
			segs := make([][]segment, nx)
			for x, c := range at[p] {
				if c != nil {
					segs[x] = r.segments(c.s, y)
				}
			}
			pl.Add(&columnsPlot{xe: pxe, cols: segs, lo: y.lo, hi: y.hi})
			var line plotter.XYs
			var bars []interval
			for x, c := range at[p] {
				if c == nil || math.IsNaN(c.s.Critical) {
					continue
				}
				s := c.s
				line = append(line, plotter.XY{X: xp.at(xs[x]), Y: y.clamp(s.Critical)})
				if !exact {
					bars = append(bars, interval{x: xp.at(xs[x]), lo: y.clamp(orEnd(s.Lo, t.From)), hi: y.clamp(orEnd(s.Hi, t.To))})
				}
			}
			for _, c := range rules[p] {
				halo, dashed := ruleLines(c)
				pl.Add(overlay{halo}, overlay{dashed})
			}
			if len(bars) > 0 {
				pl.Add(overlay{&intervalsPlot{bars: bars}})
			}
			if len(line) > 0 {
				ls, gs := boundaryStyles()
				if !xp.index { // between values placed by index a line means nothing
					pl.Add(overlay{&plotter.Line{XYs: line, LineStyle: ls}})
				}
				pl.Add(overlay{&plotter.Scatter{XYs: line, GlyphStyle: gs}})
			}
			pl.X.Min, pl.X.Max = pxe[0], pxe[nx]
			pl.Y.Min, pl.Y.Max = y.lo, y.hi
			panels = append(panels, pl)
		}
		drawTiled(left, panels, rows, cols)
		drawLegend(right, r.regionWords("Regions, a column each: stable (all green), vulnerable (tips above the boundary), overloaded (grey)"), r.legend())
	}
	return figure{title: title, caption: caption(fs, r.caption()...), draw: drawFn}, nil
}

// legend is the legend's entries: the colours of the columns, the
// boundary, its interval and the rule of thumb.
func (r *regions) legend() []entry {
	exact := r.exact
	entries := []entry{
		{text: "recovers after the fault", thumbs: []plot.Thumbnailer{swatch{recoversColour()}}},
		{text: "never recovers: stuck, the backlog no longer shrinks", thumbs: []plot.Thumbnailer{swatch{tipsColour()}}},
	}
	switch {
	case r.chain:
		entries[0].text = "the chain is healthy"
		entries[1].text = "not healthy: metastable or overloaded"
	case !exact:
		entries[0].text = "most runs recover after the fault"
		entries[1].text = "at least half of the runs never recover"
	}
	if r.seen["draining"] {
		entries = append(entries, entry{text: "unhealthy when the run ends, still draining: slower than the run", thumbs: []plot.Thumbnailer{swatch{drainingColour()}}})
	}
	if r.seen["overloaded"] {
		entries = append(entries, entry{text: "overloaded: unhealthy without any fault", thumbs: []plot.Thumbnailer{swatch{overloadedColour()}}})
	}
	if r.seen["unclear"] {
		entries = append(entries, entry{text: "band at the top: a non-monotone column, coloured point by point", thumbs: []plot.Thumbnailer{swatch{unclearColour()}}})
	}
	if r.seen["aborted"] {
		entries = append(entries, entry{text: abortedCell.legend(), thumbs: []plot.Thumbnailer{swatch{abortedColour()}}})
	}
	ls, gs := boundaryStyles()
	what := "searched boundary: " + tipping.Mildest(r.t, exact)
	if !exact {
		what = "searched boundary: half of the replicates tip"
	}
	thumbs := []plot.Thumbnailer{lineThumb{ls}, glyphThumb{gs}}
	if r.xp.index {
		thumbs = thumbs[1:]
	}
	entries = append(entries, entry{text: what, thumbs: thumbs})
	if !exact {
		entries = append(entries, entry{text: "95% interval of the boundary", thumbs: []plot.Thumbnailer{whiskerThumb{}}})
	}
	if r.drawn {
		halo, dashed := ruleLines(nil)
		entries = append(entries, entry{text: ruleLegend, thumbs: []plot.Thumbnailer{halo, dashed}})
	}
	return entries
}

// orEnd is x, or the range's end when x is NaN (an interval open on that
// side).
func orEnd(x, end float64) float64 {
	if math.IsNaN(x) {
		return end
	}
	return x
}

// columnKind is what a search's column shows, for the legend.
func columnKind(s *tipping.Search) string {
	switch s.Status {
	case tipping.Overloaded:
		return "overloaded"
	case tipping.NonMonotone:
		return "unclear"
	case tipping.Aborted:
		return "aborted"
	}
	if s.End != nil && s.End.Draining {
		return "draining"
	}
	return "plain"
}

// segments colours one search's column from the mild end to the severe
// end of the axis shown.
func (r *regions) segments(s *tipping.Search, y yScale) []segment {
	t := r.t
	lo, hi := y.lo, y.hi
	switch s.Status {
	case tipping.Overloaded:
		return []segment{{lo, hi, overloadedColour()}}
	case tipping.Aborted:
		return []segment{{lo, hi, abortedColour()}}
	case tipping.Nothing:
		return []segment{{lo, hi, recoversColour()}}
	case tipping.Already:
		return []segment{{lo, hi, tipsColour()}}
	case tipping.Found:
		b := y.clamp(s.Critical)
		fill := tipsColour()
		if s.End != nil && s.End.Draining {
			fill = drainingColour()
		}
		mild, severe := segment{lo, b, recoversColour()}, segment{b, hi, fill}
		if t.To < t.From {
			mild, severe = segment{b, hi, recoversColour()}, segment{lo, b, fill}
		}
		return []segment{mild, severe}
	}
	// Non-monotone: each point's verdict holds halfway to its neighbours.
	var out []segment
	for i, e := range s.Evals {
		a, b := lo, hi
		if i > 0 {
			a = (s.Evals[i-1].Value + e.Value) / 2
		}
		if i+1 < len(s.Evals) {
			b = (s.Evals[i+1].Value + e.Value) / 2
		}
		fill := recoversColour()
		if e.Tips() {
			fill = tipsColour()
		}
		a, b = y.clamp(a), y.clamp(b)
		out = append(out, segment{min(a, b), max(a, b), fill})
	}
	// A band across the top marks the column as non-monotone.
	return append(out, segment{y.below(0.05), hi, unclearColour()})
}

// ruleCurve is the rule of thumb across a panel's columns, in the axes'
// units: the blip that tips naive retries at each load (y a fault's length,
// x the load), or the load that a blip tips (y the load, x a fault's
// length): the healthy backlog / x either way, the time a fault takes to
// build the backlog of a healthy dependency, or the load that builds it
// within the fault. One curve across the columns on a linear x axis; on an
// axis placed by index, where positions between values mean nothing, a
// level piece across each column at the column's own value. Nil when the
// rule does not apply.
func (r *regions) ruleCurve(col []*searchColumn, xs, xe []float64, byIndex bool) []plotter.XYs {
	ax, _ := r.tab.axis(r.t.X)
	if ax == nil || !(r.t.Path == "load" && strings.HasSuffix(ax.Path, ".length") || r.t.Trigger() && ax.Path == "load") {
		return nil
	}
	var out []plotter.XYs
	var curve plotter.XYs
	for i, c := range col {
		if c == nil {
			continue
		}
		if !c.ruleOK {
			return nil
		}
		p := &c.row.Facts
		if byIndex {
			if y, ok := p.rule(xs[i]); ok && xs[i] > 0 {
				out = append(out, plotter.XYs{{X: xe[i], Y: y}, {X: xe[i+1], Y: y}})
			}
			continue
		}
		const steps = 16
		for k := 0; k <= steps; k++ {
			if k == 0 && i > 0 {
				continue
			}
			x := xe[i] + (xe[i+1]-xe[i])*float64(k)/steps
			if y, ok := p.rule(x); ok && x > 0 {
				curve = append(curve, plotter.XY{X: x, Y: y})
			}
		}
	}
	if len(curve) > 0 {
		out = append(out, curve)
	}
	return out
}

// yAxis chooses the y axis: the whole range, linear; a log scale when the
// boundaries spread over an order of magnitude and more and the range runs
// far beyond them; the lower part of the range, linear, when every
// boundary lies low in it.
func (r *regions) yAxis() yScale {
	t := r.t
	lo, hi := math.Min(t.From, t.To), math.Max(t.From, t.To)
	var vals []float64
	monotone := true
	for i := range r.cols {
		c := &r.cols[i]
		monotone = monotone && c.s.Monotone()
		for _, v := range []float64{c.s.Critical, c.s.Lo, c.s.Hi} {
			if v > 0 && !math.IsNaN(v) {
				vals = append(vals, v)
			}
		}
		if c.ruleOK && c.rule > 0 {
			vals = append(vals, c.rule)
		}
	}
	if len(vals) == 0 || t.To < t.From || lo < 0 {
		return yScale{lo: lo, hi: hi}
	}
	vmin, vmax := slices.Min(vals), slices.Max(vals)
	switch {
	case vmax/vmin > 6 && hi/vmin > 50:
		return yScale{lo: niceFloor(math.Min(vmin/1.2, t.Tolerance)), hi: hi, log: true}
	case monotone && vmax < 0.3*(hi-lo):
		return yScale{lo: lo, hi: niceCeil(1.5 * vmax), cut: true}
	}
	return yScale{lo: lo, hi: hi}
}
