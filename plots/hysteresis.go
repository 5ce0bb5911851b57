package plots

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/stormlab/stormlab/experiments/spec"
)

// hysteresis draws what a load ramp up and back down does to every cell
// that recorded a series under a load shape that rises, then falls:
// goodput (left) and the share of replicates healthy (right) against the
// load offered at each second, the way up solid and the way down dashed;
// for a cell of several replicates, their means. Where the two ways part
// the system has two states at one load. The load at which it tipped
// (collapse_load) and the one at which it came back (recovery_load), means
// over the replicates, are marked on the goodput curves. Its caption and
// findings are in hysteresis_text.go.
type hysteresis struct{}

func (hysteresis) defaultName(*spec.Figure) string { return "hysteresis" }

// leg is one direction of a ramp in one cell: per second, the load offered,
// the goodput and the share of replicates healthy (0 or 1 for one run).
type leg struct {
	load, goodput, healthy []float64
}

// loop is one cell's ramp: the way up to the peak load and back down, and
// the loads at which it tips and comes back (NaN: it does not).
type loop struct {
	up, down      leg
	peak          float64 // the highest load offered
	tip, back     float64 // collapse_load and recovery_load: means over the replicates
	tipSD, backSD float64
	backShare     float64 // share of the replicates that came back
	end           float64 // the load at the end of the run
	replicates    int
	upMid, dnMid  float64 // goodput on each way at the load halfway between back and tip
	mid           float64
}

// loopOf reads one cell's ramp from its series, or from the means over its
// replicates when it ran several.
func loopOf(c *Row) (*loop, error) {
	r := &c.Result
	s := r.Series
	if s == nil || len(s.Rows) < 2 {
		return nil, fmt.Errorf("cell %s recorded no time series; set series = true in the experiment", c.Label())
	}
	if c.Offered == nil {
		return nil, fmt.Errorf("cell %s has a constant load; a hysteresis figure needs a load shape that rises and then falls (shape = [{ at, load }, ...])", c.Label())
	}
	n := len(s.Rows)
	load := make([]float64, n)
	goodput, healthy := make([]float64, n), make([]float64, n)
	for j, row := range s.Rows {
		load[j] = c.Offered[j]
		goodput[j] = row.Successes / s.Step
		if !row.Unhealthy {
			healthy[j] = 1
		}
	}
	l := &loop{replicates: 1, tip: r.CollapseLoad, back: r.RecoveryLoad, tipSD: r.SD.CollapseLoad, backSD: r.SD.RecoveryLoad,
		backShare: r.RecoveredShare, mid: math.NaN(), upMid: math.NaN(), dnMid: math.NaN()}
	if b := r.Band; b != nil && len(b.T) == n {
		g, _, _, _ := b.Column("successes")
		h, _, _, _ := b.Column("healthy")
		for j := range n {
			goodput[j], healthy[j] = g[j]/s.Step, h[j]
		}
		l.replicates = b.Replicates
	}
	top := 0
	for j := range load {
		if load[j] > load[top] {
			top = j
		}
	}
	if top == 0 || top == n-1 || load[n-1] >= load[top] {
		return nil, fmt.Errorf("cell %s: its load does not rise and then fall within the run; a hysteresis figure needs a ramp up and back down", c.Label())
	}
	cut := func(a, b int) leg {
		return leg{load: load[a:b], goodput: goodput[a:b], healthy: healthy[a:b]}
	}
	l.up, l.down = cut(0, top+1), cut(top, n)
	l.peak, l.end = load[top], load[n-1]
	if !math.IsNaN(l.tip) && !math.IsNaN(l.back) && l.back < l.tip {
		l.mid = (l.tip + l.back) / 2
		l.upMid, l.dnMid = at(l.up, l.mid, l.up.goodput), at(l.down, l.mid, l.down.goodput)
	}
	return l, nil
}

// at is a leg's value (ys, one per second of the leg) at the second whose
// load is nearest x.
func at(g leg, x float64, ys []float64) float64 {
	best, v := math.Inf(1), math.NaN()
	for j, l := range g.load {
		if d := math.Abs(l - x); d < best {
			best, v = d, ys[j]
		}
	}
	return v
}

// loops reads the ramps of the rows that recorded a series.
func (t *Table) loops() ([]*loop, []Row, error) {
	var out []*loop
	var cells []Row
	for i := range t.Rows {
		if t.Rows[i].Result.Series == nil {
			continue
		}
		l, err := loopOf(&t.Rows[i])
		if err != nil {
			return nil, nil, err
		}
		out = append(out, l)
		cells = append(cells, t.Rows[i])
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("no cell recorded a time series; set series = true (or series = { axis = [values] }) in the experiment")
	}
	return out, cells, nil
}

func (hysteresis) draw(t *Table, f *spec.Figure) (figure, error) {
	loops, cells, err := t.loops()
	if err != nil {
		return figure{}, err
	}
	axes := t.varying(cells)
	title := f.Title
	if title == "" {
		title = "Goodput on a load ramp up and back down"
	}
	fs := facts(cells)
	more := hysteresisCaption(loops)
	xmax, ymax := 0.0, 0.0
	for _, l := range loops {
		xmax = max(xmax, l.peak)
		for _, g := range []leg{l.up, l.down} {
			ymax = max(ymax, peakOf(g.goodput))
		}
	}
	xmax = niceCeil(xmax * 1.02)
	ymax = niceCeil(ymax * 1.1)

	drawFn := func(c draw.Canvas) {
		body := header(c, title, subtitle(fs))
		right := draw.Crop(body, body.Max.X-body.Min.X-legendWidth, 0, 0, 0)
		left := draw.Crop(body, 0, -legendWidth-0.15*vg.Inch, 0, 0)
		gp, hp := newPlot(), newPlot()
		gp.Title.Text, hp.Title.Text = "goodput", "healthy"
		gp.Y.Label.Text = "goodput (requests/s answered with a success)"
		hp.Y.Label.Text = "share of replicates healthy"
		if loops[0].replicates == 1 {
			hp.Y.Label.Text = "healthy (1) or not (0)"
		}
		for _, p := range []*plot.Plot{gp, hp} {
			p.X.Label.Text = "load offered (new requests/s)"
			p.Add(plotter.NewGrid())
			p.X.Min, p.X.Max = 0, xmax
		}
		gp.Y.Min, gp.Y.Max = 0, ymax
		hp.Y.Min, hp.Y.Max = 0, 1.05
		hp.Y.Tick.Marker = upTo{Ticker: niceTicks{}, max: 1}
		diag := draw.LineStyle{Color: color.Gray{Y: 0x70}, Width: vg.Points(1.6), Dashes: []vg.Length{vg.Points(2), vg.Points(3)}}
		gp.Add(&plotter.Line{XYs: plotter.XYs{{X: 0, Y: 0}, {X: min(xmax, ymax), Y: min(xmax, ymax)}}, LineStyle: diag})
		for k, l := range loops {
			col := lineColour(k)
			upSty := draw.LineStyle{Color: col, Width: vg.Points(lineWidth)}
			dnSty := draw.LineStyle{Color: col, Width: vg.Points(lineWidth), Dashes: []vg.Length{vg.Points(7), vg.Points(4)}}
			for _, g := range []struct {
				leg leg
				sty draw.LineStyle
			}{{l.up, upSty}, {l.down, dnSty}} {
				gp.Add(&plotter.Line{XYs: xyOf(g.leg.load, g.leg.goodput), LineStyle: g.sty})
				hp.Add(&plotter.Line{XYs: xyOf(g.leg.load, g.leg.healthy), LineStyle: g.sty})
			}
			if !math.IsNaN(l.tip) {
				gp.Add(marker(l.tip, at(l.up, l.tip, l.up.goodput), col, triangle{}))
				hp.Add(marker(l.tip, at(l.up, l.tip, l.up.healthy), col, triangle{}))
			}
			if !math.IsNaN(l.back) {
				gp.Add(marker(l.back, at(l.down, l.back, l.down.goodput), col, triangle{down: true}))
				hp.Add(marker(l.back, at(l.down, l.back, l.down.healthy), col, triangle{down: true}))
			}
		}
		drawTiled(left, []*plot.Plot{gp, hp}, 1, 2)

		var entries []entry
		for k := range loops {
			col := lineColour(k)
			name := cellLabel(&cells[k], axes)
			if len(loops) == 1 {
				name = "the system"
			}
			entries = append(entries,
				entry{text: name + ", load rising", thumbs: []plot.Thumbnailer{lineThumb{draw.LineStyle{Color: col, Width: vg.Points(lineWidth)}}}},
				entry{text: name + ", load falling", thumbs: []plot.Thumbnailer{lineThumb{draw.LineStyle{Color: col, Width: vg.Points(lineWidth), Dashes: []vg.Length{vg.Points(7), vg.Points(4)}}}}})
		}
		black := color.Black
		entries = append(entries,
			entry{text: "first unhealthy (tips)", thumbs: []plot.Thumbnailer{glyphThumb{markerStyle(black, triangle{})}}},
			entry{text: "healthy for good (back)", thumbs: []plot.Thumbnailer{glyphThumb{markerStyle(black, triangle{down: true})}}},
			entry{text: "goodput = load: every request answered", thumbs: []plot.Thumbnailer{lineThumb{diag}}})
		drawLegend(right, strings.Join(axes, ", "), entries)
	}
	return figure{title: title, caption: caption(fs, more), draw: drawFn}, nil
}

// xyOf pairs loads with values.
func xyOf(xs, ys []float64) plotter.XYs {
	out := make(plotter.XYs, len(xs))
	for i := range xs {
		out[i] = plotter.XY{X: xs[i], Y: ys[i]}
	}
	return out
}

// peakOf is the largest value.
func peakOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// markerStyle is the style of a tipping or return marker.
func markerStyle(c color.Color, shape draw.GlyphDrawer) draw.GlyphStyle {
	return draw.GlyphStyle{Color: c, Radius: vg.Points(7), Shape: shape}
}

// marker is one glyph at (x, y).
func marker(x, y float64, c color.Color, shape draw.GlyphDrawer) plot.Plotter {
	return &plotter.Scatter{XYs: plotter.XYs{{X: x, Y: y}}, GlyphStyle: markerStyle(c, shape)}
}

// triangle is a filled triangle pointing up, or down, outlined in white so
// that it stands out on a line of its colour.
type triangle struct{ down bool }

// DrawGlyph implements draw.GlyphDrawer.
func (t triangle) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	s := vg.Length(1)
	if t.down {
		s = -1
	}
	pts := []vg.Point{{X: pt.X - r, Y: pt.Y - s*r*0.6}, {X: pt.X + r, Y: pt.Y - s*r*0.6}, {X: pt.X, Y: pt.Y + s*r}}
	c.FillPolygon(sty.Color, pts)
	c.StrokeLines(draw.LineStyle{Color: color.White, Width: vg.Points(1.2)}, append(pts, pts[0]))
}
