package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/cmpimg"
)

// shotBlock is the side of the squares a screenshot is averaged over
// before it is compared: text antialiased another way moves pixels within
// a glyph, which averaging absorbs, while a field's error missing, a badge
// moved or a line gone changes whole squares.
const shotBlock = 8

// shotDelta is how far a square may be from the golden screenshot's, in
// cmpimg's normalised YIQ distance, as the reports' figures are compared.
const shotDelta = 0.08

// checkShot compares a screenshot of the explorer with
// serve/testdata/<name>.png, both averaged over shotBlock squares, within
// shotDelta (cmpimg, as plots compares the reports' figures); -update
// writes it.
func checkShot(t *testing.T, name string, got []byte) {
	t.Helper()
	golden := filepath.Join("serve", "testdata", name+".png")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./cmd/stormlab -run %s -update writes it)", err, t.Name())
	}
	a, b := blocks(t, got), blocks(t, want)
	same, err := cmpimg.EqualApprox("png", a, b, shotDelta)
	if err != nil {
		t.Fatal(err)
	}
	if !same {
		dir := t.TempDir()
		_ = os.WriteFile(filepath.Join(dir, name+".png"), got, 0o644)
		t.Errorf("the screenshot %s differs from %s beyond font rendering (averaged over %d px squares); it is in %s", name, golden, shotBlock, dir)
	}
}

// blocks is a PNG averaged over shotBlock squares, as a PNG.
func blocks(t *testing.T, data []byte) []byte {
	t.Helper()
	im, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	r := im.Bounds()
	w, h := (r.Dx()+shotBlock-1)/shotBlock, (r.Dy()+shotBlock-1)/shotBlock
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	for by := range h {
		for bx := range w {
			var sr, sg, sb, n uint32
			for y := r.Min.Y + by*shotBlock; y < min(r.Max.Y, r.Min.Y+(by+1)*shotBlock); y++ {
				for x := r.Min.X + bx*shotBlock; x < min(r.Max.X, r.Min.X+(bx+1)*shotBlock); x++ {
					cr, cg, cb, _ := im.At(x, y).RGBA()
					sr, sg, sb, n = sr+cr>>8, sg+cg>>8, sb+cb>>8, n+1
				}
			}
			out.Set(bx, by, color.RGBA{uint8(sr / n), uint8(sg / n), uint8(sb / n), 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, out); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
