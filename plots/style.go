package plots

import (
	"image/color"
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

// header draws the figure's title and its subtitle, each wrapped to the
// width, at the top of c and returns the canvas below them.
func header(c draw.Canvas, title, subtitle string) draw.Canvas {
	c = draw.Crop(c, margin, -margin, margin, -margin)
	ts := textStyle(titleSize)
	ts.XAlign, ts.YAlign = draw.XCenter, draw.YTop
	y := c.Max.Y
	for _, line := range wrapEven(ts, title, slack*(c.Max.X-c.Min.X)) {
		c.FillText(ts, vg.Point{X: c.Center().X, Y: y}, line)
		y -= ts.Height(line)
	}
	y -= 0.03 * vg.Inch
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

// wrapEven breaks s into as few lines no wider than w as wrap does, but
// of about the same width: a title too long for one line reads as two
// halves, not as a line and a stray word.
func wrapEven(sty text.Style, s string, w vg.Length) []string {
	lines := wrap(sty, s, w)
	if len(lines) < 2 {
		return lines
	}
	step := vg.Points(4)
	for n := sty.Width(s) / vg.Length(len(lines)); n < w; n += step {
		if even := wrap(sty, s, n); len(even) == len(lines) {
			return even
		}
	}
	return lines
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
