package plots

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// barsGrid names its policies out of alphabetical order: bars keep them as
// written.
const barsGrid = `
seed = 1

[scenario]
engine = "queue"
duration = "5m"
fault = [{ kind = "outage", start = "60s", length = "30s" }]

[[policy]]
name = "zeta: no retries"
attempts = 1

[[policy]]
name = "alpha: three layers (3x3x3)"
attempts = 27

[grid]
blip = ["5s", "30s"]
`

// barsFigure is barsGrid with one bars figure of the metric.
func barsFigure(metric string) string {
	return barsGrid + "\n[[figure]]\nkind = \"bars\"\nx = \"policy\"\nline = \"blip\"\nmetric = \"" + metric + "\"\n"
}

// chartOf groups the results into bars for the experiment's first figure.
func chartOf(t *testing.T, e *experiments.Experiment, cells []sweep.Cell, res []model.Result) *barChart {
	t.Helper()
	ch, err := newBarChart(tableOf(e.Grid, cells, res), &e.Figures[0])
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// neverPixels counts the pixels of the "never" red in a PNG.
func neverPixels(t *testing.T, b []byte) int {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if distance(img.At(x, y), stuckColour()) < 0.05 {
				n++
			}
		}
	}
	return n
}

// A cell without a recovery time is a hatched bar up to the "never" band,
// labelled, and said so in the legend and caption: not a missing bar.
func TestBarsNever(t *testing.T) {
	e := parse(t, barsFigure("recovery_s"))
	res := make([]model.Result, len(e.Grid.Cells()))
	for i := range res {
		res[i] = model.Result{Metrics: model.Metrics{Verdict: model.Recovered, RecoveryS: float64(10 * (i + 1))}, Replicates: 1, RecoveredShare: 1}
	}
	clean, err := Render(e.Grid, res, e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	// The 27-attempt policy never recovers after the 30 s blip.
	last := len(res) - 1
	res[last].Verdict, res[last].RecoveryS, res[last].RecoveredShare = model.Stuck, math.NaN(), 0
	ch := chartOf(t, e, e.Grid.Cells(), res)
	if !ch.never {
		t.Fatal("the chart does not know a bar has no value")
	}
	bs := ch.panels[0]
	if len(bs) != 4 {
		t.Fatalf("%d bars, want 4", len(bs))
	}
	b := bs[len(bs)-1]
	if !math.IsNaN(b.v) || b.label != "never" || b.cat != 1 || b.line != 1 {
		t.Errorf("last bar: %+v, want no value, labelled never, at category 1, line 1", b)
	}
	if got := bs[0].label; got != "10s" {
		t.Errorf("first bar labelled %q, want 10s", got)
	}
	yr := ch.newBarRange(0.2*vg.Inch, 3*vg.Inch)
	if !(yr.neverY > yr.bandLo && yr.bandLo > yr.hi && yr.ymax > yr.neverY && yr.hi >= 30) {
		t.Errorf("range %+v: want values below hi, a band above them and never bars ending in it", yr)
	}

	figs, err := Render(e.Grid, res, e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	if c := figs[0].Caption; !strings.Contains(c, "Hatched bars reaching the band at the top have no value: stuck: never recovers") {
		t.Errorf("caption %q does not explain the never bars", c)
	}
	// The hatching and the label show in the "never" red.
	if before, after := neverPixels(t, clean[0].PNG), neverPixels(t, figs[0].PNG); after < before+500 {
		t.Errorf("%d pixels of the never colour with a never bar, %d without; want it to show", after, before)
	}

	// Another metric without a value reads "n/a", not "never".
	pq, _ := model.LookupMetric("peak_queue")
	ch.m = pq
	if ch.neverWord() != "n/a" || ch.noValueWord(valueCell) != "n/a" || ch.neverDoc(valueCell) != "no value" {
		t.Errorf("peak_queue: %q, %q", ch.neverWord(), ch.neverDoc(valueCell))
	}
}

// Replicated results are means with ± one standard deviation when the
// metric has a spread; recovery over replicates that recovered only in
// part says how many did.
func TestBarsErrorBars(t *testing.T) {
	e := parse(t, barsFigure("peak_calls"))
	res := make([]model.Result, len(e.Grid.Cells()))
	for i := range res {
		res[i] = model.Result{
			Metrics:        model.Metrics{Verdict: model.Recovered, RecoveryS: 20, PeakCalls: 100 * float64(i+1), Calls: 1000, Requests: 500},
			SD:             model.Metrics{PeakCalls: 10 * float64(i+1), RecoveryS: 4},
			Replicates:     5,
			RecoveredShare: 1,
		}
	}
	ch := chartOf(t, e, e.Grid.Cells(), res)
	if !ch.replicated || !ch.spread {
		t.Fatalf("replicated %v, spread %v; want both", ch.replicated, ch.spread)
	}
	for i, b := range ch.panels[0] {
		if b.v != 100*float64(i+1) || b.sd != 10*float64(i+1) {
			t.Errorf("bar %d: %v ± %v, want %v ± %v", i, b.v, b.sd, 100*(i+1), 10*(i+1))
		}
	}
	// The axis reaches above the highest error bar.
	if yr := ch.newBarRange(0, 3*vg.Inch); yr.hi < 440 {
		t.Errorf("axis ends at %v, below the top error bar at 440", yr.hi)
	}
	figs, err := Render(e.Grid, res, e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	if c := figs[0].Caption; !strings.Contains(c, "means over the seeded replicates; error bars ± one standard deviation") {
		t.Errorf("caption %q does not explain the error bars", c)
	}

	// Amplification has no spread: means, no error bars.
	e = parse(t, barsFigure("amplification"))
	ch = chartOf(t, e, e.Grid.Cells(), res)
	if !ch.replicated || ch.spread || !math.IsNaN(ch.panels[0][0].sd) || ch.panels[0][0].label != "2.00" {
		t.Errorf("amplification: replicated %v, spread %v, first bar %+v", ch.replicated, ch.spread, ch.panels[0][0])
	}
	figs, err = Render(e.Grid, res, e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	if c := figs[0].Caption; !strings.Contains(c, "means over the seeded replicates.") || strings.Contains(c, "standard deviation") {
		t.Errorf("amplification caption %q", c)
	}

	// Recovery: 3 of 5 recovered, then none.
	e = parse(t, barsFigure("recovery_s"))
	res[1].Verdict, res[1].RecoveredShare = model.Stuck, 0.6
	res[3].Verdict, res[3].RecoveredShare, res[3].RecoveryS, res[3].SD.RecoveryS = model.Stuck, 0, math.NaN(), math.NaN()
	ch = chartOf(t, e, e.Grid.Cells(), res)
	bs := ch.panels[0]
	if bs[1].label != "20s (3/5)" || bs[1].sd != 4 || !ch.partial {
		t.Errorf("partly recovered bar: %+v, partial %v", bs[1], ch.partial)
	}
	if !math.IsNaN(bs[3].v) || !math.IsNaN(bs[3].sd) || ch.neverDoc(bs[3].state) != "no replicate recovers (stuck)" {
		t.Errorf("bar of no recovery: %+v, %q", bs[3], ch.neverDoc(bs[3].state))
	}
	if _, err := Render(e.Grid, res, e.Figures); err != nil {
		t.Fatal(err)
	}
}

// The same experiment gives the same bytes, whatever the number of workers.
func TestBarsDeterministic(t *testing.T) {
	src := barsFigure("recovery_s")
	var figs [2][]Figure
	for i, workers := range []int{1, 8} {
		e := parse(t, src)
		f, err := Render(e.Grid, run(t, e, workers), e.Figures)
		if err != nil {
			t.Fatal(err)
		}
		figs[i] = f
	}
	a, b := figs[0][0], figs[1][0]
	if a.Name == "" || a.Name != b.Name {
		t.Errorf("figures named %q and %q", a.Name, b.Name)
	}
	if a.Caption != b.Caption || !bytes.Equal(a.PNG, b.PNG) || !bytes.Equal(a.SVG, b.SVG) {
		t.Error("bars figure differs between runs")
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(a.PNG))
	if err != nil || cfg.Width != 1600 || cfg.Height != 900 {
		t.Errorf("PNG %d×%d (%v), want 1600×900", cfg.Width, cfg.Height, err)
	}
}

// Cells beside the grid product (an X, Line or Panel value the axis does
// not list) become extra categories at the end, in cell order; two cells
// that would be the same bar are an error naming the axis they differ in.
func TestBarsExtraCells(t *testing.T) {
	e := parse(t, barsFigure("peak_queue"))
	cells := slices.Clone(e.Grid.Cells())
	res := run(t, e, 4)
	extra := func(c sweep.Cell, axis, text string) sweep.Cell {
		c.Params = slices.Clone(c.Params)
		for i := range c.Params {
			if c.Params[i].Axis == axis {
				c.Params[i].Value = sweep.Value{Text: text, Raw: text}
			}
		}
		return c
	}
	cells = append(cells,
		extra(cells[0], "policy", "gateway only (3)"),
		extra(cells[1], "policy", "beta"),
		extra(cells[2], "blip", "45s"))
	res = append(res, res[0], res[1], res[2])
	ch := chartOf(t, e, cells, res)
	var names []string
	for _, v := range ch.xo.values {
		names = append(names, v.Text)
	}
	if got, want := strings.Join(names, " | "), "zeta: no retries | alpha: three layers (3x3x3) | gateway only (3) | beta"; got != want {
		t.Errorf("categories %q, want %q", got, want)
	}
	var lines []string
	for _, v := range ch.lo.values {
		lines = append(lines, v.Text)
	}
	if got := strings.Join(lines, " "); got != "5s 30s 45s" {
		t.Errorf("lines %q, want 5s 30s 45s", got)
	}
	if n := len(ch.panels[0]); n != 7 {
		t.Errorf("%d bars, want 7", n)
	}
	fig, err := bars{}.draw(tableOf(e.Grid, cells, res), &e.Figures[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fig.encode("extra"); err != nil {
		t.Fatal(err)
	}

	// A copy of a grid cell that differs only in an axis the figure does
	// not draw collides with it.
	dup := cells[0]
	dup.Params = append(slices.Clone(dup.Params), sweep.Param{Axis: "load", Value: sweep.Value{Text: "90"}})
	cells[1].Params = append(slices.Clone(cells[1].Params), sweep.Param{Axis: "load", Value: sweep.Value{Text: "70"}})
	cells[0].Params = append(slices.Clone(cells[0].Params), sweep.Param{Axis: "load", Value: sweep.Value{Text: "70"}})
	_, err = newBarChart(tableOf(e.Grid, append(cells, dup), append(res, res[0])), &e.Figures[0])
	if err == nil || !strings.Contains(err.Error(), "load (70 and 90)") {
		t.Errorf("got %v, want an error naming load (70 and 90)", err)
	}
}

// An axis with several values the figure does not draw is an error naming it.
func TestBarsErrors(t *testing.T) {
	e := parse(t, strings.Replace(barsFigure("failed"), "line = \"blip\"\n", "", 1))
	_, err := Render(e.Grid, run(t, e, 4), e.Figures)
	if err == nil || !strings.Contains(err.Error(), "blip (2 values)") {
		t.Errorf("got %v, want an error naming blip (2 values)", err)
	}
	// With the blip as panels instead, it renders.
	e = parse(t, strings.Replace(barsFigure("failed"), "line = \"blip\"", "panel = \"blip\"", 1))
	if _, err := Render(e.Grid, run(t, e, 4), e.Figures); err != nil {
		t.Error(err)
	}
}

func TestValueText(t *testing.T) {
	metric := func(name string) model.Metric {
		m, ok := model.LookupMetric(name)
		if !ok {
			t.Fatalf("no metric %s", name)
		}
		return m
	}
	for _, c := range []struct {
		metric  string
		v       float64
		compact bool
		want    string
	}{
		{"peak_queue", 6290460, false, "6,290,460"},
		{"peak_queue", 6290460, true, "6.29M"},
		{"peak_queue", 2100, false, "2,100"},
		{"peak_queue", 2100, true, "2,100"},
		{"failed", 12345, true, "12.3k"},
		{"failed", 150000, true, "150k"},
		{"failed", 44.8, false, "44.8"},
		{"failed", 1234.6, false, "1,235"},
		{"failed", 0, false, "0"},
		{"amplification", 27, false, "27.00"},
		{"amplification", 1.0834, false, "1.08"},
		{"window_calls_per_s", 2700.4, false, "2,700"},
		{"wasted", 0.99, false, "0.99"},
		{"recovery_s", 66, false, "66s"},
		{"recovery_s", 65.44, false, "65.4s"},
		{"recovery_s", 3540, false, "3,540s"},
		{"recovery_s", 0, false, "0s"},
		{"latency_p99_s", 0.0412, false, "41ms"},
		{"latency_p99_s", 0.2454, true, "245ms"},
		{"latency_p50_s", 0.0045, false, "4.5ms"},
		{"recovered", 1, false, "yes"},
		{"recovered", 0, false, "no"},
	} {
		if got := valueText(metric(c.metric), c.v, c.compact); got != c.want {
			t.Errorf("valueText(%s, %v, %v) = %q, want %q", c.metric, c.v, c.compact, got, c.want)
		}
	}
	if got := grouped(-1234567.891, 2); got != "-1,234,567.89" {
		t.Errorf("grouped = %q", got)
	}
}

// Long category names wrap within a category's width; a word too long for
// it turns the names 30°.
func TestCategoryTicks(t *testing.T) {
	o := axisOrder{name: "policy"}
	for _, n := range []string{"no retries", "gateway only (3)", "three layers (3x3x3) + 10% per-tick budget"} {
		o.values = append(o.values, Value{Text: n})
	}
	w := 1.3 * vg.Inch
	ticks, sty, lines := categoryTicks(o, w)
	if sty.Rotation != 0 || lines < 2 || lines > maxLabelLines {
		t.Fatalf("rotation %v, %d lines; want wrapped, unrotated", sty.Rotation, lines)
	}
	for _, tk := range ticks {
		for _, l := range strings.Split(tk.Label, "\n") {
			if sty.Width(l) > w {
				t.Errorf("line %q is %v wide, more than the category's %v", l, sty.Width(l), w)
			}
		}
	}
	o.values = append(o.values, Value{Text: "a-single-word-far-wider-than-its-category"})
	if _, sty, _ := categoryTicks(o, w); sty.Rotation == 0 {
		t.Error("a word wider than the category did not rotate the names")
	}
}
