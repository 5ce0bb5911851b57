package plots

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/cmpimg"
)

// goldenDelta is how far a pixel of a figure may be from the golden
// image's, in cmpimg's normalised YIQ distance (0: equal, 1: anything): on
// this machine the figures are equal to the byte, as the fonts are
// gonum/plot's own; the tolerance absorbs a rasteriser's rounding
// elsewhere, not a changed drawing.
const goldenDelta = 0.05

// TestGoldenImages draws every kind of the registry from its example's
// table and compares the PNG with testdata/<kind>.png, pixel by pixel
// within goldenDelta, as gonum/plot's own tests do (cmpimg). A kind
// without an example table fails. -update writes the golden images; look
// at every one that changes.
func TestGoldenImages(t *testing.T) {
	tables := exampleTables()
	for _, k := range Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			build, ok := tables[k.Name]
			if !ok {
				t.Fatalf("kind %s has no example table (exampleTables) and so no golden image", k.Name)
			}
			tab, f := build()
			fig, err := tab.Draw(&f)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", k.Name+".png")
			if *update {
				if err := os.WriteFile(golden, fig.PNG, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./plots -run TestGoldenImages -update writes it)", err)
			}
			same, err := cmpimg.EqualApprox("png", fig.PNG, want, goldenDelta)
			if err != nil {
				t.Fatal(err)
			}
			if !same {
				t.Errorf("%s differs from %s: %s", k.Name, golden, writeDiff(t, k.Name, fig.PNG, want))
			}
		})
	}
}

// writeDiff writes the figure drawn and its difference from the golden
// image into a temporary folder, for a look, and says where.
func writeDiff(t *testing.T, name string, got, want []byte) string {
	t.Helper()
	a, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return err.Error()
	}
	b, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return err.Error()
	}
	diff := image.NewRGBA(a.Bounds().Union(b.Bounds()))
	cmpimg.Diff(diff, a, b)
	var buf bytes.Buffer
	if err := png.Encode(&buf, diff); err != nil {
		return err.Error()
	}
	dir, err := os.MkdirTemp("", "plots-golden-")
	if err != nil {
		return err.Error()
	}
	gotFile, diffFile := filepath.Join(dir, name+".png"), filepath.Join(dir, name+"-diff.png")
	if err := os.WriteFile(gotFile, got, 0o644); err != nil {
		return err.Error()
	}
	if err := os.WriteFile(diffFile, buf.Bytes(), 0o644); err != nil {
		return err.Error()
	}
	return "drawn: " + gotFile + ", difference: " + diffFile
}
