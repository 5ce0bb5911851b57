package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// series draws the time series of every cell that recorded one: the calls
// per second offered to the dependency with its capacity above, the queue
// below with the healthy limit where the queue rule judges health, each
// fault's window shaded. A long run gets a second column with its first
// minutes, where the storm starts.
type series struct{}

func (series) name() string { return "series" }

func (series) roles() []role { return nil }

// cells are every cell, the ones beside the product too.
func (series) cells(g *sweep.Grid) []sweep.Cell { return g.Cells() }

func (series) defaultName(f *spec.Figure) string { return joinNonEmpty("series", f.X, f.Y) }

func (series) findings(*data, *spec.Figure) []string { return nil }

func (series) draw(d *data, f *spec.Figure) (figure, error) {
	var idx []int
	for i := range d.results {
		if s := d.results[i].Series; s != nil && len(s.Rows) > 0 && s.Step > 0 {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return figure{}, fmt.Errorf("no cell recorded a time series; set series = true (or series = { axis = [values] }) in the experiment")
	}

	horizon := 0.0
	for _, i := range idx {
		s := d.results[i].Series
		horizon = math.Max(horizon, s.Rows[len(s.Rows)-1].T+s.Step)
	}
	zoom := zoomEnd(d, idx, horizon)

	// The lines, per row of panels.
	var calls, queue, limits []curve
	var capacities []plotter.XYs
	var callBands, queueBands []band // f.Band: the replicates' 10th–90th percentiles
	peakCalls, peakQueue := []float64{}, []float64{}
	var windows [][2]float64
	var entries []entry
	drawn := cellsAt(d.cells, idx)
	axes := d.varying(drawn)
	for k, i := range idx {
		c, s := &d.cells[i], d.results[i].Series
		sty := draw.LineStyle{Color: lineColour(k), Width: vg.Points(lineWidth), Dashes: lineDash(k)}
		cl, ql, cp := make(plotter.XYs, len(s.Rows)), make(plotter.XYs, len(s.Rows)), make(plotter.XYs, len(s.Rows))
		pc, pq := 0.0, 0.0
		for j, row := range s.Rows {
			cl[j] = plotter.XY{X: row.T, Y: row.Calls / s.Step}
			ql[j] = plotter.XY{X: row.T, Y: row.Queue}
			cp[j] = plotter.XY{X: row.T, Y: row.Capacity}
			pc, pq = math.Max(pc, cl[j].Y), math.Max(pq, row.Queue)
		}
		cp = append(cp, plotter.XY{X: s.Rows[len(s.Rows)-1].T + s.Step, Y: s.Rows[len(s.Rows)-1].Capacity})
		if b := d.results[i].Band; f.Band && b != nil {
			// The lines are the means, over the band of the replicates.
			var clo, chi, qlo, qhi plotter.XYs
			cl, clo, chi, _ = seriesBand(b, "calls", true)
			ql, qlo, qhi, _ = seriesBand(b, "queue", false)
			callBands = append(callBands, band{clo, chi, bandFill(sty.Color)})
			queueBands = append(queueBands, band{qlo, qhi, bandFill(sty.Color)})
			pc, pq = peak(chi), peak(qhi)
		}
		calls = append(calls, curve{flatten(cl), sty})
		queue = append(queue, curve{flatten(ql), sty})
		peakCalls, peakQueue = append(peakCalls, pc), append(peakQueue, pq)
		if !slices.ContainsFunc(capacities, func(x plotter.XYs) bool { return slices.Equal(x, cp) }) {
			capacities = append(capacities, cp)
		}
		for _, w := range faultWindows(c) {
			if !slices.Contains(windows, w) {
				windows = append(windows, w)
			}
		}
		entries = append(entries, entry{text: cellLabel(c, axes), thumbs: []plot.Thumbnailer{lineThumb{sty}}})
	}

	for _, lim := range healthLimits(drawn) {
		limits = append(limits, curve{plotter.XYs{{X: 0, Y: lim}, {X: horizon, Y: lim}}, limitStyle()})
	}

	// Log scales when the cells differ by orders of magnitude.
	callsY := newYAxis(spread(peakCalls) >= 10, append(append(curveXYs(calls), capacities...), bandTops(callBands)...)...)
	queueY := newYAxis(spread(peakQueue) >= 100, append(append(curveXYs(queue), curveXYs(limits)...), bandTops(queueBands)...)...)

	capSty := draw.LineStyle{Color: color.Black, Width: vg.Points(1.6), Dashes: []vg.Length{vg.Points(6), vg.Points(3)}}
	entries = append(entries, entry{text: "capacity of the dependency (calls/s)", thumbs: []plot.Thumbnailer{lineThumb{capSty}}})
	if len(limits) > 0 {
		entries = append(entries, entry{text: "healthy queue limit: capacity\u00a0×\u00a0timeout", thumbs: []plot.Thumbnailer{lineThumb{limitStyle()}}})
	}
	if len(windows) > 0 {
		entries = append(entries, entry{text: "fault window", thumbs: []plot.Thumbnailer{swatch{faultColour()}}})
	}
	if len(callBands) > 0 {
		entries = append(entries, bandEntry())
	}

	title := f.Title
	if title == "" {
		title = "Offered load and queue over time"
	}
	fs := facts(drawn)
	more := "Top: calls per second reaching the dependency and its capacity (dashed)"
	if callsY.log {
		more += ", log scale"
	}
	more += "; bottom: calls waiting in its queue"
	if len(limits) > 0 {
		more += " and the healthy limit, capacity × timeout (dotted)"
	}
	if queueY.log {
		more += ", log scale"
	}
	more += "; shaded: the fault window."
	if len(callBands) > 0 {
		more += " " + bandCaption(d.results, idx)
	}
	if zoom > 0 {
		more += fmt.Sprintf(" Left: the whole run; right: the first %s.", spanText(zoom))
	}

	ranges := [][2]float64{{0, horizon}}
	if zoom > 0 {
		ranges = append(ranges, [2]float64{0, zoom})
	}
	drawFn := func(c draw.Canvas) {
		body := header(c, title, subtitle(fs))
		right := draw.Crop(body, body.Max.X-body.Min.X-legendWidth, 0, 0, 0)
		left := draw.Crop(body, 0, -legendWidth-0.15*vg.Inch, 0, 0)
		plots := [][]*plot.Plot{make([]*plot.Plot, len(ranges)), make([]*plot.Plot, len(ranges))}
		for col, xr := range ranges {
			top, bottom := newPlot(), newPlot()
			if zoom > 0 {
				top.Title.Text = "whole run (" + spanText(horizon) + ")"
				if col == 1 {
					top.Title.Text = "first " + spanText(zoom)
				}
			}
			bottom.X.Label.Text = "time (s)"
			if col == 0 {
				top.Y.Label.Text = "offered load\n(calls/s)"
				bottom.Y.Label.Text = "queue\n(calls waiting)"
			}
			for _, p := range []*plot.Plot{top, bottom} {
				p.X.Tick.Marker = timeTicks{}
				p.Add(plotter.NewGrid())
				for _, w := range windows {
					p.Add(&vband{lo: w[0], hi: w[1], fill: faultColour()})
				}
			}
			addBands(top, callBands, callsY, xr)
			addBands(bottom, queueBands, queueY, xr)
			for _, cp := range capacities {
				top.Add(&plotter.Line{XYs: callsY.xys(clip(cp, xr)), LineStyle: capSty, StepStyle: plotter.PostStep})
			}
			for _, cv := range calls {
				top.Add(&plotter.Line{XYs: callsY.xys(clip(cv.xys, xr)), LineStyle: cv.style})
			}
			for _, lim := range limits {
				bottom.Add(&plotter.Line{XYs: queueY.xys(clip(lim.xys, xr)), LineStyle: lim.style})
			}
			for _, cv := range queue {
				bottom.Add(&plotter.Line{XYs: queueY.xys(clip(cv.xys, xr)), LineStyle: cv.style})
			}
			callsY.apply(top)
			queueY.apply(bottom)
			for _, p := range []*plot.Plot{top, bottom} {
				p.X.Min, p.X.Max = xr[0], xr[1]
				p.X.Padding = 0
			}
			plots[0][col], plots[1][col] = top, bottom
		}
		tiles := draw.Tiles{Rows: 2, Cols: len(ranges), PadX: 0.3 * vg.Inch, PadY: 0.12 * vg.Inch}
		canvases := plot.Align(plots, tiles, left)
		for r := range plots {
			for col, p := range plots[r] {
				p.Draw(canvases[r][col])
			}
		}
		drawLegend(right, strings.Join(axes, ", "), entries)
	}
	return figure{title: title, caption: caption(fs, more), draw: drawFn}, nil
}

// faultWindows are the spans of a cell's faults, in seconds: each fault
// its own, so that faults apart in time leave the time between them
// unshaded.
func faultWindows(c *sweep.Cell) [][2]float64 {
	var out [][2]float64
	for _, f := range c.Plan.FaultList {
		if f.Length > 0 {
			out = append(out, [2]float64{f.Start.Seconds(), (f.Start + f.Length).Seconds()})
		}
	}
	return out
}

// curve is one line of a series figure.
type curve struct {
	xys   plotter.XYs
	style draw.LineStyle
}

// cellsAt are the cells at the given indexes.
func cellsAt(cells []sweep.Cell, idx []int) []sweep.Cell {
	out := make([]sweep.Cell, len(idx))
	for k, i := range idx {
		out[k] = cells[i]
	}
	return out
}

// healthLimits are the healthy queue limits a series figure of the cells
// draws, distinct, in cell order: the largest backlog of a healthy
// dependency as each cell's plan states it (model.HealthPlan.Limit), for
// the cells whose health the queue rule judges. A loss or latency server,
// or a user who waits forever, has none.
func healthLimits(cells []sweep.Cell) []float64 {
	var out []float64
	for i := range cells {
		h := cells[i].Plan.Health
		if h.Rule == model.HealthQueue && !slices.Contains(out, h.Limit) {
			out = append(out, h.Limit)
		}
	}
	return out
}

// limitStyle draws the healthy queue limit.
func limitStyle() draw.LineStyle {
	return draw.LineStyle{Color: color.Gray{Y: 0x70}, Width: vg.Points(1.6), Dashes: []vg.Length{vg.Points(2), vg.Points(3)}}
}

// zoomEnd is the end of the close-up on a long run: past the fault and the
// slowest recovery among the cells shown, rounded up to whole minutes. It is
// 0 when the run is short enough to read whole.
func zoomEnd(d *data, idx []int, horizon float64) float64 {
	latest := 0.0
	for _, i := range idx {
		fw := d.cells[i].Plan.Fault
		if !fw.Has {
			continue
		}
		t := fw.End.Seconds()
		if r := &d.results[i]; r.Recovered() && !math.IsNaN(r.RecoveryS) {
			t += r.RecoveryS
		}
		latest = math.Max(latest, t)
	}
	if latest == 0 {
		return 0
	}
	z := latest + math.Max(30, 0.25*latest)
	if z >= 60 {
		z = math.Ceil(z/60) * 60
	} else {
		z = niceCeil(z)
	}
	if z > horizon/2 {
		return 0
	}
	return z
}

// spanText writes a time span for a panel title: "1h", "5 minutes", "90 s".
func spanText(s float64) string {
	switch {
	case s >= 3600 && math.Mod(s, 3600) == 0:
		if s == 3600 {
			return "1 h"
		}
		return fmt.Sprintf("%g h", s/3600)
	case s >= 120 && math.Mod(s, 60) == 0:
		return fmt.Sprintf("%g minutes", s/60)
	}
	return fmt.Sprintf("%g s", s)
}

// spread is the ratio of the largest to the smallest value, each at least 1.
func spread(xs []float64) float64 {
	lo, hi := math.Inf(1), 1.0
	for _, x := range xs {
		lo, hi = math.Min(lo, math.Max(x, 1)), math.Max(hi, x)
	}
	if math.IsInf(lo, 1) {
		return 1
	}
	return hi / lo
}

// curveXYs are the curves' points.
func curveXYs(cs []curve) []plotter.XYs {
	out := make([]plotter.XYs, len(cs))
	for i, c := range cs {
		out[i] = c.xys
	}
	return out
}

// yAxis is a vertical scale: linear from 0, or the log10 of the values
// drawn on a linear axis (so gonum centres the label as usual) from 1, with
// anything below 1 drawn at 1.
type yAxis struct {
	log    bool
	lo, hi float64 // the axis range, in log10 units when log
}

// newYAxis fits a scale to the points.
func newYAxis(log bool, xys ...plotter.XYs) yAxis {
	hi := 1.0
	for _, c := range xys {
		for _, p := range c {
			hi = math.Max(hi, p.Y)
		}
	}
	if log {
		return yAxis{log: true, lo: 0, hi: math.Ceil(math.Log10(hi * 1.05))}
	}
	return yAxis{lo: 0, hi: niceCeil(hi * 1.05)}
}

// xys are the points in axis units.
func (a yAxis) xys(in plotter.XYs) plotter.XYs {
	out := slices.Clone(in)
	if a.log {
		for i := range out {
			out[i].Y = math.Log10(math.Max(out[i].Y, 1))
		}
	}
	return out
}

// apply sets a plot's y range and ticks.
func (a yAxis) apply(p *plot.Plot) {
	p.Y.Min, p.Y.Max = a.lo, a.hi
	if a.log {
		p.Y.Tick.Marker = expTicks{floored: true}
	}
}

// flatten drops the points inside runs of equal y, which change nothing
// drawn but keep an hour of flat series out of the SVG.
func flatten(xys plotter.XYs) plotter.XYs {
	var out plotter.XYs
	for i, p := range xys {
		if i > 0 && i+1 < len(xys) && xys[i-1].Y == p.Y && xys[i+1].Y == p.Y {
			continue
		}
		out = append(out, p)
	}
	return out
}

// clip keeps the points within the x range and one on either side.
func clip(xys plotter.XYs, xr [2]float64) plotter.XYs {
	i := 0
	for i+1 < len(xys) && xys[i+1].X <= xr[0] {
		i++
	}
	j := len(xys)
	for j-1 > i && xys[j-2].X >= xr[1] {
		j--
	}
	return xys[i:j]
}

// vband shades the full height of a plot between two x values.
type vband struct {
	lo, hi float64
	fill   color.Color
}

// Plot implements plot.Plotter.
func (b *vband) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x0, x1 := max(trX(b.lo), c.Min.X), min(trX(b.hi), c.Max.X)
	if x1 > x0 {
		fillRect(c, vg.Rectangle{Min: vg.Point{X: x0, Y: c.Min.Y}, Max: vg.Point{X: x1, Y: c.Max.Y}}, b.fill)
	}
}

// timeTicks labels seconds at steps that are round in minutes and hours.
type timeTicks struct{}

// Ticks implements plot.Ticker.
func (timeTicks) Ticks(lo, hi float64) []plot.Tick {
	step := 1.0
	for _, s := range []float64{1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1200, 1800, 3600, 7200, 10800, 21600, 43200, 86400} {
		step = s
		if (hi-lo)/s <= 5 {
			break
		}
	}
	var ticks []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi+1e-9; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: formatNum(v)})
	}
	return ticks
}
