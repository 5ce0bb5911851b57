package plots

import (
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// This file lays panels out in tiles whose data areas line up.

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
