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

// TestLoopLoads: a ramp's way up runs to the peak load and its way down
// from it, each second at the load the plan offers then; the loads marked
// are the cell's collapse_load and recovery_load; between them, with no
// retries and abandoned work still served, the way down delivers nothing
// while the backlog drains, the way up everything.
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
	row := rowOf(&c, &res[0])
	l, err := loopOf(&row)
	if err != nil {
		t.Fatal(err)
	}
	if l.tip != res[0].CollapseLoad || l.back != res[0].RecoveryLoad || l.peak != 110 {
		t.Errorf("tip %v, back %v, peak %v; want %v, %v, 110", l.tip, l.back, l.peak, res[0].CollapseLoad, res[0].RecoveryLoad)
	}
	if n := len(l.up.load); n != 300 || l.up.load[n-1] != l.down.load[0] || l.down.load[len(l.down.load)-1] > 1 {
		t.Errorf("the way up has %d seconds, ends at %v; the way down starts at %v, ends at %v", n, l.up.load[n-1], l.down.load[0], l.down.load[len(l.down.load)-1])
	}
	for j, x := range l.up.load {
		if want := c.Plan.LoadAt(int64(j) + 1); x != want { // a second's middle is 0.5 s in: tick j + 1 rounded
			t.Fatalf("second %d offers %v, the plan %v", j, x, want)
		}
	}
	if math.Abs(l.upMid-l.mid) > 2 || l.dnMid != 0 {
		t.Errorf("at %v requests/s: %v on the way up, %v on the way down; want the load, and 0", l.mid, l.upMid, l.dnMid)
	}
}
