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
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/experiments/tipping"
	"github.com/stormlab/stormlab/model"
)

// regions is the figure of a boundary search: the searched key up the y
// axis against a grid axis along x, a panel per value of another. Each
// column is one search, coloured by what the system does along the key:
// recovers below the boundary, never recovers above it, or is unhealthy
// without any fault at all (overloaded). The searched boundary is a line
// through the estimates, with its 95% interval for a stochastic engine,
// and the rule of thumb for naive retries is dashed beside it where it
// applies (an outage's length against the load, or the load against an
// outage's length).
type regions struct {
	g  *sweep.Grid
	t  *spec.Tipping
	ss []tipping.Search
	d  *data // the searches' first cells, for the axes' orders and labels
}

// Tipping draws the regions figure of each search of o that has an x axis,
// in the order of o's specs. A search whose other axes vary beyond its x
// and panel axes has no figure; notes say so, for the report.
func Tipping(g *sweep.Grid, o *tipping.Outcome) (figs []Figure, notes []string, err error) {
	for k := range o.Specs {
		t := &o.Specs[k]
		if len(o.Searches[k]) == 0 || t.X == "" && t.Panel == "" {
			continue
		}
		if t.X == "" { // the named values (policies) along x, a column each
			c := *t
			c.X, c.Panel = t.Panel, ""
			t = &c
		}
		r := regions{g: g, t: t, ss: o.Searches[k], d: &data{g: g}}
		for i := range r.ss {
			r.d.cells = append(r.d.cells, *r.ss[i].Cell)
		}
		if err := r.d.checkAxes("tipping", t.X, t.Panel, keyAxis(g, t)); err != nil {
			notes = append(notes, fmt.Sprintf("The search over %s has no figure: %v.", t.Key, err))
			continue
		}
		fig, err := r.draw()
		if err != nil {
			return nil, nil, fmt.Errorf("plots: figure %q: %w", t.Name, err)
		}
		enc, err := fig.encode(t.Name)
		if err != nil {
			return nil, nil, fmt.Errorf("plots: figure %q: %w", t.Name, err)
		}
		figs = append(figs, enc)
	}
	return figs, notes, nil
}

// keyAxis is the name of the grid axis over the searched key, "" if none.
func keyAxis(g *sweep.Grid, t *spec.Tipping) string {
	for _, ax := range g.Axes {
		if !ax.Named() && ax.Path == t.Path {
			return ax.Name
		}
	}
	return ""
}

func (r *regions) draw() (figure, error) {
	t := r.t
	o, err := r.d.orders(t.X, t.Panel)
	if err != nil {
		return figure{}, err
	}
	xo, po := o[0], o[1]
	xs := xo.nums()
	xp := xo.placement()
	categories := !numeric(xo.values)
	if categories {
		// Named values (policies) stand side by side, a column each.
		xp = placement{index: true, nums: make([]float64, len(xo.values))}
		for i := range xs {
			xs[i], xp.nums[i] = float64(i), float64(i)
		}
	}
	pxe := edges(xp.positions())
	xe := edges(xs)
	np, nx := len(po.values), len(xo.values)
	at := make([][]*tipping.Search, np) // panel, x → search
	for p := range at {
		at[p] = make([]*tipping.Search, nx)
	}
	for i := range r.ss {
		s := &r.ss[i]
		at[po.of(s.Cell)][xo.of(s.Cell)] = s
	}
	yAxis := r.yAxis(xs)
	exact := len(r.ss) > 0 && r.ss[0].Exact()

	var rules [][]plotter.XYs // per panel, its pieces in plot coordinates
	drawn := false
	seen := map[string]bool{}
	for p := range at {
		var pieces []plotter.XYs
		for _, c := range r.ruleCurve(at[p], xs, xe, xp.index) {
			if c = placeCurve(c, xp, placement{}); c != nil {
				drawn = true
				pieces = append(pieces, c)
			}
		}
		rules = append(rules, pieces)
		for _, s := range at[p] {
			if s != nil {
				seen[r.columnKind(s)] = true
			}
		}
	}

	title := t.Title
	if title == "" {
		title = capitalize(fmt.Sprintf("Tipping points: %s against %s", tipping.KeyLabel(t), axisName(t.X)))
	}
	fs := r.facts()
	more := []string{fmt.Sprintf("Each column is one search over %s from %s to %s, to within %s%s, with the other parameters at the column's values.",
		tipping.KeyLabel(t), keyText(t, t.From), keyText(t, t.To), keyText(t, t.Tolerance), exactNote(exact, t))}
	if exact {
		more = append(more, "Green: recovers after the fault; orange: never recovers, the backlog no longer shrinking when the run ends")
	} else {
		more = append(more, "Green: most runs recover after the fault; orange: at least half of them never recover")
	}
	if seen["draining"] {
		more[1] += "; yellow: still unhealthy when the run ends but draining, slower than the run"
	}
	if seen["overloaded"] {
		more[1] += "; grey: unhealthy without any fault (overloaded)"
	}
	if seen["unclear"] {
		more[1] += "; a purple band at the top: a non-monotone column, each point's verdict holding halfway to its neighbours"
	}
	more[1] += "."
	if exact {
		more = append(more, fmt.Sprintf("Line: %s.", tipping.Mildest(t, true)))
	} else {
		more = append(more, "Line: where half of the replicates tip; bars: its 95% interval (from the Wilson intervals of the points searched).")
	}
	if drawn {
		more = append(more, "Dashed: the rule of thumb for naive retries, blip ≈ capacity × timeout / load.")
	}
	if yAxis.cut {
		more = append(more, fmt.Sprintf("The y axis stops at %s; the search ran to %s.", keyText(t, yAxis.hi), keyText(t, t.To)))
	}
	if yAxis.log {
		more = append(more, "Log scale.")
	}
	if xp.index && !categories {
		more = append(more, notToScale(t.X))
	}

	rows, cols := tiling(np)
	drawFn := func(c draw.Canvas) {
		left, right := slide(c, title, fs)
		var panels []*plot.Plot
		for p := range po.values {
			pl := newPlot()
			pl.Title.Text = r.panelTitle(po.values[p])
			if categories {
				// Each name wrapped to its column's width, as bars do.
				w := (left.Max.X - left.Min.X) / vg.Length(cols) * 0.8 / vg.Length(nx)
				ticks, sty, _ := categoryTicks(xo, w)
				pl.X.Tick.Marker, pl.X.Tick.Label = ticks, sty
			} else if tk := xp.ticks(xo); tk != nil {
				pl.X.Tick.Marker = tk
			}
			yAxis.apply(pl)
			switch {
			case p+cols >= np && categories:
				pl.X.Label.Text = axisName(t.X)
			case p+cols >= np:
				pl.X.Label.Text = r.d.placedLabel(t.X, xp)
			default:
				pl.X.Tick.Marker = unlabelled{pl.X.Tick.Marker}
			}
			if p%cols == 0 {
				pl.Y.Label.Text = r.keyLabel()
			} else {
				pl.Y.Tick.Marker = unlabelled{pl.Y.Tick.Marker}
			}
			pl.X.Padding, pl.Y.Padding = 0, 0
			cols := make([][]segment, nx)
			for x, s := range at[p] {
				if s != nil {
					cols[x] = r.segments(s, yAxis)
				}
			}
			pl.Add(&columnsPlot{xe: pxe, cols: cols, lo: yAxis.lo, hi: yAxis.hi})
			var line plotter.XYs
			var bars []interval
			for x, s := range at[p] {
				if s == nil || math.IsNaN(s.Critical) {
					continue
				}
				line = append(line, plotter.XY{X: xp.at(xs[x]), Y: yAxis.clamp(s.Critical)})
				if !exact {
					bars = append(bars, interval{x: xp.at(xs[x]), lo: yAxis.clamp(orEnd(s.Lo, t.From)), hi: yAxis.clamp(orEnd(s.Hi, t.To))})
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
			pl.Y.Min, pl.Y.Max = yAxis.lo, yAxis.hi
			panels = append(panels, pl)
		}
		drawTiled(left, panels, rows, cols)

		entries := []entry{
			{text: "recovers after the fault", thumbs: []plot.Thumbnailer{swatch{recoversColour()}}},
			{text: "never recovers: stuck, the backlog no longer shrinks", thumbs: []plot.Thumbnailer{swatch{tipsColour()}}},
		}
		if !exact {
			entries[0].text = "most runs recover after the fault"
			entries[1].text = "at least half of the runs never recover"
		}
		if seen["draining"] {
			entries = append(entries, entry{text: "unhealthy when the run ends, still draining: slower than the run", thumbs: []plot.Thumbnailer{swatch{drainingColour()}}})
		}
		if seen["overloaded"] {
			entries = append(entries, entry{text: "overloaded: unhealthy without any fault", thumbs: []plot.Thumbnailer{swatch{overloadedColour()}}})
		}
		if seen["unclear"] {
			entries = append(entries, entry{text: "band at the top: a non-monotone column, coloured point by point", thumbs: []plot.Thumbnailer{swatch{unclearColour()}}})
		}
		if seen["aborted"] {
			entries = append(entries, entry{text: "aborted at the memory cap", thumbs: []plot.Thumbnailer{swatch{abortedColour()}}})
		}
		ls, gs := boundaryStyles()
		what := "searched boundary: " + tipping.Mildest(t, exact)
		if !exact {
			what = "searched boundary: half of the replicates tip"
		}
		thumbs := []plot.Thumbnailer{lineThumb{ls}, glyphThumb{gs}}
		if xp.index {
			thumbs = thumbs[1:]
		}
		entries = append(entries, entry{text: what, thumbs: thumbs})
		if !exact {
			entries = append(entries, entry{text: "95% interval of the boundary", thumbs: []plot.Thumbnailer{whiskerThumb{}}})
		}
		if drawn {
			halo, dashed := ruleLines(nil)
			entries = append(entries, entry{text: "rule of thumb for naive retries:\nblip\u00a0= capacity\u00a0×\u00a0timeout\u00a0/\u00a0load", thumbs: []plot.Thumbnailer{halo, dashed}})
		}
		drawLegend(right, r.regionWords("Regions, a column each: stable (all green), vulnerable (tips above the boundary), overloaded (grey)"), entries)
	}
	return figure{title: title, caption: caption(fs, more...), draw: drawFn}, nil
}

// slide lays a figure out on a slide: the title and the subtitle of the
// facts on top, the legend's column on the right, the panels' area on the
// left.
func slide(c draw.Canvas, title string, fs []string) (left, right draw.Canvas) {
	body := header(c, title, subtitle(fs))
	return draw.Crop(body, 0, -legendWidth-0.15*vg.Inch, 0, 0), draw.Crop(body, body.Max.X-body.Min.X-legendWidth, 0, 0, 0)
}

// panelTitle names a panel by its value on the panel axis; "" for one panel.
func (r *regions) panelTitle(v sweep.Value) string {
	if r.t.Panel == "" {
		return ""
	}
	return valueLabel(r.t.Panel, v)
}

// regionWords is what a legend entry adds about regions, for a search
// over a fault's key; empty for another key.
func (r *regions) regionWords(s string) string {
	if r.t.Trigger() {
		return s
	}
	return ""
}

// exactNote says how exact a deterministic search is.
func exactNote(exact bool, t *spec.Tipping) string {
	if exact && t.Duration {
		return " (the queue engine is deterministic: the answer is exact to that)"
	}
	if exact {
		return " (the queue engine is deterministic)"
	}
	return ""
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
func (r *regions) columnKind(s *tipping.Search) string {
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
// length): Health.Limit / x either way, the time a fault takes to build the
// backlog of a healthy dependency, or the load that builds it within the
// fault. One curve across the columns on a linear x axis; on an axis
// placed by index, where positions between values mean nothing, a level
// piece across each column at the column's own value. Nil when the rule
// does not apply.
func (r *regions) ruleCurve(col []*tipping.Search, xs, xe []float64, byIndex bool) []plotter.XYs {
	ax, _ := r.g.Axis(r.t.X)
	if ax == nil || !(r.t.Path == "load" && strings.HasSuffix(ax.Path, ".length") || r.t.Trigger() && ax.Path == "load") {
		return nil
	}
	var out []plotter.XYs
	var curve plotter.XYs
	for i, s := range col {
		if s == nil {
			continue
		}
		if _, ok := s.RuleOfThumb(); !ok {
			return nil
		}
		p := s.Cell.Plan
		if byIndex {
			if y, ok := p.RuleOfThumb(xs[i]); ok && xs[i] > 0 {
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
			if y, ok := p.RuleOfThumb(x); ok && x > 0 {
				curve = append(curve, plotter.XY{X: x, Y: y})
			}
		}
	}
	if len(curve) > 0 {
		out = append(out, curve)
	}
	return out
}

// keyLabel names the y axis: the key with its unit.
func (r *regions) keyLabel() string {
	label := tipping.KeyLabel(r.t)
	if r.t.Unit != "" {
		label += " (" + r.t.Unit + ")"
	}
	return label
}

// facts are the figure's subtitle: the searches' cells described as every
// figure describes its cells, with the searched key said to be searched.
func (r *regions) facts() []string {
	fs := facts(r.d.cells)
	t := r.t
	searched := fmt.Sprintf("%s searched from %s to %s", tipping.KeyLabel(t), keyText(t, t.From), keyText(t, t.To))
	if t.Unit != "" && !t.Duration {
		searched += " " + t.Unit
	}
	switch {
	case t.Path == "load":
		old := loadFact(r.d.cells)
		for i := range fs {
			if fs[i] == old {
				fs[i] = searched
			}
		}
	case t.Trigger():
		for _, old := range faultFacts(r.d.cells) {
			if i := slices.Index(fs, old); i >= 0 {
				fs[i] = r.faultSearched()
			}
		}
	default:
		fs = append(fs, searched)
	}
	return fs
}

// faultSearched describes the fault whose key is searched: "outage at
// 60s, length searched from 0s to 10m".
func (r *regions) faultSearched() string {
	t := r.t
	segs := strings.Split(t.Path, ".")
	sc := &r.d.cells[0].Scenario
	if len(segs) < 3 {
		return t.Key + " searched"
	}
	var j int
	fmt.Sscan(segs[1], &j)
	if j >= len(sc.Fault) {
		return t.Key + " searched"
	}
	f := sc.Fault[j]
	what := f.Kind
	switch segs[2] {
	case "length":
		return fmt.Sprintf("%s at %s, length searched from %s to %s", what, durText(f.Start), keyText(t, t.From), keyText(t, t.To))
	case "capacity":
		return fmt.Sprintf("%s at %s for %s, capacity left searched from %s to %s calls/s", what, durText(f.Start), durText(f.Length), keyText(t, t.From), keyText(t, t.To))
	case "factor":
		return fmt.Sprintf("%s at %s for %s, factor searched from ×%s to ×%s", what, durText(f.Start), durText(f.Length), keyText(t, t.From), keyText(t, t.To))
	}
	return fmt.Sprintf("%s at %s, %s searched from %s to %s", what, durText(f.Start), segs[2], keyText(t, t.From), keyText(t, t.To))
}

// valueText writes a value of the searched key: "10m", "2.5s", "42.1".
func keyText(t *spec.Tipping, x float64) string {
	if t.Duration {
		return durText(model.Seconds(x))
	}
	return formatNum(x)
}

// yAxis chooses the y axis: the whole range, linear; a log scale when the
// boundaries spread over an order of magnitude and more and the range runs
// far beyond them; the lower part of the range, linear, when every
// boundary lies low in it.
func (r *regions) yAxis(xs []float64) yScale {
	t := r.t
	lo, hi := math.Min(t.From, t.To), math.Max(t.From, t.To)
	var vals []float64
	monotone := true
	for i := range r.ss {
		s := &r.ss[i]
		monotone = monotone && s.Monotone()
		for _, v := range []float64{s.Critical, s.Lo, s.Hi} {
			if v > 0 && !math.IsNaN(v) {
				vals = append(vals, v)
			}
		}
		if rule, ok := s.RuleOfThumb(); ok && rule > 0 {
			vals = append(vals, rule)
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
