package plots

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// fig1 is the FIG. 1 server after a 3 s blip, a few replicates, short.
const fig1 = `
engine = "stochastic"
seed = 4
series = true
[scenario]
tick = "10ms"
duration = "40s"
load = 40
arrivals = "poisson"
replicates = 5
layer = [{ attempts = 6, timeout = "500ms" }]
fault = [{ kind = "outage", start = "10s", length = "3s" }]
dependency = { capacity = 60, drop_expired = true, collapse = { demand = "offered", window = "2s", slope = 0.5, floor = 0.1 } }
[grid]
blip = ["1s", "3s"]
`

// TestSeriesBand: with band = true a series figure of replicated cells
// draws their means over a band and says so; without, the first
// replicate, as before.
func TestSeriesBand(t *testing.T) {
	plain := parse(t, fig1+"[[figure]]\nkind = \"series\"\n")
	banded := parse(t, fig1+"[[figure]]\nkind = \"series\"\nband = true\n")
	a, err := Render(plain.Grid, run(t, plain, 2), plain.Figures)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Render(banded.Grid, run(t, banded, 2), banded.Figures)
	if err != nil {
		t.Fatal(err)
	}
	const says = "Lines: the mean of 5 replicates per cell; bands: their 10th–90th percentile"
	if strings.Contains(a[0].Caption, says) || !strings.Contains(b[0].Caption, says) {
		t.Errorf("captions:\n%s\n%s", a[0].Caption, b[0].Caption)
	}
	if bytes.Equal(a[0].PNG, b[0].PNG) || !bytes.Contains(b[0].SVG, []byte("10th–90th percentile of the")) {
		t.Errorf("the banded figure draws no band")
	}
}

// TestHysteresisNeedsARamp: a hysteresis figure of a cell at a constant
// load, or of a load that only rises, says what it needs.
func TestHysteresisNeedsARamp(t *testing.T) {
	base := "seed = 1\nseries = true\n[scenario]\nduration = \"2m\"\nfault = []\n"
	for _, c := range []struct{ shape, want string }{
		{"", "needs a load shape that rises and then falls"},
		{"shape = [{ at = \"0s\", load = 10 }, { at = \"1m\", load = 90 }]\n", "does not rise and then fall within the run"},
	} {
		e := parse(t, base+c.shape+"[[figure]]\nkind = \"hysteresis\"\n")
		if _, err := Render(e.Grid, run(t, e, 1), e.Figures); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

// TestLoopLoads: on a ramp the tipping load is where the share healthy
// first falls below a half on the way up, and the return load where it is
// back at a half or more for good on the way down; the load of each second
// is the plan's.
func TestLoopLoads(t *testing.T) {
	e := parse(t, `
seed = 1
series = true
[scenario]
duration = "10m"
dependency.capacity = 100
layer = [{ timeout = "1s" }]
fault = []
shape = [{ at = "0s", load = 50 }, { at = "5m", load = 110 }, { at = "10m", load = 0 }]
`)
	res := run(t, e, 1)
	c := e.Grid.Cells()[0]
	l, err := loopOf(&c, &res[0])
	if err != nil {
		t.Fatal(err)
	}
	rows := res[0].Series.Rows
	first, last := -1, -1
	for j, r := range rows {
		if r.Unhealthy && first < 0 {
			first = j
		}
		if r.Unhealthy {
			last = j
		}
	}
	tick := func(j int) int64 { return int64(j) } // 1 s ticks: the bin's middle rounds up to the next tick
	if want := c.Plan.LoadAt(tick(first) + 1); math.Abs(l.tip-want) > 1e-9 {
		t.Errorf("tipping load %v, want %v (second %d)", l.tip, want, first)
	}
	if want := c.Plan.LoadAt(tick(last+1) + 1); math.Abs(l.back-want) > 1e-9 {
		t.Errorf("return load %v, want %v (second %d)", l.back, want, last+1)
	}
	if !(l.back < l.tip && l.tip < l.peak) || l.peak != 110 {
		t.Errorf("tip %v, back %v, peak %v", l.tip, l.back, l.peak)
	}
}
