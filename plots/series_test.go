package plots

import (
	"slices"
	"strings"
	"testing"
)

// A series figure draws the healthy queue limit its cells' plans state, and
// only where the queue rule judges health: none for a latency server
// (capacity 0, latency growing with the calls in flight) or for a user who
// waits forever (timeout 0); capacity × the timeout the user waits (the
// edge layer's) for a FIFO queue.
func TestSeriesHealthLimit(t *testing.T) {
	const figure = "\n[[figure]]\nkind = \"series\"\n"
	for _, c := range []struct {
		name, src string
		want      []float64
		caption   string
	}{
		{"latency server", `
engine = "stochastic"
seed = 1
series = true
[scenario]
tick = "10ms"
duration = "20s"
load = 40
dependency.capacity = 0
dependency.latency_slope = "10ms"
layer = [{ attempts = 3, timeout = "500ms" }]
fault = [{ kind = "slowdown", start = "5s", length = "2s", factor = 3 }]
`, nil, "no queue: latency grows with the calls in flight"},
		{"timeout 0", `
seed = 1
series = true
[scenario]
duration = "5m"
layer = [{ timeout = "0s" }]
fault = [{ kind = "outage", start = "60s", length = "30s" }]
`, nil, "timeout 0s"},
		{"fifo", `
seed = 1
series = true
[scenario]
duration = "5m"
dependency.capacity = 100
layers = 2
layer = [{ timeout = "2s" }, { timeout = "1s" }]
fault = [{ kind = "outage", start = "60s", length = "30s" }]
`, []float64{200}, "timeout 2s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := parse(t, c.src+figure)
			if got := healthLimits(rowsOf(e.Grid.Cells(), nil)); !slices.Equal(got, c.want) {
				t.Errorf("healthy queue limits %v, want %v", got, c.want)
			}
			figs, err := Render(e.Grid, run(t, e, 2), e.Figures)
			if err != nil {
				t.Fatal(err)
			}
			caption := figs[0].Caption
			if drawn := strings.Contains(caption, "healthy limit"); drawn != (len(c.want) > 0) {
				t.Errorf("caption %q: says it draws a healthy limit: %v, want %v", caption, drawn, len(c.want) > 0)
			}
			if !strings.Contains(caption, c.caption) {
				t.Errorf("caption %q lacks %q", caption, c.caption)
			}
		})
	}
}

// A series figure shades each fault's window, not the span from the first
// fault's start to the last one's end.
func TestSeriesFaultWindows(t *testing.T) {
	e := parse(t, `
seed = 1
series = true
[scenario]
duration = "2m"
fault = [{ kind = "outage", start = "10s", length = "1s" }, { kind = "degradation", start = "40s", length = "3s", capacity = 50 }, { kind = "outage", start = "90s", length = "0s" }]
`)
	row := rowsOf(e.Grid.Cells(), nil)[0]
	got := faultWindows(&row.Facts)
	if want := [][2]float64{{10, 11}, {40, 43}}; !slices.EqualFunc(got, want, func(a, b [2]float64) bool { return a == b }) {
		t.Errorf("fault windows %v, want %v", got, want)
	}
}
