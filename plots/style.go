package plots

import (
	"image/color"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	xfont "golang.org/x/image/font"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Type sizes in points. At 160 dpi a point is 2.2 px, so tick labels are
// about 24 px high on a 1600 × 900 slide.
const (
	titleSize    = 17
	subtitleSize = 11
	panelSize    = 13 // panel titles
	labelSize    = 13 // axis labels
	tickSize     = 11
	legendSize   = 11
	lineWidth    = 2.2
	margin       = 0.12 * vg.Inch
	legendWidth  = 2.8 * vg.Inch // the column on the right for legends

	// slack is the share of a width that wrapped text fills, leaving room
	// for an SVG viewer's fallback font, which may be wider.
	slack = 0.92
)

// sans is the figures' typeface: Liberation Sans (metrically Arial), which
// gonum/plot bundles.
func sans(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

// textStyle is the figures' font at size points.
func textStyle(size vg.Length) text.Style {
	return text.Style{Color: color.Black, Font: sans(size), Handler: plot.DefaultTextHandler}
}

// newPlot is a plot with slide-sized type and nice ticks.
func newPlot() *plot.Plot {
	p := plot.New()
	p.Title.TextStyle.Font = sans(panelSize)
	p.Title.Padding = 0.08 * vg.Inch
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(labelSize)
		a.Tick.Label.Font = sans(tickSize)
		a.Tick.Marker = niceTicks{}
		a.Label.Padding = 0.04 * vg.Inch
		a.Tick.Length = 0.06 * vg.Inch
	}
	return p
}

// fillRect fills r on c.
func fillRect(c draw.Canvas, r vg.Rectangle, col color.Color) {
	c.FillPolygon(col, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
}

// header draws the figure's title and its subtitle (wrapped to the width)
// at the top of c and returns the canvas below them.
func header(c draw.Canvas, title, subtitle string) draw.Canvas {
	c = draw.Crop(c, margin, -margin, margin, -margin)
	ts := textStyle(titleSize)
	ts.XAlign, ts.YAlign = draw.XCenter, draw.YTop
	y := c.Max.Y
	c.FillText(ts, vg.Point{X: c.Center().X, Y: y}, title)
	y -= ts.Height(title) + 0.03*vg.Inch
	ss := textStyle(subtitleSize)
	ss.Color = color.Gray{Y: 0x40}
	ss.XAlign, ss.YAlign = draw.XCenter, draw.YTop
	for _, line := range wrapItems(ss, subtitle, slack*(c.Max.X-c.Min.X)) {
		c.FillText(ss, vg.Point{X: c.Center().X, Y: y}, line)
		y -= ss.Height(line)
	}
	c.Max.Y = y - 0.08*vg.Inch
	return c
}

// wrap breaks s into lines no wider than w, at plain spaces (not at
// no-break spaces); a newline in s always breaks.
func wrap(sty text.Style, s string, w vg.Length) []string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, word := range strings.Split(para, " ") {
			if word == "" {
				continue
			}
			if line != "" && sty.Width(line+" "+word) > w {
				out = append(out, line)
				line = word
				continue
			}
			if line != "" {
				line += " "
			}
			line += word
		}
		out = append(out, line)
	}
	return out
}

// wrapItems breaks a " · " separated list into lines no wider than w,
// only between items and evenly: two lines of about the same width rather
// than a full line and a stray item. It falls back to wrap.
func wrapItems(sty text.Style, s string, w vg.Length) []string {
	const sep = " · "
	if sty.Width(s) <= w {
		return []string{s}
	}
	items := strings.Split(s, sep)
	best, bestW := -1, w
	for k := 1; k < len(items); k++ {
		a, b := strings.Join(items[:k], sep), strings.Join(items[k:], sep)
		if m := max(sty.Width(a), sty.Width(b)); m <= bestW {
			best, bestW = k, m
		}
	}
	if best < 0 {
		return wrap(sty, s, w)
	}
	return []string{strings.Join(items[:best], sep), strings.Join(items[best:], sep)}
}

// entry is one line of a legend: its thumbnails drawn over each other, then
// the text.
type entry struct {
	text   string
	thumbs []plot.Thumbnailer
}

// drawLegend draws a titled legend from the top of c down, one entry under
// the other, wrapping texts to c's width, and returns the height it used.
func drawLegend(c draw.Canvas, title string, entries []entry) vg.Length {
	sty := textStyle(legendSize)
	sty.YAlign = draw.YTop
	thumbW, gap := 0.38*vg.Inch, 0.08*vg.Inch
	y := c.Max.Y
	if title != "" {
		ts := sty
		ts.Font.Weight = xfont.WeightBold
		for _, line := range wrap(ts, title, slack*(c.Max.X-c.Min.X)) {
			c.FillText(ts, vg.Point{X: c.Min.X, Y: y}, line)
			y -= ts.Height(line)
		}
		y -= 0.05 * vg.Inch
	}
	lineH := sty.Height("Xg")
	for _, e := range entries {
		lines := wrap(sty, e.text, slack*(c.Max.X-c.Min.X-thumbW-gap))
		h := lineH * vg.Length(len(lines))
		// The thumbnail sits beside the first line.
		icon := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: c.Min.X, Y: y - lineH + 0.04*vg.Inch},
			Max: vg.Point{X: c.Min.X + thumbW, Y: y - 0.04*vg.Inch},
		}}
		for _, t := range e.thumbs {
			t.Thumbnail(&icon)
		}
		for i, line := range lines {
			c.FillText(sty, vg.Point{X: c.Min.X + thumbW + gap, Y: y - lineH*vg.Length(i)}, line)
		}
		y -= h + 0.07*vg.Inch
	}
	return c.Max.Y - y
}

// swatch is a legend thumbnail: a filled box with a thin outline.
type swatch struct{ fill color.Color }

// Thumbnail implements plot.Thumbnailer.
func (s swatch) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	fillRect(*c, r, s.fill)
	c.StrokeLines(draw.LineStyle{Color: color.Gray{Y: 0x60}, Width: 0.5},
		[]vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min})
}

// glyphThumb is a legend thumbnail: one glyph in the middle.
type glyphThumb struct{ sty draw.GlyphStyle }

// Thumbnail implements plot.Thumbnailer.
func (g glyphThumb) Thumbnail(c *draw.Canvas) { c.DrawGlyphNoClip(g.sty, c.Center()) }

// lineThumb is a legend thumbnail: a horizontal line.
type lineThumb struct{ sty draw.LineStyle }

// Thumbnail implements plot.Thumbnailer.
func (l lineThumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(l.sty, c.Min.X, y, c.Max.X, y)
}

// lineColours is a colour-blind-safe qualitative palette (Okabe and Ito),
// without its yellow, which is too light on white.
func lineColours() []color.Color {
	return []color.Color{
		color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xff}, // blue
		color.RGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 0xff}, // vermillion
		color.RGBA{R: 0x00, G: 0x9E, B: 0x73, A: 0xff}, // bluish green
		color.RGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 0xff}, // reddish purple
		color.RGBA{R: 0xE6, G: 0x9F, B: 0x00, A: 0xff}, // orange
		color.RGBA{R: 0x56, G: 0xB4, B: 0xE9, A: 0xff}, // sky blue
		color.RGBA{R: 0x00, G: 0x00, B: 0x00, A: 0xff}, // black
	}
}

// lineColour is the colour of line i; past the palette, colours repeat.
func lineColour(i int) color.Color {
	cs := lineColours()
	return cs[i%len(cs)]
}

// lineDash is the dash pattern of line i: solid for the first round of
// colours, then dashed, so repeated colours stay distinguishable.
func lineDash(i int) []vg.Length {
	if (i/len(lineColours()))%2 == 1 {
		return []vg.Length{vg.Points(6), vg.Points(3)}
	}
	return nil
}

// faultColour shades the fault window.
func faultColour() color.Color { return color.RGBA{R: 0xe4, G: 0xe4, B: 0xe4, A: 0xff} }

// niceTicks labels round numbers, about five of them, with k and M suffixes
// for large ones.
type niceTicks struct{}

// Ticks implements plot.Ticker.
func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: formatNum(lo)}}
	}
	step := niceStep((hi - lo) / 5)
	var ticks []plot.Tick
	for v := math.Ceil(lo/step-1e-9) * step; v <= hi+step*1e-9; v += step {
		v = math.Round(v/step) * step // no accumulated error in the labels
		ticks = append(ticks, plot.Tick{Value: v, Label: formatNum(v)})
	}
	// Unlabelled minor ticks halfway.
	for i, n := 0, len(ticks); i <= n; i++ {
		var m float64
		if i < n {
			m = ticks[i].Value - step/2
		} else {
			m = ticks[n-1].Value + step/2
		}
		if m >= lo && m <= hi {
			ticks = append(ticks, plot.Tick{Value: m})
		}
	}
	return ticks
}

// axisTicks are ticks at given values, such as an axis's own values; unlike
// plot.ConstantTicks (which the bars' category names use), drawTiled thins
// their labels when they would overlap.
type axisTicks []plot.Tick

// Ticks implements plot.Ticker.
func (t axisTicks) Ticks(_, _ float64) []plot.Tick { return t }

// upTo drops a ticker's ticks above max: a share's axis may run past 1 to
// make room for labels, but has no values there.
type upTo struct {
	plot.Ticker
	max float64
}

// Ticks implements plot.Ticker.
func (u upTo) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range u.Ticker.Ticks(lo, hi) {
		if t.Value <= u.max+1e-9 {
			out = append(out, t)
		}
	}
	return out
}

// fitTicks keeps the labels of a ticker from touching along an axis of
// the given length. When neighbouring labels would come closer than
// tickGap, an x axis that may stagger moves every other label down a line
// if that leaves room (an axis placed by index cannot be read between its
// labels, so it keeps them all where it can); otherwise fitTicks keeps
// every k-th label (the first, then every k-th after it, for the smallest
// k that leaves room) and leaves the others as unlabelled ticks.
type fitTicks struct {
	plot.Ticker
	sty      text.Style // the tick labels' style
	length   vg.Length  // the data area's length along the axis
	vertical bool       // a y axis: labels stack by their height, not their width
	stagger  bool       // labels may alternate between two lines
}

// tickGap is the least space between two tick labels.
const tickGap = 0.08 * vg.Inch

// Ticks implements plot.Ticker.
func (f fitTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := f.Ticker.Ticks(lo, hi)
	if !(hi > lo) || f.length <= 0 {
		return ticks
	}
	var labelled []int // the labelled ticks within the axis, by value
	for i, t := range ticks {
		if t.Label != "" && t.Value >= lo && t.Value <= hi {
			labelled = append(labelled, i)
		}
	}
	sort.SliceStable(labelled, func(a, b int) bool { return ticks[labelled[a]].Value < ticks[labelled[b]].Value })
	pos := func(t plot.Tick) vg.Length { return vg.Length((t.Value-lo)/(hi-lo)) * f.length }
	size := func(t plot.Tick) vg.Length {
		if f.vertical {
			return f.sty.Height(t.Label)
		}
		return f.sty.Width(t.Label)
	}
	fits := func(k int) bool {
		for j := k; j < len(labelled); j += k {
			a, b := ticks[labelled[j-k]], ticks[labelled[j]]
			if pos(b)-pos(a) < (size(a)+size(b))/2+tickGap {
				return false
			}
		}
		return true
	}
	if fits(1) {
		return ticks
	}
	out := slices.Clone(ticks)
	if f.stagger && !f.vertical && fits(2) {
		for n, i := range labelled {
			if n%2 == 1 {
				out[i].Label = "\n" + out[i].Label
			}
		}
		return out
	}
	k := 2
	for k < len(labelled) && !fits(k) {
		k++
	}
	for n, i := range labelled {
		if n%k != 0 {
			out[i].Label = ""
		}
	}
	return out
}

// unlabelled marks an axis's ticks without writing their values, for a
// panel that shares its axis with a neighbour that writes them.
type unlabelled struct{ plot.Ticker }

// Ticks implements plot.Ticker.
func (u unlabelled) Ticks(lo, hi float64) []plot.Tick {
	ticks := u.Ticker.Ticks(lo, hi)
	for i := range ticks {
		ticks[i].Label = ""
	}
	return ticks
}

// fitAxis makes an axis's tick labels fit its data area length, for the
// tickers whose labels may be thinned (not the bars' category names, which
// wrap to fit), and reports whether it changed the ticker.
func fitAxis(a *plot.Axis, length vg.Length, vertical bool) bool {
	m := a.Tick.Marker
	if f, ok := m.(fitTicks); ok {
		m = f.Ticker
	}
	switch m.(type) {
	case niceTicks, bandTicks, expTicks, upTo:
		a.Tick.Marker = fitTicks{Ticker: m, sty: a.Tick.Label, length: length, vertical: vertical}
		return true
	case axisTicks:
		a.Tick.Marker = fitTicks{Ticker: m, sty: a.Tick.Label, length: length, vertical: vertical, stagger: true}
		return true
	}
	return false
}

// niceStep is the smallest of 1, 2, 2.5, 5 × 10^k that is at least x.
func niceStep(x float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= x*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// expTicks labels an axis that shows log10 of the values: the powers of
// ten, with minor ticks at their multiples. With floored set, the bottom of
// the axis also stands for every smaller value and is labelled "≤".
type expTicks struct{ floored bool }

// Ticks implements plot.Ticker.
func (t expTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for e := math.Floor(lo); e <= math.Ceil(hi); e++ {
		if e >= lo-1e-9 && e <= hi+1e-9 {
			label := formatNum(math.Pow(10, e))
			if t.floored && e <= lo+1e-9 {
				label = "≤" + label
			}
			ticks = append(ticks, plot.Tick{Value: e, Label: label})
		}
		for m := 2.0; m < 10; m++ {
			if v := e + math.Log10(m); v >= lo && v <= hi {
				ticks = append(ticks, plot.Tick{Value: v})
			}
		}
	}
	return ticks
}

// formatNum writes a tick value: 0.25, 40, 1,500, 20k, 6M.
func formatNum(v float64) string {
	a := math.Abs(v)
	switch {
	case v == 0:
		return "0"
	case a >= 1e6:
		return strconv.FormatFloat(round(v/1e6, 3), 'f', -1, 64) + "M"
	case a >= 1e4:
		return strconv.FormatFloat(round(v/1e3, 3), 'f', -1, 64) + "k"
	case a >= 1000:
		s := strconv.FormatFloat(round(v, 6), 'f', -1, 64)
		if i := strings.IndexByte(s, '.'); i < 0 && len(s) == 4 {
			return s[:1] + "," + s[1:]
		}
		return s
	}
	return strconv.FormatFloat(round(v, 6), 'g', -1, 64)
}

// round rounds x to d digits after the point.
func round(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}

// drawTiled lays panels out row by row in rows × cols tiles whose data
// areas line up, and draws them. The tiles after the last panel get a copy
// of it, without its y label, for the layout only.
func drawTiled(c draw.Canvas, panels []*plot.Plot, rows, cols int) {
	grid := make([][]*plot.Plot, rows)
	for r := range grid {
		grid[r] = make([]*plot.Plot, cols)
		for col := range grid[r] {
			if i := r*cols + col; i < len(panels) {
				grid[r][col] = panels[i]
			} else {
				filler := *panels[len(panels)-1]
				filler.Y.Label.Text = ""
				grid[r][col] = &filler
			}
		}
	}
	tiles := panelTiles(rows, cols)
	// gonum shrinks a plot's data area to fit an axis label longer than
	// the axis, which breaks the alignment: wrap labels to what a tile
	// leaves them, and later to the data areas the layout gives.
	// Titles wrap to the width of a tile.
	type labels struct{ x, y string }
	orig := make([][]labels, rows)
	tile := tiles.At(c, 0, 0)
	for r, row := range grid {
		for _, p := range row {
			orig[r] = append(orig[r], labels{p.X.Label.Text, p.Y.Label.Text})
			p.Title.Text = strings.Join(wrap(p.Title.TextStyle, p.Title.Text, tile.Max.X-tile.Min.X), "\n")
			p.X.Label.Text = strings.Join(wrap(p.X.Label.TextStyle, p.X.Label.Text, tile.Max.X-tile.Min.X-0.7*vg.Inch), "\n")
			p.Y.Label.Text = strings.Join(wrap(p.Y.Label.TextStyle, p.Y.Label.Text, tile.Max.Y-tile.Min.Y-0.8*vg.Inch), "\n")
		}
	}
	canvases, w, h := alignData(grid, tiles, c)
	// Fit the tick labels and the axis labels to the data areas the layout
	// gives, and lay out again; twice, as staggered x labels take height
	// from the y axes. Every panel's data area has the same size, so all
	// get the same tick labels.
	for range 2 {
		fitted := false
		for r, row := range grid {
			for col, p := range row {
				fitLabel(&p.X, orig[r][col].x, 0.95*w)
				fitLabel(&p.Y, orig[r][col].y, 0.95*h)
				x := fitAxis(&p.X, w, false)
				y := fitAxis(&p.Y, h, true)
				fitted = fitted || x || y
			}
		}
		if !fitted {
			break
		}
		canvases, w, h = alignData(grid, tiles, c)
	}
	// Level the titles of a row: a panel whose top margin is smaller than
	// its neighbours' (no tick label near the top of its axis) gets a
	// taller canvas and as much more padding under its title.
	for r, row := range grid {
		top := canvases[r][0].Max.Y
		for col := range row {
			top = max(top, canvases[r][col].Max.Y)
		}
		for col, p := range row {
			if cv := &canvases[r][col]; p.Title.Text != "" && cv.Max.Y < top {
				p.Title.Padding += top - cv.Max.Y
				cv.Max.Y = top
			}
		}
	}
	for i, p := range panels {
		p.Draw(canvases[i/cols][i%cols])
	}
}

// fitLabel sets an axis label to text wrapped to width, in a smaller type
// (down to tickSize) when a word is wider: gonum cannot lay out an axis
// whose label is wider than the axis and its tick labels.
func fitLabel(a *plot.Axis, text string, width vg.Length) {
	sty := &a.Label.TextStyle
	sty.Font.Size = labelSize
	lines := wrap(*sty, text, width)
	widest := vg.Length(0)
	for _, line := range lines {
		widest = max(widest, sty.Width(line))
	}
	if widest > width {
		sty.Font.Size = max(tickSize, vg.Length(math.Floor(float64(labelSize*width/widest))))
		lines = wrap(*sty, text, width)
	}
	a.Label.Text = strings.Join(lines, "\n")
}

// alignData lays out plots in the tiles of c so that their data areas have
// one size (w × h), line up by column and by row, and leave each column
// and row the widest margins its plots need. It returns each plot's canvas.
//
// It does what gonum's plot.Align does, except that it does not take a
// plot's margins to be the same whatever its size: gonum fits a plot's
// tick and axis labels into the canvas it gets, so a label near the end of
// an axis takes more of a small plot than of a large one, and with many
// panels plot.Align leaves their data areas of different sizes and out of
// line. Here each plot's margins are measured where it will be drawn, the
// layout redone with them, and each canvas finally moved and resized
// until its data area sits where it should; a few rounds settle both, as
// the margins change little with the size. The axis labels must fit the
// data areas (drawTiled wraps and fits them).
func alignData(grid [][]*plot.Plot, t draw.Tiles, c draw.Canvas) ([][]draw.Canvas, vg.Length, vg.Length) {
	rows, cols := len(grid), len(grid[0])
	type margins struct{ l, r, b, t vg.Length }
	m := make([][]margins, rows)
	for r, row := range grid {
		m[r] = make([]margins, cols)
		for col, p := range row {
			tile := t.At(c, col, r)
			d := p.DataCanvas(tile)
			m[r][col] = margins{d.Min.X - tile.Min.X, tile.Max.X - d.Max.X, d.Min.Y - tile.Min.Y, tile.Max.Y - d.Max.Y}
		}
	}
	out := make([][]draw.Canvas, rows)
	for r := range out {
		out[r] = make([]draw.Canvas, cols)
	}
	var w, h vg.Length
	data := make([][]vg.Rectangle, rows) // where each data area goes
	for round := range 4 {
		left, right := make([]vg.Length, cols), make([]vg.Length, cols)
		top, bottom := make([]vg.Length, rows), make([]vg.Length, rows)
		for r := range rows {
			for col := range cols {
				x := m[r][col]
				left[col], right[col] = max(left[col], x.l), max(right[col], x.r)
				bottom[r], top[r] = max(bottom[r], x.b), max(top[r], x.t)
			}
		}
		w = c.Max.X - c.Min.X - t.PadLeft - t.PadRight - t.PadX*vg.Length(cols-1)
		for col := range cols {
			w -= left[col] + right[col]
		}
		h = c.Max.Y - c.Min.Y - t.PadTop - t.PadBottom - t.PadY*vg.Length(rows-1)
		for r := range rows {
			h -= top[r] + bottom[r]
		}
		w, h = max(w/vg.Length(cols), 1), max(h/vg.Length(rows), 1)
		y := c.Max.Y - t.PadTop
		for r, row := range grid {
			data[r] = make([]vg.Rectangle, cols)
			y -= top[r]
			x := c.Min.X + t.PadLeft
			for col, p := range row {
				x += left[col]
				want := vg.Rectangle{Min: vg.Point{X: x, Y: y - h}, Max: vg.Point{X: x + w, Y: y}}
				data[r][col] = want
				mg := &m[r][col]
				cv := draw.Crop(c, 0, 0, 0, 0)
				cv.Min = vg.Point{X: x - mg.l, Y: y - h - mg.b}
				cv.Max = vg.Point{X: x + w + mg.r, Y: y + mg.t}
				out[r][col] = cv
				if round < 3 {
					// What this plot takes at about this size.
					d := p.DataCanvas(cv)
					mg.l += d.Min.X - want.Min.X
					mg.r += want.Max.X - d.Max.X
					mg.b += d.Min.Y - want.Min.Y
					mg.t += want.Max.Y - d.Max.Y
				}
				x += w + right[col] + t.PadX
			}
			y -= h + bottom[r] + t.PadY
		}
	}
	for r, row := range grid {
		for col, p := range row {
			cv, want := &out[r][col], data[r][col]
			for range 4 {
				d := p.DataCanvas(*cv)
				*cv = draw.Crop(*cv, want.Min.X-d.Min.X, want.Max.X-d.Max.X, want.Min.Y-d.Min.Y, want.Max.Y-d.Max.Y)
			}
		}
	}
	return out, w, h
}

// panelTiles is the tiling drawTiled lays panels out in.
func panelTiles(rows, cols int) draw.Tiles {
	return draw.Tiles{Rows: rows, Cols: cols, PadX: 0.2 * vg.Inch, PadY: 0.12 * vg.Inch}
}
