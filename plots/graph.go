package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/stormlab/stormlab/experiments/spec"
)

// graph draws a service graph's diagram (diagram.go) for each value of its
// x axis, side by side: each service coloured by its verdict, each call by
// its tries per user request, the same scale in every panel. Every other
// axis must hold one value, as in the other kinds. Its title, caption and
// findings are in graph_text.go; the diagrams come from the table
// (graph_table.go).
type graph struct{}

// maxDiagrams is the most panels a graph figure draws: more would be too
// small to read on a slide.
const maxDiagrams = 6

func (graph) defaultName(f *spec.Figure) string { return joinNonEmpty("graph", f.X) }

// checkFacts checks, before any run, that the cells the figure draws have
// a graph and that the results will have the columns it reads.
func (graph) checkFacts(facts []Facts, labels []string, columns []string) error {
	for i := range facts {
		if err := checkGraph(labels[i], facts[i].Graph, columns); err != nil {
			return err
		}
	}
	return nil
}

// graphPanel is one diagram of a graph figure.
type graphPanel struct {
	title string
	d     *Diagram
	l     diagramLayout
}

// panels lays out the diagram of each value of f's x axis, in the axis's
// order.
func (graph) panels(t *Table, f *spec.Figure) ([]graphPanel, error) {
	xo, err := t.order(f.X)
	if err != nil {
		return nil, err
	}
	if err := t.checkAxes("graph", f.X); err != nil {
		return nil, err
	}
	if n := len(xo.values); n > maxDiagrams {
		return nil, fmt.Errorf("a graph figure draws at most %d diagrams, one per value of x, and %s has %d: pick some with the figure's only = { %s = [...] }", maxDiagrams, f.X, n, f.X)
	}
	out := make([]graphPanel, len(xo.values))
	for i := range t.Rows {
		r := &t.Rows[i]
		p := &out[xo.of(r)]
		d, err := t.diagram(r)
		if err != nil {
			return nil, err
		}
		l, err := layoutDiagram(d)
		if err != nil {
			return nil, fmt.Errorf("cell %s: %w", r.Label(), err)
		}
		p.d, p.l = d, l
		if v := xo.values[xo.of(r)]; f.X != "" {
			// The title names the axis: a name stands alone.
			p.title = v.Text
			if v.IsNum {
				p.title = valueLabel(f.X, v)
			}
		}
	}
	return out, nil
}

// graphTile is where one panel is drawn: its title's lines, wrapped to
// its width, from top, and its diagram's canvas below the longest title.
type graphTile struct {
	title []string
	top   vg.Point
	c     draw.Canvas
}

// graphTiles place the panels on c, and say how their diagrams fit (one
// direction, one size of text): of the tilings in rows and columns that
// hold every panel, the one whose diagrams fit best (bestFit's cap
// highest; the fewest rows on a tie).
func graphTiles(c draw.Canvas, panels []graphPanel) ([]graphTile, diagramFit) {
	pt := textStyle(panelSize)
	var best []graphTile
	most := diagramFit{cap: math.Inf(-1)}
	ds, ls := make([]*Diagram, len(panels)), make([]diagramLayout, len(panels))
	for i, p := range panels {
		ds[i], ls[i] = p.d, p.l
	}
	for rows := 1; rows <= len(panels); rows++ {
		cols := (len(panels) + rows - 1) / rows
		if (rows-1)*cols >= len(panels) {
			continue // a row would be empty
		}
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: 0.25 * vg.Inch, PadY: 0.2 * vg.Inch}
		out := make([]graphTile, len(panels))
		lines := 0 // every diagram starts below the longest title
		for i, p := range panels {
			t := &out[i]
			t.c = tiles.At(c, i%cols, i/cols)
			t.top = vg.Point{X: t.c.Center().X, Y: t.c.Max.Y}
			if p.title != "" {
				t.title = wrap(pt, p.title, slack*(t.c.Max.X-t.c.Min.X))
				lines = max(lines, len(t.title))
			}
		}
		cs := make([]draw.Canvas, len(out))
		for i := range out {
			if lines > 0 {
				out[i].c.Max.Y -= pt.Height("Xg")*vg.Length(lines) + 0.1*vg.Inch
			}
			cs[i] = out[i].c
		}
		if fit := bestFit(cs, ds, ls); fit.cap > most.cap {
			best, most = out, fit
		}
	}
	return best, most
}

func (g graph) draw(t *Table, f *spec.Figure) (figure, error) {
	panels, err := g.panels(t, f)
	if err != nil {
		return figure{}, err
	}
	ds := make([]*Diagram, len(panels))
	for i := range panels {
		ds[i] = panels[i].d
	}
	scale := newAmpScale(ds)
	title, fs, faultless := graphTitle(f), facts(t.Rows), noFault(t.Rows)
	drawFn := func(c draw.Canvas) {
		body := header(c, title, subtitle(fs))
		right := draw.Crop(body, body.Max.X-body.Min.X-legendWidth, 0, 0, 0)
		left := draw.Crop(body, 0, -legendWidth-0.15*vg.Inch, 0, 0)
		pt := textStyle(panelSize)
		pt.XAlign, pt.YAlign = draw.XCenter, draw.YTop
		tiles, fit := graphTiles(left, panels)
		for i, t := range tiles {
			drawDiagram(t.c, panels[i].d, panels[i].l, fit, scale)
			for k, line := range t.title {
				t.c.FillText(pt, vg.Point{X: t.top.X, Y: t.top.Y - pt.Height("Xg")*vg.Length(k)}, line)
			}
		}
		drawLegend(right, "Services by their verdict; calls by their tries per user request", diagramLegend(ds, scale, faultless))
	}
	return figure{title: title, caption: caption(fs, graphCaption(f, ds, faultless)), draw: drawFn}, nil
}
