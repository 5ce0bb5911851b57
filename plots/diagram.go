package plots

import (
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A diagram draws a service graph: a box per service coloured by how it
// ended, an arrow per call whose width and colour say how many tries the
// call became (its amplification). Entry points are on the left and every
// call goes to the right (diagram_layout.go).

// healthyColour fills a service that was healthy at the end of its run.
func healthyColour() color.Color { return color.RGBA{R: 0xa6, G: 0xd9, B: 0x6a, A: 0xff} }

// serviceFill is the fill of a service in state s.
func serviceFill(s cellState) color.Color {
	if s == valueCell {
		return healthyColour()
	}
	return s.colour()
}

// serviceLegend is the legend's text for a service in state s.
func serviceLegend(s cellState) string {
	if s == valueCell {
		return "healthy at the end of the run"
	}
	return s.legend()
}

// ampScale maps an amplification to an arrow's width and colour: ×1 a
// thin grey, up to top a thick dark red.
type ampScale struct{ top float64 }

// newAmpScale is the scale for d's calls: to the largest amplification,
// at least ×3 so that a graph without retries is not drawn alarming.
func newAmpScale(d *Diagram) ampScale {
	top := 3.0
	for _, e := range d.Calls {
		if !math.IsNaN(e.Amplification) {
			top = max(top, e.Amplification)
		}
	}
	return ampScale{top: top}
}

// at is the share of the scale a is at, 0 for ×1 (or less) and 1 at its top.
func (s ampScale) at(a float64) float64 {
	if math.IsNaN(a) || a <= 1 {
		return 0
	}
	return math.Min(1, (a-1)/(s.top-1))
}

// style is the arrow of an edge of amplification a.
func (s ampScale) style(a float64) draw.LineStyle {
	f := s.at(a)
	lerp := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + f*(float64(y)-float64(x)))) }
	// From a mid grey to the stuck red, darker.
	col := color.RGBA{R: lerp(0x90, 0xa5), G: lerp(0x90, 0x0f), B: lerp(0x90, 0x15), A: 0xff}
	return draw.LineStyle{Color: col, Width: vg.Points(1.5 + 6*f)}
}

// drawDiagram draws d laid out by l on c; its legend is diagramLegend.
func drawDiagram(c draw.Canvas, d *Diagram, l diagramLayout) {
	cols := len(l.rows)
	if cols == 0 {
		return
	}
	colW := (c.Max.X - c.Min.X) / vg.Length(cols)
	name := textStyle(labelSize)
	name.XAlign, name.YAlign = draw.XCenter, draw.YCenter
	note := textStyle(tickSize)
	note.XAlign, note.YAlign = draw.XCenter, draw.YCenter
	// Every box is as wide as the widest text needs, within 60% of a
	// column, so the arrows between columns keep room for their labels.
	boxW := vg.Length(0)
	for _, s := range d.Services {
		boxW = max(boxW, name.Width(s.Name), note.Width(s.Note))
	}
	boxW = min(boxW+0.2*vg.Inch, colW*0.6)
	boxH := name.Height("Xg") + note.Height("Xg") + 0.16*vg.Inch
	centre := func(v int) vg.Point {
		n := l.rows[l.column[v]]
		rowH := (c.Max.Y - c.Min.Y) / vg.Length(n)
		return vg.Point{
			X: c.Min.X + colW*(vg.Length(l.column[v])+0.5),
			Y: c.Max.Y - rowH*(vg.Length(l.row[v])+0.5),
		}
	}
	// ports spreads the calls leaving (or reaching) a box over the middle
	// of its right (or left) side, in the order of the other ends' rows,
	// so that arrows neither meet nor cross at a box.
	out, in := make([]vg.Length, len(d.Calls)), make([]vg.Length, len(d.Calls))
	for v := range d.Services {
		for _, side := range []struct {
			at   []vg.Length
			mine func(DiagramCall) int
			far  func(DiagramCall) int
		}{
			{out, func(e DiagramCall) int { return e.From }, func(e DiagramCall) int { return e.To }},
			{in, func(e DiagramCall) int { return e.To }, func(e DiagramCall) int { return e.From }},
		} {
			var es []int
			for i, e := range d.Calls {
				if side.mine(e) == v {
					es = append(es, i)
				}
			}
			sort.SliceStable(es, func(a, b int) bool {
				ea, eb := d.Calls[es[a]], d.Calls[es[b]]
				return centre(side.far(ea)).Y > centre(side.far(eb)).Y
			})
			for k, i := range es {
				side.at[i] = boxH * 0.6 * (0.5 - vg.Length(k+1)/vg.Length(len(es)+1))
			}
		}
	}
	scale := newAmpScale(d)
	label := textStyle(tickSize)
	label.XAlign, label.YAlign = draw.XCenter, draw.YCenter
	// Calls first, under the boxes: from the caller's right side to the
	// callee's left side, an arrowhead at the callee, the amplification
	// written on a white patch in the middle.
	for i, e := range d.Calls {
		from, to := centre(e.From), centre(e.To)
		from.X += boxW / 2
		from.Y += out[i]
		to.X -= boxW / 2
		to.Y += in[i]
		sty := scale.style(e.Amplification)
		head := 0.12*vg.Inch + sty.Width
		dx, dy := float64(to.X-from.X), float64(to.Y-from.Y)
		length := math.Hypot(dx, dy)
		ux, uy := dx/length, dy/length
		base := vg.Point{X: to.X - head*vg.Length(ux), Y: to.Y - head*vg.Length(uy)}
		c.StrokeLines(sty, []vg.Point{from, base})
		half := head * 0.6
		c.FillPolygon(sty.Color, []vg.Point{to,
			{X: base.X - half*vg.Length(uy), Y: base.Y + half*vg.Length(ux)},
			{X: base.X + half*vg.Length(uy), Y: base.Y - half*vg.Length(ux)}})
		text := "×" + Number(roundTo(e.Amplification, 2))
		if math.IsNaN(e.Amplification) {
			text = "no calls"
		}
		mid := vg.Point{X: (from.X + base.X) / 2, Y: (from.Y + base.Y) / 2}
		pad := 0.03 * vg.Inch
		w, h := label.Width(text)/2+pad, label.Height(text)/2
		fillRect(c, vg.Rectangle{Min: vg.Point{X: mid.X - w, Y: mid.Y - h}, Max: vg.Point{X: mid.X + w, Y: mid.Y + h}}, color.White)
		c.FillText(label, mid, text)
	}
	for v, s := range d.Services {
		p := centre(v)
		r := vg.Rectangle{Min: vg.Point{X: p.X - boxW/2, Y: p.Y - boxH/2}, Max: vg.Point{X: p.X + boxW/2, Y: p.Y + boxH/2}}
		fillRect(c, r, serviceFill(s.State))
		c.StrokeLines(draw.LineStyle{Color: color.Gray{Y: 0x30}, Width: vg.Points(1)},
			[]vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min})
		ns, nts := name, note
		if s.State == stuckCell {
			ns.Color, nts.Color = color.White, color.White
		}
		if s.Note == "" {
			c.FillText(ns, p, s.Name)
			continue
		}
		c.FillText(ns, vg.Point{X: p.X, Y: p.Y + name.Height("Xg")/2}, s.Name)
		c.FillText(nts, vg.Point{X: p.X, Y: p.Y - note.Height("Xg")/2 - 0.02*vg.Inch}, s.Note)
	}
}

// diagramLegend is the legend of d: the states its services end in, then
// three arrows of the amplification scale.
func diagramLegend(d *Diagram) []entry {
	var out []entry
	seen := map[cellState]bool{}
	for _, s := range []cellState{valueCell, drainingCell, stuckCell, notJudgedCell, abortedCell} {
		for _, v := range d.Services {
			if v.State == s && !seen[s] {
				seen[s] = true
				out = append(out, entry{text: serviceLegend(s), thumbs: []plot.Thumbnailer{swatch{serviceFill(s)}}})
			}
		}
	}
	scale := newAmpScale(d)
	for _, a := range []float64{1, (1 + scale.top) / 2, scale.top} {
		out = append(out, entry{
			text:   triesPerCall(a),
			thumbs: []plot.Thumbnailer{lineThumb{scale.style(a)}},
		})
	}
	return out
}

// triesPerCall is an arrow's legend: "1 try per call (no retries)", "2.5
// tries per call".
func triesPerCall(a float64) string {
	if a == 1 {
		return "1 try per call (no retries)"
	}
	return Number(roundTo(a, 1)) + " tries per call"
}
