package plots

import (
	"bytes"
	"context"
	"image/color"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// smallGrid is two policies × three uneven loads × two blips, five minutes,
// with one figure of each kind.
const smallGrid = `
seed = 1
series = { load = [80], blip = ["20s"] }

[scenario]
engine = "queue"
duration = "5m"
fault = [{ kind = "outage", start = "60s", length = "30s" }]

[[policy]]
name = "no retries"
attempts = 1

[[policy]]
name = "27 attempts"
attempts = 27

[grid]
policy = ["no retries", "27 attempts"]
load = [60, 80, 95]
blip = ["5s", "20s"]

[[figure]]
kind = "phase"
x = "load"
y = "blip"
panel = "policy"
rule_of_thumb = true

[[figure]]
kind = "lines"
x = "load"
line = "policy"
panel = "blip"

[[figure]]
kind = "series"
`

func parse(t *testing.T, src string, sets ...string) *experiments.Experiment {
	t.Helper()
	e, err := experiments.Parse("test.toml", []byte(src), sets)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func run(t *testing.T, e *experiments.Experiment, workers int) []model.Result {
	t.Helper()
	res, err := sweep.Run(context.Background(), e.Grid.Cells(), sweep.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The same experiment gives the same bytes, whatever the number of workers
// and however often it is drawn.
func TestRenderDeterministic(t *testing.T) {
	e := parse(t, smallGrid)
	a, err := Render(e.Grid, run(t, e, 1), e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	e2 := parse(t, smallGrid)
	b, err := Render(e2.Grid, run(t, e2, 8), e2.Figures)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 3 || len(b) != 3 {
		t.Fatalf("got %d and %d figures, want 3", len(a), len(b))
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Title != b[i].Title || a[i].Caption != b[i].Caption {
			t.Errorf("figure %d: text differs: %+v vs %+v", i, a[i].Name, b[i].Name)
		}
		if len(a[i].PNG) == 0 || len(a[i].SVG) == 0 {
			t.Errorf("%s: empty PNG or SVG", a[i].Name)
		}
		if !bytes.Equal(a[i].PNG, b[i].PNG) {
			t.Errorf("%s: PNG differs between runs", a[i].Name)
		}
		if !bytes.Equal(a[i].SVG, b[i].SVG) {
			t.Errorf("%s: SVG differs between runs", a[i].Name)
		}
	}
	want := []string{"phase-load-blip", "lines-recovery_s-load", "series"}
	for i, w := range want {
		if a[i].Name != w {
			t.Errorf("figure %d is named %q, want %q", i, a[i].Name, w)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	cases := []struct {
		name, figure string
		want         []string
	}{
		{"phase without panel", "kind = \"phase\"\nx = \"load\"\ny = \"blip\"", []string{"policy (2 values)"}},
		{"lines without panel", "kind = \"lines\"\nx = \"load\"\nline = \"policy\"", []string{"blip (2 values)"}},
		{"lines with neither", "kind = \"lines\"\nx = \"load\"\nline = \"blip\"", []string{"policy (2 values)"}},
	}
	base := smallGrid[:strings.Index(smallGrid, "[[figure]]")]
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := parse(t, base+"[[figure]]\n"+c.figure+"\n")
			_, err := Render(e.Grid, run(t, e, 4), e.Figures)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
		})
	}

	t.Run("no series", func(t *testing.T) {
		e := parse(t, strings.Replace(base, "series = {", "# series = {", 1)+"[[figure]]\nkind = \"series\"\n")
		if _, err := Render(e.Grid, run(t, e, 4), e.Figures); err == nil || !strings.Contains(err.Error(), "series = true") {
			t.Errorf("got %v, want an error that says how to record a series", err)
		}
	})
	t.Run("results", func(t *testing.T) {
		e := parse(t, smallGrid)
		if _, err := Render(e.Grid, nil, e.Figures); err == nil {
			t.Error("no error for missing results")
		}
	})
}

// luminance is the relative luminance of c, 0 (black) to 1 (white).
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
}

func distance(a, b color.Color) float64 {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	d := func(x, y uint32) float64 { return (float64(x) - float64(y)) / 0xffff }
	return math.Sqrt(d(ar, br)*d(ar, br) + d(ag, bg)*d(ag, bg) + d(ab, bb)*d(ab, bb))
}

func TestColourScale(t *testing.T) {
	m, _ := model.LookupMetric("recovery_s")
	md := colourMode(m, []Row{{Result: model.Result{Replicates: 1}}})
	if md.share {
		t.Fatalf("recovery_s over single runs: got share=%v", md.share)
	}
	for _, c := range []struct {
		v    model.Verdict
		want cellState
	}{{model.Stuck, stuckCell}, {model.Draining, drainingCell}, {model.NotJudged, notJudgedCell}} {
		if v, st := md.value(&model.Result{Metrics: model.Metrics{Verdict: c.v, RecoveryS: 12}}); !math.IsNaN(v) || st != c.want {
			t.Errorf("a %v cell reads %v, %v; want no value, %v", c.v, v, st, c.want)
		}
	}
	if v, st := md.value(&model.Result{Metrics: model.Metrics{Verdict: model.Recovered, RecoveryS: 12}}); v != 12 || st != valueCell {
		t.Errorf("recovered cell reads %v, %v, want 12", v, st)
	}
	if v, st := md.value(&model.Result{Metrics: model.Metrics{Verdict: model.Recovered, RecoveryS: math.NaN()}}); v != 0 || st != valueCell {
		t.Errorf("a cell healthy without a fault reads %v, %v, want 0", v, st)
	}
	// The verdicts' colours are apart from each other.
	states := []cellState{stuckCell, drainingCell, notJudgedCell, abortedCell}
	for i, a := range states {
		for _, b := range states[i+1:] {
			if distance(a.colour(), b.colour()) < 0.15 {
				t.Errorf("%v and %v are too alike: %v, %v", a.legend(), b.legend(), a.colour(), b.colour())
			}
		}
	}

	for _, values := range [][]float64{{0, 5, 30, 66}, {0, 3, 300, 3000}} {
		z := [][][]float64{{values, {math.NaN()}}}
		s, err := newScale(md, z)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.colour(math.NaN(), stuckCell); got != stuckColour() {
			t.Errorf("stuck is %v, want %v", got, stuckColour())
		}
		// Stuck and draining are apart from every colour of the scale.
		for i := 0; i <= 100; i++ {
			v := values[len(values)-1] * float64(i) / 100
			for _, cs := range []cellState{stuckCell, drainingCell} {
				if c := s.colour(v, valueCell); distance(c, cs.colour()) < 0.2 {
					t.Errorf("scale colour %v at %v is close to the %v colour", c, v, cs.legend())
				}
			}
		}
		// Quick recovery is light, slow recovery dark.
		if lo, hi := luminance(s.colour(values[0], valueCell)), luminance(s.colour(values[len(values)-1], valueCell)); lo <= hi+0.3 {
			t.Errorf("values %v: luminance %v at the bottom, %v at the top; want light to dark", values, lo, hi)
		}
		wantLog := values[len(values)-1] >= 1000
		if s.log != wantLog {
			t.Errorf("values %v: log scale %v, want %v", values, s.log, wantLog)
		}
	}

	// Replicates: coloured by the share that recovered, red to blue.
	md = colourMode(m, []Row{{Result: model.Result{Replicates: 5}}})
	if !md.share {
		t.Fatalf("recovery_s over replicates: got share=%v", md.share)
	}
	if v, _ := md.value(&model.Result{Metrics: model.Metrics{Verdict: model.Stuck}, RecoveredShare: 0.4}); v != 0.4 {
		t.Errorf("share reads %v, want 0.4", v)
	}
	if _, st := md.value(&model.Result{Metrics: model.Metrics{Verdict: model.Draining}, RecoveredShare: 0}); st != drainingCell {
		t.Errorf("no replicate recovered, the rest draining: %v, want draining", st)
	}
	s, err := newScale(md, nil)
	if err != nil {
		t.Fatal(err)
	}
	r0, _, b0, _ := s.colour(0, valueCell).RGBA()
	r1, _, b1, _ := s.colour(1, valueCell).RGBA()
	if r0 <= b0 || b1 <= r1 {
		t.Errorf("share 0 is %v and share 1 is %v; want red and blue", s.colour(0, valueCell), s.colour(1, valueCell))
	}

	// Other metrics: every cell has its value.
	pq, _ := model.LookupMetric("peak_queue")
	if md := colourMode(pq, []Row{{Result: model.Result{Replicates: 1}}}); md.share {
		t.Errorf("peak_queue: got share=%v", md.share)
	} else if _, st := md.value(&model.Result{Metrics: model.Metrics{Verdict: model.Stuck, PeakQueue: 3}}); st != valueCell {
		t.Errorf("peak_queue of a stuck cell: %v, want its value", st)
	}
}

// Replicated results render as shares.
func TestRenderShares(t *testing.T) {
	e := parse(t, smallGrid)
	res := run(t, e, 4)
	for i := range res {
		res[i].Replicates = 4
		res[i].RecoveredShare = float64(i%5) / 4
	}
	figs, err := Render(e.Grid, res, e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(figs[0].Caption, "share of seeded replicates that recovered") {
		t.Errorf("phase caption %q does not say it shows shares", figs[0].Caption)
	}
}

// The rule of thumb is the cells' plans': the backlog of a healthy
// dependency, capacity × the timeout the user waits (the edge layer's),
// over the load.
func TestRuleOfThumb(t *testing.T) {
	at := func(sc model.Scenario) float64 {
		t.Helper()
		p, err := sc.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		row := rowOf(&sweep.Cell{Scenario: sc, Plan: p}, &model.Result{})
		return ruleCurve([]*Row{&row}, []float64{0}, edges([]float64{0}), false)[0].Y
	}
	sc := model.Default() // capacity 100/s, timeout 1 s
	sc.Load = 70
	if got, want := at(sc), 100.0/70; math.Abs(got-want) > 1e-12 {
		t.Errorf("capacity 100, timeout 1s, load 70: %v, want %v", got, want)
	}
	sc.Load = 0
	if got := at(sc); !math.IsInf(got, 1) {
		t.Errorf("load 0: %v, want +Inf", got)
	}
	// The edge layer's timeout counts: 3 layers, the last entry repeating.
	sc.Load = 80
	sc.Layers = 3
	sc.Layer = []model.Layer{model.DefaultLayer(), model.DefaultLayer()}
	sc.Layer[0].Timeout = model.Seconds(10)
	sc.Layer[1].Timeout = model.Seconds(2)
	sc.Dependency.Capacity = 50
	if got, want := at(sc), 50*10/80.0; math.Abs(got-want) > 1e-12 {
		t.Errorf("capacity 50, edge timeout 10s, load 80: %v, want %v", got, want)
	}

	// Over a load axis the curve follows capacity × timeout / x across the
	// cells' full width.
	e := parse(t, smallGrid)
	var col []*Row
	for i := range e.Grid.Cells() {
		c := &e.Grid.Cells()[i]
		if v, _ := c.Get("blip"); v.Text == "5s" {
			if p, _ := c.Get("policy"); p.Text == "no retries" {
				row := rowOf(c, &model.Result{})
				col = append(col, &row)
			}
		}
	}
	xs := []float64{60, 80, 95}
	xe := edges(xs)
	curve := ruleCurve(col, xs, xe, true)
	if curve[0].X != xe[0] || curve[len(curve)-1].X != xe[len(xe)-1] {
		t.Errorf("curve spans %v..%v, want %v..%v", curve[0].X, curve[len(curve)-1].X, xe[0], xe[len(xe)-1])
	}
	for _, p := range curve {
		if want := 100 * 1 / p.X; math.Abs(p.Y-want) > 1e-12 {
			t.Errorf("at load %v: %v, want %v", p.X, p.Y, want)
		}
	}
	// Over another axis, the cells' own load.
	curve = ruleCurve(col, xs, xe, false)
	for i, p := range curve {
		if p.X != xs[i] || math.Abs(p.Y-100*1/col[i].Facts.Load) > 1e-12 {
			t.Errorf("point %d: %v, want (%v, %v)", i, p, xs[i], 100/col[i].Facts.Load)
		}
	}
}

func TestEdges(t *testing.T) {
	for _, c := range []struct{ xs, want []float64 }{
		{[]float64{0, 10, 40}, []float64{-5, 5, 25, 55}},
		{[]float64{50, 55, 60}, []float64{47.5, 52.5, 57.5, 62.5}},
		{[]float64{3}, []float64{2.5, 3.5}},
	} {
		got := edges(c.xs)
		if len(got) != len(c.want) {
			t.Fatalf("edges(%v) = %v, want %v", c.xs, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("edges(%v) = %v, want %v", c.xs, got, c.want)
				break
			}
		}
	}
}

func TestTicks(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 0.25: "0.25", 40: "40", 1500: "1,500", 20000: "20k", 6e6: "6M", 2.5e6: "2.5M"} {
		if got := formatNum(v); got != want {
			t.Errorf("formatNum(%v) = %q, want %q", v, got, want)
		}
	}
	var labels []string
	for _, tk := range (niceTicks{}).Ticks(47.5, 97.5) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "50 60 70 80 90" {
		t.Errorf("ticks over 47.5..97.5: %s", got)
	}
	labels = nil
	for _, tk := range (expTicks{floored: true}).Ticks(0, 7) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "≤1 10 100 1,000 10k 100k 1M 10M" {
		t.Errorf("log ticks over 1..10M: %s", got)
	}
}

func TestChoices(t *testing.T) {
	for _, c := range []struct {
		in   []choice
		want string
	}{
		{[]choice{{70, "70"}, {70, "70"}}, "70"},
		{[]choice{{27, "27"}, {1, "1"}}, "1 or 27"},
		{[]choice{{1, "1"}, {3, "3"}, {9, "9"}, {27, "27"}}, "1, 3, 9 or 27"},
		{[]choice{{50, "50"}, {60, "60"}, {70, "70"}, {80, "80"}, {95, "95"}}, "50–95"},
	} {
		if got := choices(c.in); got != c.want {
			t.Errorf("choices(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Five panels tile as 2 × 3 with one empty tile; any numeric axes will do.
func TestPhaseFivePanels(t *testing.T) {
	e := parse(t, `
[scenario]
duration = "3m"
fault = [{ kind = "outage", start = "30s", length = "10s" }]
layer = [{ attempts = 3 }]

[grid]
load = [50, 60, 70, 80, 90]
dependency.capacity = [100, 120, 150]
blip = ["5s", "10s"]

[[figure]]
kind = "phase"
x = "dependency.capacity"
y = "blip"
panel = "load"
rule_of_thumb = true
`)
	if r, c := tiling(5); r != 2 || c != 3 {
		t.Errorf("tiling(5) = %d × %d, want 2 × 3", r, c)
	}
	figs, err := Render(e.Grid, run(t, e, 4), e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 1 || len(figs[0].PNG) == 0 {
		t.Fatalf("got %d figures", len(figs))
	}
	if !strings.Contains(figs[0].Caption, "capacity 100, 120 or 150 calls/s") {
		t.Errorf("caption %q does not give the capacities", figs[0].Caption)
	}
	if *outDir != "" {
		writeFigures(t, *outDir+"/five", figs)
	}
}

// Phase findings rank the panels by the share of cells that are stuck; a
// cell still draining when the run ends (no retries at load 95 after a 20 s
// blip: 800 calls left, falling by 5 a second) is named as such and does
// not count.
func TestPhaseRanking(t *testing.T) {
	e := parse(t, smallGrid)
	said := strings.Join(Findings(e.Grid, run(t, e, 2), e.Figures), "\n")
	want := "| 1 | no retries | 0 of 6 | 0% |\n| 2 | 27 attempts | 6 of 6 | 100% |"
	if !strings.Contains(said, "ranked by the area of the metastable region") || !strings.Contains(said, want) {
		t.Errorf("findings lack the ranking %q:\n%s", want, said)
	}
	draining := "1 cell is still draining when the run ends, unhealthy but not stuck (load 95 at blip 20s)"
	if !strings.Contains(said, draining) || strings.Contains(said, "no retries**: stuck (never") {
		t.Errorf("findings lack %q, or call that cell stuck:\n%s", draining, said)
	}
}

// Many panels of different titles and labels get data areas of one size,
// in line by column and by row, whatever their margins.
func TestAlignData(t *testing.T) {
	const rows, cols = 3, 5
	c := draw.New(vgimg.New(figWidth, figHeight))
	grid := make([][]*plot.Plot, rows)
	for r := range grid {
		for col := range cols {
			p := newPlot()
			p.Title.Text = strings.Repeat("title ", 1+(r+col)%3)
			p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 75, 185, 0, 60
			if col == 0 {
				p.Y.Label.Text = "blip length"
			} else {
				p.Y.Tick.Marker = unlabelled{p.Y.Tick.Marker}
			}
			if r == rows-1 {
				p.X.Label.Text = "load"
			} else {
				p.X.Tick.Marker = unlabelled{p.X.Tick.Marker}
			}
			grid[r] = append(grid[r], p)
		}
	}
	canvases, w, h := alignData(grid, panelTiles(rows, cols), c)
	near := func(a, b vg.Length) bool { return math.Abs(float64(a-b)) < 0.5 }
	for r, row := range grid {
		for col, p := range row {
			d := p.DataCanvas(canvases[r][col])
			first := grid[0][col].DataCanvas(canvases[0][col])
			left := grid[r][0].DataCanvas(canvases[r][0])
			if !near(d.Max.X-d.Min.X, w) || !near(d.Max.Y-d.Min.Y, h) || !near(d.Min.X, first.Min.X) || !near(d.Min.Y, left.Min.Y) {
				t.Errorf("panel %d,%d: data area %v, want %v × %v at x %v, y %v", r, col, d.Rectangle, w, h, first.Min.X, left.Min.Y)
			}
		}
	}
}

// Phase and lines figures of another metric than recovery say nothing of
// recovery, and a line the figure leaves out is not described.
func TestFindingsFollowTheMetric(t *testing.T) {
	e := parse(t, strings.ReplaceAll(smallGrid, "rule_of_thumb = true", "rule_of_thumb = true\nmetric = \"calls\""))
	res := run(t, e, 2)
	for _, s := range Findings(e.Grid, res, e.Figures[:1]) {
		t.Errorf("a phase figure of calls says %q", s)
	}
	e = parse(t, smallGrid+"\n[[figure]]\nkind = \"lines\"\nname = \"one\"\nx = \"load\"\nline = \"policy\"\nonly = { policy = \"no retries\" }\n")
	said := Findings(e.Grid, run(t, e, 2), e.Figures[3:])
	if len(said) != 1 || strings.Contains(said[0], "27 attempts") || !strings.Contains(said[0], "no retries") {
		t.Errorf("a lines figure of one policy says %q", said)
	}
}
