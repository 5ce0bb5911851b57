package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
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
