package plots

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/stormlab/stormlab/model"
)

// Overlay is one cell run twice, by the model and on a real stack (the
// lab), for a figure that lays the two series over each other: what
// OverlayFigure draws.
type Overlay struct {
	Name, Title string
	Subtitle    string // the cell and the run's settings, one line
	Model, Lab  *model.Series
	// ModelWhat and LabWhat name the two runs in the legend ("model, mean
	// of 20 runs", "real gRPC at speed 10").
	ModelWhat, LabWhat string
	Faults             [][2]float64 // fault windows, seconds
}

// OverlayFigure draws an Overlay: calls per second at the dependency with
// its capacity above, successes per second below, the model solid and the
// lab dashed, the fault windows shaded. The lab's report sets one beside
// each cell's side-by-side numbers.
func OverlayFigure(o *Overlay) (Figure, error) {
	if o.Model == nil || o.Lab == nil || len(o.Model.Rows) == 0 || len(o.Lab.Rows) == 0 {
		return Figure{}, fmt.Errorf("an overlay needs both series")
	}
	f := figure{title: o.Title, caption: o.Subtitle, draw: func(c draw.Canvas) { drawOverlay(c, o) }}
	return f.encode(o.Name)
}

// overlayStyles are the model's line (solid) and the lab's (dashed).
func overlayStyles() (modelSty, labSty draw.LineStyle) {
	modelSty = draw.LineStyle{Color: lineColour(0), Width: vg.Points(2)}
	labSty = draw.LineStyle{Color: lineColour(1), Width: vg.Points(2), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}
	return modelSty, labSty
}

func drawOverlay(c draw.Canvas, o *Overlay) {
	body := header(c, o.Title, o.Subtitle)
	right := draw.Crop(body, body.Max.X-body.Min.X-legendWidth, 0, 0, 0)
	left := draw.Crop(body, 0, -legendWidth-0.15*vg.Inch, 0, 0)
	modelSty, labSty := overlayStyles()
	top, bottom := newPlot(), newPlot()
	top.Y.Label.Text = "calls at the\ndependency (/s)"
	bottom.Y.Label.Text = "successes\n(requests/s)"
	bottom.X.Label.Text = "time (s)"
	end := overlayEnd(o)
	for _, p := range []*plot.Plot{top, bottom} {
		p.X.Tick.Marker = timeTicks{}
		p.Add(plotter.NewGrid())
		for _, w := range o.Faults {
			p.Add(&vband{lo: w[0], hi: w[1], fill: faultColour()})
		}
	}
	top.Add(&plotter.Line{XYs: seriesXYs(o.Model, func(r *model.SeriesRow) float64 { return r.Capacity }), LineStyle: capacityStyle(), StepStyle: plotter.PostStep})
	for _, run := range []struct {
		s   *model.Series
		sty draw.LineStyle
	}{{o.Model, modelSty}, {o.Lab, labSty}} {
		top.Add(&plotter.Line{XYs: seriesXYs(run.s, func(r *model.SeriesRow) float64 { return r.Calls / run.s.Step }), LineStyle: run.sty})
		bottom.Add(&plotter.Line{XYs: seriesXYs(run.s, func(r *model.SeriesRow) float64 { return r.Successes / run.s.Step }), LineStyle: run.sty})
	}
	for _, p := range []*plot.Plot{top, bottom} {
		p.X.Min, p.X.Max, p.X.Padding = 0, end, 0
		p.Y.Min, p.Y.Max = 0, max(p.Y.Max, 1) // a run with nothing to count still has an axis
	}
	plots := [][]*plot.Plot{{top}, {bottom}}
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadY: 0.12 * vg.Inch}
	canvases := plot.Align(plots, tiles, left)
	top.Draw(canvases[0][0])
	bottom.Draw(canvases[1][0])
	entries := []entry{
		{text: o.ModelWhat, thumbs: []plot.Thumbnailer{lineThumb{modelSty}}},
		{text: o.LabWhat, thumbs: []plot.Thumbnailer{lineThumb{labSty}}},
		{text: "the dependency's capacity", thumbs: []plot.Thumbnailer{lineThumb{capacityStyle()}}},
	}
	if len(o.Faults) > 0 {
		entries = append(entries, entry{text: "fault", thumbs: []plot.Thumbnailer{swatch{faultColour()}}})
	}
	drawLegend(right, "", entries)
}

// overlayEnd is where an overlay's time axis ends: the end of the run, or,
// when both series go quiet long before it (a burst at the start), a few
// seconds after the last second in which either counted anything, so that
// what happened is not squeezed against the axis.
func overlayEnd(o *Overlay) float64 {
	end, last := 0.0, 0.0
	for _, s := range []*model.Series{o.Model, o.Lab} {
		end = max(end, s.Rows[len(s.Rows)-1].T+s.Step)
		for _, r := range s.Rows {
			if r.Calls+r.Successes+r.Failures+r.Requests > 0 {
				last = max(last, r.T+s.Step)
			}
		}
	}
	for _, w := range o.Faults {
		last = max(last, w[1])
	}
	return min(end, max(last+5, last*1.25))
}

// seriesXYs are a series' rows as points at the middle of each bin.
func seriesXYs(s *model.Series, y func(r *model.SeriesRow) float64) plotter.XYs {
	xys := make(plotter.XYs, len(s.Rows))
	for i := range s.Rows {
		xys[i] = plotter.XY{X: s.Rows[i].T + s.Step/2, Y: y(&s.Rows[i])}
	}
	return xys
}
