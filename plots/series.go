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
)

// series draws the time series of every cell that recorded one: the calls
// per second offered to the dependency with its capacity above, the queue
// below with the healthy limit where the queue rule judges health, each
// fault's window shaded. A long run gets a second column with its first
// minutes, where the storm starts. Its caption is in series_text.go, its
// scales in series_axes.go.
type series struct{}

func (series) defaultName(f *spec.Figure) string { return joinNonEmpty("series", f.X, f.Y) }

func (series) findings(*Table, *spec.Figure) []string { return nil }

// seriesFigure is a series figure laid out: per row that recorded a
// series, its curves, and what the panels share.
type seriesFigure struct {
	t              *Table
	idx            []int // the rows drawn: those with a series
	drawn          []Row // ... themselves
	axes           []string
	horizon, zoom  float64
	calls, queue   []curve
	limits         []curve
	capacities     []plotter.XYs
	callBands      []band // band = true: the replicates' 10th–90th percentiles
	queueBands     []band
	windows        [][2]float64
	entries        []entry
	callsY, queueY yAxis
}

func (series) draw(t *Table, f *spec.Figure) (figure, error) {
	sf, err := newSeriesFigure(t, f)
	if err != nil {
		return figure{}, err
	}
	fs := facts(sf.drawn)
	title := f.Title
	if title == "" {
		title = "Offered load and queue over time"
	}
	return figure{title: title, caption: caption(fs, sf.caption()), draw: func(c draw.Canvas) { sf.drawOn(c, title, fs) }}, nil
}

// newSeriesFigure reads the rows that recorded a series into curves and
// fits the scales.
func newSeriesFigure(t *Table, f *spec.Figure) (*seriesFigure, error) {
	sf := &seriesFigure{t: t}
	for i := range t.Rows {
		if s := t.Rows[i].Result.Series; s != nil && len(s.Rows) > 0 && s.Step > 0 {
			sf.idx = append(sf.idx, i)
		}
	}
	if len(sf.idx) == 0 {
		return nil, fmt.Errorf("no cell recorded a time series; set series = true (or series = { axis = [values] }) in the experiment")
	}
	for _, i := range sf.idx {
		s := t.Rows[i].Result.Series
		sf.horizon = math.Max(sf.horizon, s.Rows[len(s.Rows)-1].T+s.Step)
	}
	sf.zoom = zoomEnd(t, sf.idx, sf.horizon)

	peakCalls, peakQueue := []float64{}, []float64{}
	sf.drawn = t.rowsAt(sf.idx)
	sf.axes = t.varying(sf.drawn)
	for k, i := range sf.idx {
		c, s := &t.Rows[i], t.Rows[i].Result.Series
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
		if b := c.Result.Band; f.Band && b != nil {
			// The lines are the means, over the band of the replicates.
			var clo, chi, qlo, qhi plotter.XYs
			cl, clo, chi, _ = seriesBand(b, "calls", true)
			ql, qlo, qhi, _ = seriesBand(b, "queue", false)
			sf.callBands = append(sf.callBands, band{clo, chi, bandFill(sty.Color)})
			sf.queueBands = append(sf.queueBands, band{qlo, qhi, bandFill(sty.Color)})
			pc, pq = peak(chi), peak(qhi)
		}
		sf.calls = append(sf.calls, curve{flatten(cl), sty})
		sf.queue = append(sf.queue, curve{flatten(ql), sty})
		peakCalls, peakQueue = append(peakCalls, pc), append(peakQueue, pq)
		if !slices.ContainsFunc(sf.capacities, func(x plotter.XYs) bool { return slices.Equal(x, cp) }) {
			sf.capacities = append(sf.capacities, cp)
		}
		for _, w := range faultWindows(&c.Facts) {
			if !slices.Contains(sf.windows, w) {
				sf.windows = append(sf.windows, w)
			}
		}
		sf.entries = append(sf.entries, entry{text: cellLabel(c, sf.axes), thumbs: []plot.Thumbnailer{lineThumb{sty}}})
	}
	for _, lim := range healthLimits(sf.drawn) {
		sf.limits = append(sf.limits, curve{plotter.XYs{{X: 0, Y: lim}, {X: sf.horizon, Y: lim}}, limitStyle()})
	}

	// Log scales when the cells differ by orders of magnitude.
	sf.callsY = newYAxis(spread(peakCalls) >= 10, append(append(curveXYs(sf.calls), sf.capacities...), bandTops(sf.callBands)...)...)
	sf.queueY = newYAxis(spread(peakQueue) >= 100, append(append(curveXYs(sf.queue), curveXYs(sf.limits)...), bandTops(sf.queueBands)...)...)

	sf.entries = append(sf.entries, entry{text: "capacity of the dependency (calls/s)", thumbs: []plot.Thumbnailer{lineThumb{capacityStyle()}}})
	if len(sf.limits) > 0 {
		sf.entries = append(sf.entries, entry{text: "healthy queue limit: capacity\u00a0×\u00a0timeout", thumbs: []plot.Thumbnailer{lineThumb{limitStyle()}}})
	}
	if len(sf.windows) > 0 {
		sf.entries = append(sf.entries, entry{text: "fault window", thumbs: []plot.Thumbnailer{swatch{faultColour()}}})
	}
	if len(sf.callBands) > 0 {
		sf.entries = append(sf.entries, bandEntry())
	}
	return sf, nil
}

// drawOn draws the figure on a slide: offered load above the queue, the
// whole run and, for a long run, its first minutes beside it.
func (sf *seriesFigure) drawOn(c draw.Canvas, title string, fs []string) {
	ranges := [][2]float64{{0, sf.horizon}}
	if sf.zoom > 0 {
		ranges = append(ranges, [2]float64{0, sf.zoom})
	}
	body := header(c, title, subtitle(fs))
	right := draw.Crop(body, body.Max.X-body.Min.X-legendWidth, 0, 0, 0)
	left := draw.Crop(body, 0, -legendWidth-0.15*vg.Inch, 0, 0)
	plots := [][]*plot.Plot{make([]*plot.Plot, len(ranges)), make([]*plot.Plot, len(ranges))}
	for col, xr := range ranges {
		top, bottom := newPlot(), newPlot()
		if sf.zoom > 0 {
			top.Title.Text = "whole run (" + spanText(sf.horizon) + ")"
			if col == 1 {
				top.Title.Text = "first " + spanText(sf.zoom)
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
			for _, w := range sf.windows {
				p.Add(&vband{lo: w[0], hi: w[1], fill: faultColour()})
			}
		}
		addBands(top, sf.callBands, sf.callsY, xr)
		addBands(bottom, sf.queueBands, sf.queueY, xr)
		for _, cp := range sf.capacities {
			top.Add(&plotter.Line{XYs: sf.callsY.xys(clip(cp, xr)), LineStyle: capacityStyle(), StepStyle: plotter.PostStep})
		}
		for _, cv := range sf.calls {
			top.Add(&plotter.Line{XYs: sf.callsY.xys(clip(cv.xys, xr)), LineStyle: cv.style})
		}
		for _, lim := range sf.limits {
			bottom.Add(&plotter.Line{XYs: sf.queueY.xys(clip(lim.xys, xr)), LineStyle: lim.style})
		}
		for _, cv := range sf.queue {
			bottom.Add(&plotter.Line{XYs: sf.queueY.xys(clip(cv.xys, xr)), LineStyle: cv.style})
		}
		sf.callsY.apply(top)
		sf.queueY.apply(bottom)
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
	drawLegend(right, strings.Join(sf.axes, ", "), sf.entries)
}

// capacityStyle draws the dependency's capacity.
func capacityStyle() draw.LineStyle {
	return draw.LineStyle{Color: color.Black, Width: vg.Points(1.6), Dashes: []vg.Length{vg.Points(6), vg.Points(3)}}
}

// faultWindows are the spans of a cell's faults, in seconds: each fault
// its own, so that faults apart in time leave the time between them
// unshaded.
func faultWindows(c *Facts) [][2]float64 {
	var out [][2]float64
	for _, f := range c.Faults {
		if f.Length > 0 {
			out = append(out, [2]float64{f.Start.Seconds(), (f.Start + f.Length).Seconds()})
		}
	}
	return out
}

// healthLimits are the healthy queue limits a series figure of the rows
// draws, distinct, in row order: the largest backlog of a healthy
// dependency as each row's facts state it (Facts.QueueLimit), for the rows
// whose health the queue rule judges. A loss or latency server, or a user
// who waits forever, has none.
func healthLimits(rows []Row) []float64 {
	var out []float64
	for i := range rows {
		if q := rows[i].Facts.QueueLimit; !math.IsNaN(q) && !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	return out
}

// limitStyle draws the healthy queue limit.
func limitStyle() draw.LineStyle {
	return draw.LineStyle{Color: color.Gray{Y: 0x70}, Width: vg.Points(1.6), Dashes: []vg.Length{vg.Points(2), vg.Points(3)}}
}

// zoomEnd is the end of the close-up on a long run: past the fault and the
// slowest recovery among the rows shown, rounded up to whole minutes. It is
// 0 when the run is short enough to read whole.
func zoomEnd(t *Table, idx []int, horizon float64) float64 {
	latest := 0.0
	for _, i := range idx {
		end := t.Rows[i].Facts.FaultEnd
		if math.IsNaN(end) {
			continue
		}
		if r := &t.Rows[i].Result; r.Recovered() && !math.IsNaN(r.RecoveryS) {
			end += r.RecoveryS
		}
		latest = math.Max(latest, end)
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
