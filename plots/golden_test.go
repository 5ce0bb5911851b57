package plots

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/cmpimg"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/tipping"
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
			checkGolden(t, k.Name, fig.PNG)
		})
	}
	// The regions figure of a boundary search, drawn from searches written
	// by hand, is no [[figure]] kind but has its golden image too.
	t.Run("regions", func(t *testing.T) {
		fig, note, err := regionsExample().figure()
		if err != nil || note != "" {
			t.Fatal(err, note)
		}
		checkGolden(t, "regions", fig.PNG)
	})
}

// checkGolden compares a figure's PNG with testdata/<name>.png, or with
// -update writes it there.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden := filepath.Join("testdata", name+".png")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./plots -run TestGoldenImages -update writes it)", err)
	}
	same, err := cmpimg.EqualApprox("png", got, want, goldenDelta)
	if err != nil {
		t.Fatal(err)
	}
	if !same {
		t.Errorf("%s differs from %s: %s", name, golden, writeDiff(t, name, got, want))
	}
}

// regionsExample is a search over the blip length, 0 to 60 s, at five
// loads of a server of capacity 100 with a 1 s timeout and naive retries:
// at load 50 nothing in the range tips, at 60 to 90 the half-way point
// lies a little above the rule of thumb, 100 / load seconds, with its 95%
// interval, and at load 98 the system is unhealthy without any fault.
func regionsExample() *regions {
	ts := &spec.Tipping{Key: "blip", Path: "fault.0.length", From: 0, To: 60, Tolerance: 0.5, Unit: "s", Duration: true, X: "load", Name: "tipping-blip"}
	r := &regions{t: ts, tab: &Table{Axes: []Axis{{Name: "load", Path: "load", Unit: "requests/s", Values: nums(50, 60, 70, 80, 90, 98)}}}}
	for i, load := range r.tab.Axes[0].Values {
		s := &tipping.Search{Spec: ts, Status: tipping.Found, Critical: 100/load.Num + 0.4, Lo: 100/load.Num + 0.1, Hi: 100/load.Num + 0.9}
		switch i {
		case 0:
			s.Status, s.Critical, s.Lo, s.Hi = tipping.Nothing, math.NaN(), math.NaN(), math.NaN()
		case 5:
			s.Status, s.Critical, s.Lo, s.Hi = tipping.Overloaded, math.NaN(), math.NaN(), math.NaN()
		}
		f := blipFacts(load.Num, 27, 0)
		f.Replicates = 20
		r.tab.Rows = append(r.tab.Rows, Row{Params: []Param{{"load", load}}, Facts: f})
		r.cols = append(r.cols, searchColumn{s: s, rule: 100 / load.Num, ruleOK: true})
	}
	for i := range r.cols {
		r.cols[i].row = &r.tab.Rows[i]
	}
	return r
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
