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

// collapse draws first-passage times: how long a system without a fault
// runs before it first turns unhealthy (collapse_s), against a numeric axis
// (the load), one line per value of the line axis. Left, on a log scale:
// the mean time to collapse estimated from every replicate, those that
// never collapsed counted as running the whole run without (see mttc), and
// the mean over the replicates that collapsed with a whisker from the 10th
// to the 90th percentile of their times. Right: the share of replicates
// that collapsed within the run, and the share still unhealthy at its end.
// Its title, caption and findings are in collapse_text.go.
type collapse struct{}

func (collapse) defaultName(f *spec.Figure) string { return joinNonEmpty("collapse", f.X) }

// mttc estimates the mean time to collapse of a cell from all its
// replicates, as for a constant hazard: the time the replicates ran
// healthy (to their collapse, or to the end of the run for those that never
// collapsed) over the collapses. Where every replicate collapsed it is the
// mean time to collapse; where some did not, it is larger than the mean
// over those that did, which leaves out the longest waits. NaN when none
// collapsed.
func mttc(r *model.Result, runS float64) float64 {
	n := float64(r.Replicates)
	k := math.Round(r.Spread.Collapsed * n)
	if k == 0 {
		return math.NaN()
	}
	return (k*r.CollapseS + (n-k)*runS) / k
}

// collapsePoint is one cell of a collapse figure.
type collapsePoint struct {
	x, mean, p10, p90, est float64
	collapsed, stuck       float64 // shares of replicates: collapsed within the run, unhealthy at its end
	n                      int
	runS                   float64
}

// collapseLines reads the figure's cells into points per line, in x order.
func (t *Table) collapseLines(f *spec.Figure) (xo, lo axisOrder, pts [][]*collapsePoint, err error) {
	o, err := t.orders(f.X, f.Line)
	if err != nil {
		return xo, lo, nil, err
	}
	xo, lo = o[0], o[1]
	if !numeric(xo.values) {
		return xo, lo, nil, fmt.Errorf("a collapse figure needs a numeric x axis, got %q", f.X)
	}
	pts = make([][]*collapsePoint, len(lo.values))
	for l := range pts {
		pts[l] = make([]*collapsePoint, len(xo.values))
	}
	for i := range t.Rows {
		c, r := &t.Rows[i], &t.Rows[i].Result
		runS := c.Facts.Run.Seconds()
		p := &collapsePoint{x: xo.values[xo.of(c)].Num, mean: r.CollapseS, p10: r.Spread.CollapseP10, p90: r.Spread.CollapseP90,
			est: mttc(r, runS), collapsed: r.Spread.Collapsed, stuck: 1 - r.RecoveredShare, n: r.Replicates, runS: runS}
		if r.Replicates == 1 {
			p.stuck = 1
			if r.Recovered() {
				p.stuck = 0
			}
		}
		pts[lo.of(c)][xo.of(c)] = p
	}
	return xo, lo, pts, nil
}

func (collapse) draw(t *Table, f *spec.Figure) (figure, error) {
	xo, lo, pts, err := t.collapseLines(f)
	if err != nil {
		return figure{}, err
	}
	if err := t.checkAxes("collapse", f.X, f.Line); err != nil {
		return figure{}, err
	}
	// The log scale spans every time drawn, whole decades.
	tlo, thi := math.Inf(1), math.Inf(-1)
	runS := 0.0
	for _, line := range pts {
		for _, p := range line {
			if p == nil {
				continue
			}
			runS = max(runS, p.runS)
			for _, v := range []float64{p.mean, p.p10, p.p90, p.est} {
				if v > 0 && !math.IsNaN(v) {
					tlo, thi = math.Min(tlo, v), math.Max(thi, v)
				}
			}
		}
	}
	if tlo > thi {
		tlo, thi = 1, runS
	}
	ylo, yhi := math.Floor(math.Log10(tlo)), math.Ceil(math.Log10(thi))
	if yhi <= ylo {
		yhi = ylo + 1
	}
	title := collapseTitle(f)
	fs := facts(t.Rows)
	more := collapseCaption(f)
	drawFn := func(c draw.Canvas) {
		body := header(c, title, subtitle(fs))
		right := draw.Crop(body, body.Max.X-body.Min.X-legendWidth, 0, 0, 0)
		left := draw.Crop(body, 0, -legendWidth-0.15*vg.Inch, 0, 0)
		tp, sp := newPlot(), newPlot()
		tp.Title.Text, sp.Title.Text = "time to collapse", "replicates that collapsed"
		tp.Y.Label.Text = "time to collapse (s)"
		sp.Y.Label.Text = "share of replicates"
		xs := xo.nums()
		pad := 0.04 * (xs[len(xs)-1] - xs[0])
		for _, p := range []*plot.Plot{tp, sp} {
			p.X.Min, p.X.Max = xs[0]-pad, xs[len(xs)-1]+pad
			p.X.Label.Text = t.axisLabel(f.X)
			p.Add(plotter.NewGrid())
			if t := valueTicks(xo); t != nil {
				p.X.Tick.Marker = t
			}
		}
		tp.Y.Min, tp.Y.Max = ylo, yhi
		tp.Y.Tick.Marker = expTicks{}
		sp.Y.Min, sp.Y.Max = 0, 1.05
		sp.Y.Tick.Marker = upTo{Ticker: niceTicks{}, max: 1}
		for l, line := range pts {
			col := lineColour(l)
			solid := draw.LineStyle{Color: col, Width: vg.Points(lineWidth)}
			dotted := draw.LineStyle{Color: col, Width: vg.Points(lineWidth), Dashes: []vg.Length{vg.Points(2), vg.Points(3)}}
			var mean, est, share, stuck plotter.XYs
			for _, p := range line {
				if p == nil {
					continue
				}
				share = append(share, plotter.XY{X: p.x, Y: p.collapsed})
				stuck = append(stuck, plotter.XY{X: p.x, Y: p.stuck})
				if math.IsNaN(p.mean) {
					continue
				}
				mean = append(mean, plotter.XY{X: p.x, Y: math.Log10(p.mean)})
				est = append(est, plotter.XY{X: p.x, Y: math.Log10(p.est)})
				if p.n > 1 && p.p90 > 0 {
					tp.Add(&plotter.Line{XYs: plotter.XYs{{X: p.x, Y: math.Log10(math.Max(p.p10, 1e-9))}, {X: p.x, Y: math.Log10(p.p90)}},
						LineStyle: draw.LineStyle{Color: col, Width: vg.Points(1.6)}})
				}
			}
			if len(est) > 1 {
				tp.Add(&plotter.Line{XYs: est, LineStyle: solid})
			}
			if len(est) > 0 {
				tp.Add(&plotter.Scatter{XYs: est, GlyphStyle: draw.GlyphStyle{Color: col, Radius: vg.Points(4.5), Shape: draw.CircleGlyph{}}})
			}
			if len(mean) > 0 {
				tp.Add(&plotter.Scatter{XYs: mean, GlyphStyle: draw.GlyphStyle{Color: col, Radius: vg.Points(5), Shape: draw.RingGlyph{}}})
			}
			sp.Add(&plotter.Line{XYs: share, LineStyle: solid}, &plotter.Line{XYs: stuck, LineStyle: dotted})
		}
		drawTiled(left, []*plot.Plot{tp, sp}, 1, 2)
		var entries []entry
		for l, v := range lo.values {
			text := v.Text
			if f.Line == "" {
				text = "the system"
			}
			entries = append(entries, entry{text: text, thumbs: []plot.Thumbnailer{lineThumb{draw.LineStyle{Color: lineColour(l), Width: vg.Points(lineWidth)}}}})
		}
		grey := color.Gray{Y: 0x50}
		entries = append(entries,
			entry{text: "mean time to collapse, every replicate (time healthy ÷ collapses)", thumbs: []plot.Thumbnailer{lineThumb{draw.LineStyle{Color: grey, Width: vg.Points(lineWidth)}}, glyphThumb{draw.GlyphStyle{Color: grey, Radius: vg.Points(4.5), Shape: draw.CircleGlyph{}}}}},
			entry{text: "mean of the replicates that collapsed, and their 10th–90th percentile", thumbs: []plot.Thumbnailer{glyphThumb{draw.GlyphStyle{Color: grey, Radius: vg.Points(5), Shape: draw.RingGlyph{}}}}},
			entry{text: "share unhealthy at the end of the run", thumbs: []plot.Thumbnailer{lineThumb{draw.LineStyle{Color: grey, Width: vg.Points(lineWidth), Dashes: []vg.Length{vg.Points(2), vg.Points(3)}}}}})
		title := t.axisLabel(f.Line)
		if f.Line == "" {
			title = ""
		}
		drawLegend(right, title, entries)
	}
	return figure{title: title, caption: caption(fs, more), draw: drawFn}, nil
}
