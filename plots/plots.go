// Package plots renders an experiment's figures for design reviews, with
// gonum/plot, in memory, at slide size: a 16:9 PNG of 1600 × 900 px and the
// same drawing as SVG, from a sweep.Grid, its results and spec.Figure
// requests. Every figure has a title, a subtitle and a caption of the key
// parameters of its cells, axis labels with units and a legend in a column
// on the right. What a figure says about the scenario (the healthy queue
// limit, the rule of thumb, the fault window, the attempts a request may
// make, the timeout the user waits) is what the cells' resolved plans say.
//
// Each kind of figure is a type of its own (kind.go lists them) that holds
// the axes it needs, the cells it draws, its drawing, and its findings for
// the report:
//
//   - "phase": the metastability phase diagram. One rectangle per cell over
//     two numeric axes (spanning halfway to its neighbours), coloured by a
//     metric on one sequential scale shared by all panels (log scale when
//     the values span orders of magnitude), "never recovers" in red, one
//     panel per value of a third axis, and optionally the rule of thumb
//     blip = capacity × timeout / load, drawn where it falls within the
//     values tried and otherwise placed in the caption ("lies below the
//     smallest blip tried"). Replicated results are coloured by the share
//     of replicates that recovered; cells aborted at the memory cap are
//     grey. Its findings never claim more than the grid's spacing shows.
//   - "lines": a metric against one axis, a line per value of another, a
//     panel per value of a third; cells that never recover sit in a "never"
//     band above the top, marked with crosses, a row for each line when
//     several lines reach it.
//   - "bars": a metric as bars, a group per value of one axis (which may
//     name configurations rather than numbers; values of cells beside the
//     grid come last), a bar per value of another, a panel per value of a
//     third. Bars without a value are hatched red up to a "never" band;
//     replicated results are means with ± one standard deviation; few bars
//     carry their values, and long category names wrap.
//   - "series": per cell that recorded a time series, the calls per second
//     offered to the dependency (with its capacity) above the queue (with the
//     healthy limit where the queue rule judges health), the fault window
//     shaded, log scales when the cells
//     differ by orders of magnitude; a long run also gets a column with its
//     first minutes.
//
// Phase and lines figures place an axis's values by index (evenly spaced,
// not to scale, ticks labelled with the values: "10ms", "250ms", "1s") when
// they are uneven, the largest gap between neighbours more than three times
// the smallest; the axis label and the caption say so. Even grids (load
// 50..95 step 1) stay linear, and curves drawn in the axes' units, such as
// the rule of thumb, pass through the same placement. Tick labels never
// overlap: those of an axis placed by index alternate between two lines
// where that is enough, and labels are thinned otherwise.
//
// The same inputs always give the same bytes, so rendered figures can be
// committed and compared.
package plots

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// Slide geometry: 10 × 5.625 in at 160 dpi is a 1600 × 900 px PNG; the SVG
// has the same layout at 720 × 405 pt.
const (
	figWidth  = 10 * vg.Inch
	figHeight = 5.625 * vg.Inch
	figDPI    = 160
)

// Figure is one rendered figure.
type Figure struct {
	Name    string // file name without extension: Name of its spec
	Title   string
	Caption string // the key parameters, one or two sentences, for report.md
	PNG     []byte
	SVG     []byte
}

// Render draws the figures from the grid's cells and their results (in
// the cells' order). It checks the figures first, as Check does.
func Render(g *sweep.Grid, results []model.Result, figs []spec.Figure) ([]Figure, error) {
	if n := len(g.Cells()); len(results) != n {
		return nil, fmt.Errorf("plots: %d cells but %d results", n, len(results))
	}
	if err := Check(figs, g); err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	var out []Figure
	for i := range figs {
		f := &figs[i]
		k, _ := kindOf(f.Kind)
		name := Name(f)
		d, err := newData(k, f, g, results)
		if errors.Is(err, errAllAborted) {
			continue // nothing to draw; report.md's notes say why
		}
		var fig figure
		if err == nil {
			fig, err = k.draw(d, f)
		}
		var enc Figure
		if err == nil {
			enc, err = fig.encode(name)
		}
		if err != nil {
			return nil, fmt.Errorf("plots: figure %q: %w", name, err)
		}
		out = append(out, enc)
	}
	return out, nil
}

// data is what one figure is drawn from: the cells its kind draws that its
// selector holds, and their results.
type data struct {
	g       *sweep.Grid
	cells   []sweep.Cell
	results []model.Result
}

// errAllAborted is a figure whose every cell was aborted at the memory cap:
// it has nothing to draw.
var errAllAborted = errors.New("every cell it draws was aborted at the memory cap")

// newData picks the cells a figure draws: those its selector holds, less
// the cells aborted at the memory cap, which have no metrics.
func newData(k kind, f *spec.Figure, g *sweep.Grid, results []model.Result) (*data, error) {
	d := &data{g: g}
	held := 0
	for _, c := range k.cells(g) {
		if !f.Select.Holds(&c) {
			continue
		}
		held++
		if results[c.Index].Aborted == "" {
			d.cells = append(d.cells, c)
			d.results = append(d.results, results[c.Index])
		}
	}
	switch {
	case held == 0:
		return nil, fmt.Errorf("no cell lies within its range")
	case len(d.cells) == 0:
		return nil, errAllAborted
	}
	return d, nil
}

// figure is a laid-out figure before encoding: its text and a function that
// draws it on a slide-sized canvas.
type figure struct {
	title   string
	caption string
	draw    func(c draw.Canvas)
}

// encode draws the figure twice, as PNG and as SVG. gonum/plot reports some
// impossible layouts by panicking; they come back as errors.
func (f figure) encode(name string) (out Figure, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("drawing failed: %v", r)
		}
	}()
	out = Figure{Name: name, Title: f.title, Caption: f.caption}

	img := vgimg.NewWith(vgimg.UseWH(figWidth, figHeight), vgimg.UseDPI(figDPI),
		vgimg.UseBackgroundColor(color.White))
	f.draw(draw.New(img))
	var png bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&png); err != nil {
		return out, fmt.Errorf("encoding PNG: %w", err)
	}

	svg := vgsvg.New(figWidth, figHeight)
	dc := draw.New(svg)
	fillRect(dc, dc.Rectangle, color.White) // viewers with a dark background
	f.draw(dc)
	var buf bytes.Buffer
	if _, err := svg.WriteTo(&buf); err != nil {
		return out, fmt.Errorf("encoding SVG: %w", err)
	}
	out.PNG, out.SVG = png.Bytes(), svgFonts(buf.Bytes())
	return out, nil
}

// svgFonts adds metric-compatible fallbacks to the Liberation fonts the SVG
// names, so viewers without them keep the layout (fonts are not embedded,
// which keeps committed SVGs small).
func svgFonts(svg []byte) []byte {
	s := string(svg)
	s = strings.ReplaceAll(s, "font-family:Liberation Sans;", "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")
	s = strings.ReplaceAll(s, "font-family:Liberation Serif;", "font-family:'Liberation Serif','Times New Roman',Times,serif;")
	s = strings.ReplaceAll(s, "font-family:Liberation Mono;", "font-family:'Liberation Mono','Courier New',monospace;")
	return []byte(s)
}
