package plots

import (
	"image/color"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// diagramMinScale is the smallest share of the figures' type sizes a
// diagram's text shrinks to when its boxes would not fit their room: small
// multiples of a large graph stay legible rather than overlapping.
const diagramMinScale = 0.65

// diagramMargin is the room before the first layer's middle and after the
// last one's, in layers: a little more than half the most a box may take
// along the flow (0.62 of the room between layers' middles).
const diagramMargin = 0.32

// diagramArrowRoom is the least room between the boxes of two layers: an
// arrow long enough to show its head and its label.
const diagramArrowRoom = 0.5 * vg.Inch

// diagramGeometry is where a diagram's boxes lie on its canvas. Calls flow
// from layer to layer (a layout's columns), left to right or top to
// bottom (diagramFit).
type diagramGeometry struct {
	c          draw.Canvas
	l          diagramLayout
	down       bool      // calls flow top to bottom
	pitch      vg.Length // the distance between layers
	name, note text.Style
	lines      [][]string  // by service: its note's lines, wrapped; none where notes do not fit
	boxW       vg.Length   // every service's box's width
	outside    []vg.Length // by node outside the graph (the users): its name's width; 0 for a service
	boxH       []vg.Length // by service
	noteH      vg.Length   // a note line's height
	labelStyle text.Style  // the arrows' labels
	// score says how well the text fits: 2 + its scale with the notes, 1
	// + its scale with names alone, and when even the names overlap at
	// diagramMinScale, the share of their size that fits, less 1.
	score float64
}

// diagramFit is how diagrams drawn side by side are drawn alike: the
// direction their calls flow and the one size of text they all fit.
type diagramFit struct {
	down bool    // calls flow top to bottom
	cap  float64 // the highest diagramGeometry score a diagram may take
}

// bestFit is the fit of the diagrams ds, laid out by ls, on the canvases
// cs: the direction in which the diagram that fits worst fits best (the
// first canvas's longer side on a tie), capped at that diagram's score.
func bestFit(cs []draw.Canvas, ds []*Diagram, ls []diagramLayout) diagramFit {
	tall := cs[0].Max.Y-cs[0].Min.Y > cs[0].Max.X-cs[0].Min.X
	best := diagramFit{cap: math.Inf(-1)}
	for _, down := range []bool{tall, !tall} {
		score := math.Inf(1)
		for i := range cs {
			score = math.Min(score, fitGeometry(cs[i], ds[i], ls[i], diagramFit{down: down, cap: math.Inf(1)}).score)
		}
		if score > best.cap {
			best = diagramFit{down: down, cap: score}
		}
	}
	return best
}

// fitGeometry sizes the boxes of d laid out by l for c, its calls flowing
// as fit says: as wide as the widest text and as tall as each one's lines
// need, at the largest size whose score is within fit's cap. Where the
// text leaves too little room between layers for the arrows, or overlaps
// the neighbours in a layer, notes wrap at their plain spaces and the type
// shrinks in steps down to diagramMinScale; where even that does not fit,
// the boxes hold their names alone.
func fitGeometry(c draw.Canvas, d *Diagram, l diagramLayout, fit diagramFit) *diagramGeometry {
	g := &diagramGeometry{c: c, l: l, down: fit.down}
	along, across := c.Max.X-c.Min.X, c.Max.Y-c.Min.Y
	if g.down {
		along, across = across, along
	}
	g.pitch = along / (vg.Length(len(l.rows)-1) + 2*diagramMargin)
	slot := across / vg.Length(slices.Max(l.rows))
	// Between layers, room for an arrow and its label.
	room := min(0.62*g.pitch, g.pitch-diagramArrowRoom)
	limW, limH := room, 0.8*slot
	if g.down {
		limW, limH = 0.88*slot, room
	}
	scales := []float64{1, 0.9, 0.8, 0.72, diagramMinScale}
	for level, notes := range []bool{true, false} {
		for _, k := range scales {
			score := 2 - float64(level) + k
			if score > fit.cap {
				continue
			}
			g.size(d, k, limW, notes)
			if g.boxW <= limW && slices.Max(g.boxH) <= limH {
				g.score = score
				return g
			}
		}
	}
	// Names alone at the smallest type overlap: the less, the better.
	g.size(d, diagramMinScale, limW, false)
	g.score = math.Min(float64(limW/g.boxW), float64(limH/slices.Max(g.boxH))) - 1
	return g
}

// size sets the type at share k of the figures' sizes and the boxes' sizes
// for it, with notes (wrapped to fit width w where they can) or without.
func (g *diagramGeometry) size(d *Diagram, k float64, w vg.Length, notes bool) {
	g.name, g.note = textStyle(vg.Length(labelSize*k)), textStyle(vg.Length(tickSize*k))
	for _, s := range []*text.Style{&g.name, &g.note} {
		s.XAlign, s.YAlign = draw.XCenter, draw.YCenter
	}
	g.labelStyle, g.noteH = g.note, g.note.Height("Xg")
	pad, padH := vg.Length(k)*0.16*vg.Inch, vg.Length(k)*0.1*vg.Inch
	g.lines = make([][]string, len(d.Services))
	g.outside = make([]vg.Length, len(d.Services))
	g.boxW, g.boxH = 0, make([]vg.Length, len(d.Services))
	for v, s := range d.Services {
		g.boxH[v] = g.name.Height("Xg") + padH
		if s.Outside {
			g.outside[v] = g.name.Width(s.Name) + pad
			continue
		}
		g.boxW = max(g.boxW, g.name.Width(s.Name))
		if s.Note != "" && notes {
			g.lines[v] = wrap(g.note, s.Note, w-pad)
		}
		for _, line := range g.lines[v] {
			g.boxW = max(g.boxW, g.note.Width(line))
		}
		g.boxH[v] += g.noteH * vg.Length(len(g.lines[v]))
	}
	g.boxW += pad
}

// width is the width of node v's box.
func (g *diagramGeometry) width(v int) vg.Length {
	if g.outside[v] > 0 {
		return g.outside[v]
	}
	return g.boxW
}

// centre is the middle of service v's box.
func (g *diagramGeometry) centre(v int) vg.Point {
	n := g.l.rows[g.l.column[v]]
	a := g.pitch * (vg.Length(g.l.column[v]) + diagramMargin)
	if g.down {
		slot := (g.c.Max.X - g.c.Min.X) / vg.Length(n)
		return vg.Point{X: g.c.Min.X + slot*(vg.Length(g.l.row[v])+0.5), Y: g.c.Max.Y - a}
	}
	slot := (g.c.Max.Y - g.c.Min.Y) / vg.Length(n)
	return vg.Point{X: g.c.Min.X + a, Y: g.c.Max.Y - slot*(vg.Length(g.l.row[v])+0.5)}
}

// port is where a call leaves (out) or reaches service v's box: on the
// side that faces the next layer (or the one before), shifted across it
// by the share at (−0.5 to 0.5) of the middle 60% of that side.
func (g *diagramGeometry) port(v int, out bool, at float64) vg.Point {
	p := g.centre(v)
	sign := vg.Length(1)
	if !out {
		sign = -1
	}
	if g.down {
		return vg.Point{X: p.X + vg.Length(at)*0.6*g.width(v), Y: p.Y - sign*g.boxH[v]/2}
	}
	return vg.Point{X: p.X + sign*g.width(v)/2, Y: p.Y - vg.Length(at)*0.6*g.boxH[v]}
}

// ports spreads the calls leaving (out) or reaching each box over its
// side, in the order of the other ends' places across the layers, so that
// arrows neither meet nor cross at a box; by call.
func (g *diagramGeometry) ports(d *Diagram, out bool) []vg.Point {
	at := make([]vg.Point, len(d.Calls))
	across := func(v int) vg.Length { // the other ends' order: left to right, or top to bottom
		if p := g.centre(v); g.down {
			return p.X
		} else {
			return -p.Y
		}
	}
	for v := range d.Services {
		var es []int
		for i, e := range d.Calls {
			if out && e.From == v || !out && e.To == v {
				es = append(es, i)
			}
		}
		far := func(e DiagramCall) int {
			if out {
				return e.To
			}
			return e.From
		}
		sort.SliceStable(es, func(a, b int) bool { return across(far(d.Calls[es[a]])) < across(far(d.Calls[es[b]])) })
		for k, i := range es {
			at[i] = g.port(v, out, float64(k+1)/float64(len(es)+1)-0.5)
		}
	}
	return at
}

// drawDiagram draws d laid out by l on c as fit says, its arrows on
// scale; its legend is diagramLegend.
func drawDiagram(c draw.Canvas, d *Diagram, l diagramLayout, fit diagramFit, scale ampScale) {
	if len(l.rows) == 0 {
		return
	}
	g := fitGeometry(c, d, l, fit)
	from, to := g.ports(d, true), g.ports(d, false)
	// Calls first, under the boxes, an arrowhead at the callee; then their
	// labels, each on a white patch where it meets no other label.
	var patches []vg.Rectangle
	for i, e := range d.Calls {
		drawArrow(c, from[i], to[i], scale.style(e.Amplification))
	}
	for i, e := range d.Calls {
		patches = drawAmplification(c, g, from[i], to[i], e.Amplification, patches)
	}
	for v, s := range d.Services {
		p := g.centre(v)
		r := vg.Rectangle{Min: vg.Point{X: p.X - g.boxW/2, Y: p.Y - g.boxH[v]/2}, Max: vg.Point{X: p.X + g.boxW/2, Y: p.Y + g.boxH[v]/2}}
		if s.Outside { // no service: its name alone
			c.FillText(g.name, p, s.Name)
			continue
		}
		fillRect(c, r, serviceFill(s.State))
		c.StrokeLines(draw.LineStyle{Color: color.Gray{Y: 0x30}, Width: vg.Points(1)},
			[]vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min})
		ns, nts := g.name, g.note
		if s.State == stuckCell {
			ns.Color, nts.Color = color.White, color.White
		}
		// The name and the note's lines, centred together in the box.
		lines := g.lines[v]
		nameH := g.name.Height("Xg")
		top := p.Y + (nameH+g.noteH*vg.Length(len(lines)))/2
		c.FillText(ns, vg.Point{X: p.X, Y: top - nameH/2}, s.Name)
		for k, line := range lines {
			c.FillText(nts, vg.Point{X: p.X, Y: top - nameH - g.noteH*(vg.Length(k)+0.5)}, line)
		}
	}
}

// drawArrow draws one call's arrow from a to b in sty.
func drawArrow(c draw.Canvas, a, b vg.Point, sty draw.LineStyle) {
	head := 0.1*vg.Inch + sty.Width
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	length := math.Hypot(dx, dy)
	if length == 0 {
		return
	}
	ux, uy := vg.Length(dx/length), vg.Length(dy/length)
	base := vg.Point{X: b.X - head*ux, Y: b.Y - head*uy}
	c.StrokeLines(sty, []vg.Point{a, base})
	half := head * 0.6
	c.FillPolygon(sty.Color, []vg.Point{b,
		{X: base.X - half*uy, Y: base.Y + half*ux},
		{X: base.X + half*uy, Y: base.Y - half*ux}})
}

// drawAmplification writes a call's amplification ("×2.8"; "no calls" for
// NaN) on a white patch over its arrow from a to b: half way, or where the
// patch meets none of those already drawn (nearer the callee first, where
// the arrows of a fan-out lie apart), or nowhere when every place would;
// it returns the patches with its own.
func drawAmplification(c draw.Canvas, g *diagramGeometry, a, b vg.Point, amp float64, patches []vg.Rectangle) []vg.Rectangle {
	text := "×" + numText(roundTo(amp, 2))
	if math.IsNaN(amp) {
		text = "no calls"
	}
	pad := 0.03 * vg.Inch
	w, h := g.labelStyle.Width(text)/2+pad, g.noteH/2
	patch := func(f vg.Length) vg.Rectangle {
		m := vg.Point{X: a.X + f*(b.X-a.X), Y: a.Y + f*(b.Y-a.Y)}
		return vg.Rectangle{Min: vg.Point{X: m.X - w, Y: m.Y - h}, Max: vg.Point{X: m.X + w, Y: m.Y + h}}
	}
	var r vg.Rectangle
	for _, f := range []vg.Length{0.5, 0.62, 0.74, 0.38} {
		if !slices.ContainsFunc(patches, func(q vg.Rectangle) bool { return overlap(q, patch(f)) }) {
			r = patch(f)
			break
		}
	}
	if r == (vg.Rectangle{}) {
		return patches // no room: the arrow's width and colour say it
	}
	fillRect(c, r, color.White)
	c.FillText(g.labelStyle, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}, text)
	return append(patches, r)
}

// overlap reports whether two rectangles share some area.
func overlap(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}
