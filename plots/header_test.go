package plots

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// A title too wide for the figure is wrapped onto lines that each fit,
// as the subtitle is, instead of running off both edges.
func TestHeaderWrapsTitle(t *testing.T) {
	title := "99th percentile of the users' latency by tail: slow calls, a slow system, a heavy tail (mean of 10 runs ± SD)"
	rec := &recorder.Canvas{}
	c := draw.NewCanvas(rec, figWidth, figHeight)
	header(c, title, "stochastic engine · load 200 requests/s")
	ts := textStyle(titleSize)
	var lines []string
	for _, a := range rec.Actions {
		if s, ok := a.(*recorder.FillString); ok && s.Size == ts.Font.Size {
			lines = append(lines, s.String)
			if w := ts.Width(s.String); w > figWidth-2*margin {
				t.Errorf("title line %q is %.0f pt wide; the figure has %.0f pt", s.String, w.Points(), (figWidth - 2*margin).Points())
			}
		}
	}
	if len(lines) < 2 || strings.Join(lines, " ") != title {
		t.Errorf("title drawn as %q, want it wrapped onto two lines or more", lines)
	}
	if w := ts.Width(title); w <= figWidth {
		t.Fatalf("the title is %v wide: too short to test wrapping", w)
	}
}
