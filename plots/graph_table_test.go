package plots

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/model"
)

// TestGraphDiagram: a row of the shared-database example becomes the
// users' requests and the four services, each in the state of its verdict
// column with its fan and collapse time noted, and the five calls, each
// with its tries column over the row's 60,000 requests.
func TestGraphDiagram(t *testing.T) {
	tab, _ := graphExample()
	d, err := tab.diagram(&tab.Rows[1]) // orders retries
	if err != nil {
		t.Fatal(err)
	}
	wantS := []DiagramService{
		{Name: "requests", Outside: true},
		{Name: "front", State: stuckCell, Note: "needs\u00a0all\u00a02\nunhealthy from\u00a060.5\u00a0s"},
		{Name: "orders", State: stuckCell, Note: "unhealthy from\u00a060.5\u00a0s"},
		{Name: "users", State: stuckCell, Note: "unhealthy from\u00a060.5\u00a0s"},
		{Name: "db", State: stuckCell, Note: "unhealthy from\u00a061.2\u00a0s"},
	}
	if !slices.Equal(d.Services, wantS) {
		t.Errorf("services %+v, want %+v", d.Services, wantS)
	}
	wantC := []DiagramCall{{0, 1, 1}, {1, 2, 1}, {1, 3, 1}, {2, 4, 168000.0 / 60000}, {3, 4, 1}}
	if !slices.Equal(d.Calls, wantC) {
		t.Errorf("calls %v, want %v", d.Calls, wantC)
	}
	d, err = tab.diagram(&tab.Rows[0]) // no retries: healthy, db never unhealthy
	if err != nil {
		t.Fatal(err)
	}
	if s := d.Services[4]; s.State != valueCell || s.Note != "" {
		t.Errorf("db without retries: %+v, want healthy without a note", s)
	}
}

// TestGraphRefuses: the figure draws no guess. A table without the
// verdict columns, a cell without a graph, a verdict that is no verdict,
// more panels than fit, and an axis it does not draw that varies: each is
// an error that says what is wrong.
func TestGraphRefuses(t *testing.T) {
	draw := func(tab *Table, f spec.Figure) error {
		_, err := tab.Draw(&f)
		return err
	}
	tab, f := graphExample()
	cells := map[string]graphCell{}
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		cells[n] = graphCell{tries: [5]float64{1, 1, 1, 1, 1}}
	}
	for _, c := range []struct {
		name string
		err  error
		want []string
	}{
		{"no verdicts", draw(graphTable(cells, []string{"a"}, false), f),
			[]string{"no column front.verdict, orders.verdict, users.verdict and db.verdict"}},
		{"a chain", func() error {
			tab, f := graphExample()
			tab.Rows[2].Facts.Graph = nil
			return draw(tab, f)
		}(), []string{"cell retries=budget per edge runs no service graph"}},
		{"no verdict for a service", func() error {
			tab, f := graphExample()
			r := &tab.Rows[0].Result
			r.Graph = slices.DeleteFunc(r.Graph, func(v model.WindowValue) bool { return v.Column == "db.verdict" })
			return draw(tab, f)
		}(), []string{"cell retries=no retries: db.verdict is NaN, not a verdict"}},
		{"seven panels", draw(graphTable(cells, []string{"a", "b", "c", "d", "e", "f", "g"}, true), f),
			[]string{"at most 6 diagrams", "retries has 7", "only = { retries = [...] }"}},
		{"an axis it does not draw", draw(tab, spec.Figure{Kind: "graph"}), []string{"retries (3 values)"}},
	} {
		if c.err == nil {
			t.Errorf("%s: drawn", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(c.err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", c.name, c.err, w)
			}
		}
	}
}

// TestFanNote: how a service makes its calls, in words.
func TestFanNote(t *testing.T) {
	for f, want := range map[Fan]string{
		{Calls: 1, Need: 1}:                 "",
		{Calls: 3, Need: 3}:                 "needs all 3",
		{Calls: 3, Need: 1}:                 "needs any of 3",
		{Calls: 3, Need: 2}:                 "needs 2 of 3",
		{Calls: 2, Need: 2, Sequence: true}: "2 in sequence",
	} {
		if got := strings.ReplaceAll(fanNote(f), "\u00a0", " "); got != want {
			t.Errorf("fanNote(%+v) = %q, want %q", f, got, want)
		}
	}
}

// TestVerdictState: a verdict column's value is the state of a box;
// anything else is refused.
func TestVerdictState(t *testing.T) {
	for v, want := range map[model.Verdict]cellState{
		model.Recovered: valueCell, model.Draining: drainingCell, model.Stuck: stuckCell, model.NotJudged: notJudgedCell,
	} {
		if got, ok := verdictState(float64(v)); !ok || got != want {
			t.Errorf("verdict %v: %v %v, want %v", v, got, ok, want)
		}
	}
	for _, x := range []float64{math.NaN(), -1, 0.5, float64(model.Stuck) + 1} {
		if _, ok := verdictState(x); ok {
			t.Errorf("%v read as a verdict", x)
		}
	}
}

// smallGraph is a gateway calling two services in parallel, needing both:
// bad fails every call and is tried three times, good never fails.
const smallGraph = `
seed = 3

[scenario]
engine = "stochastic"
tick = "100ms"
duration = "30s"
load = 200

[[scenario.graph.service]]
name = "gateway"

[[scenario.graph.service]]
name = "bad"
server = { capacity = 1e6, queue = "none", failure_probability = 1 }

[[scenario.graph.service]]
name = "good"
server = { capacity = 1e6, queue = "none" }

[[scenario.graph.edge]]
to = "gateway"

[[scenario.graph.edge]]
from = "gateway"
to = "bad"
attempts = 3

[[scenario.graph.edge]]
from = "gateway"
to = "good"

[[figure]]
kind = "graph"
`

// TestGraphFromPlan: a graph's structure comes from the resolved plan, its
// tries from a run. Every request of smallGraph tries bad three times and
// good once, so the arrows read ×3 and ×1 (to within the requests still
// out when the run ends). Check refuses the figure before any run where
// the results will lack a verdict column, and on a chain.
func TestGraphFromPlan(t *testing.T) {
	e := parse(t, smallGraph)
	g := factsOf(&e.Grid.Cells()[0]).Graph
	if g == nil || !slices.Equal(g.Services, []string{"gateway", "bad", "good"}) || !slices.Equal(g.Entries, []int{0}) ||
		!slices.Equal(g.Calls, []GraphCall{{0, 1}, {0, 2}}) || !slices.Equal(g.Fans, []Fan{{Calls: 2, Need: 2}, {}, {}}) {
		t.Fatalf("graph %+v", g)
	}
	var missing []string
	for _, s := range g.Services {
		if !slices.Contains(e.Grid.ColumnNames(), s+".verdict") {
			missing = append(missing, s+".verdict")
		}
	}
	switch err := Check(e.Figures, e.Grid); {
	case len(missing) == 0 && err != nil:
		t.Errorf("refused with every verdict column: %v", err)
	case len(missing) > 0 && (err == nil || !strings.Contains(err.Error(), "figure 0: kind: ") || !strings.Contains(err.Error(), joinAnd(missing))):
		t.Errorf("got %v, want an error at kind naming %s", err, joinAnd(missing))
	}
	chain := parse(t, "[scenario]\nengine = \"stochastic\"\nduration = \"10s\"\n[[figure]]\nkind = \"graph\"\n")
	if err := Check(chain.Figures, chain.Grid); err == nil || !strings.Contains(err.Error(), "runs no service graph") {
		t.Errorf("a chain: got %v, want an error saying it has no graph", err)
	}

	tab, err := newTable(e.Grid, run(t, e, 2), &e.Figures[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range g.Services { // the verdicts, as the results will have them
		tab.Columns = append(tab.Columns, model.Metric{Name: s + ".verdict", Kind: "verdict",
			Value: func(*model.Result) float64 { return float64(model.Recovered) }})
	}
	d, err := tab.diagram(&tab.Rows[0])
	if err != nil {
		t.Fatal(err)
	}
	if tab.Rows[0].Result.Requests < 5000 {
		t.Fatalf("%v requests", tab.Rows[0].Result.Requests)
	}
	for i, want := range []float64{1, 3, 1} {
		if a := d.Calls[i].Amplification; math.Abs(a-want) > 0.01*want {
			t.Errorf("call %d: ×%v, want ×%v", i, a, want)
		}
	}
	if d.Calls[1].From != 1 || d.Calls[1].To != 2 {
		t.Errorf("the second call is %+v, want gateway to bad", d.Calls[1])
	}
}

// TestGraphTiles: four panels of a gateway fanning out to ten backends
// tile 2 by 2, calls flowing across, where the ten boxes of a layer lie
// one above the other (the tiling in which they overlap least); four of
// the shared database's four layers sit in one row, flowing down, with
// their notes.
func TestGraphTiles(t *testing.T) {
	fan := &Diagram{Services: []DiagramService{{Name: "requests", Outside: true}, {Name: "gateway"}}, Calls: []DiagramCall{{0, 1, 1}}}
	for i := 1; i <= 10; i++ {
		fan.Services = append(fan.Services, DiagramService{Name: "b" + strconv.Itoa(i)})
		fan.Calls = append(fan.Calls, DiagramCall{1, i + 1, 1})
	}
	tab, _ := graphExample()
	shared, err := tab.diagram(&tab.Rows[1])
	if err != nil {
		t.Fatal(err)
	}
	c := draw.New(vgimg.New(7*vg.Inch, 4.6*vg.Inch))
	for _, want := range []struct {
		d          *Diagram
		rows, cols int
		down       bool
		score      float64 // at least
	}{{fan, 2, 2, false, math.Inf(-1)}, {shared, 1, 4, true, 2}} {
		l, err := layoutDiagram(want.d)
		if err != nil {
			t.Fatal(err)
		}
		panels := make([]graphPanel, 4)
		for i := range panels {
			panels[i] = graphPanel{title: "panel " + strconv.Itoa(i), d: want.d, l: l}
		}
		tiles, fit := graphTiles(c, panels)
		rows := map[vg.Length]bool{}
		cols := map[vg.Length]bool{}
		for _, tl := range tiles {
			rows[tl.c.Min.Y], cols[tl.c.Min.X] = true, true
			if g := fitGeometry(tl.c, want.d, l, fit); g.down != want.down || g.score < want.score || g.score != fit.cap {
				t.Errorf("%s: down %v, score %.2f (cap %.2f); want %v, at least %v, the cap", want.d.Services[1].Name, g.down, g.score, fit.cap, want.down, want.score)
			}
		}
		if len(rows) != want.rows || len(cols) != want.cols {
			t.Errorf("%s: %d rows of %d, want %d of %d", want.d.Services[1].Name, len(rows), len(cols), want.rows, want.cols)
		}
	}
	// Different graphs side by side are drawn alike: one direction, one
	// size of type, notes in all or none.
	fan3 := &Diagram{Services: slices.Clone(fan.Services[:5]), Calls: fan.Calls[:4]}
	fan3.Services[1].Note = "needs\u00a0all\u00a03"
	var panels []graphPanel
	for _, d := range []*Diagram{fan3, shared, fan3, shared} {
		l, err := layoutDiagram(d)
		if err != nil {
			t.Fatal(err)
		}
		panels = append(panels, graphPanel{d: d, l: l})
	}
	tiles, fit := graphTiles(c, panels)
	for i, tl := range tiles {
		g := fitGeometry(tl.c, panels[i].d, panels[i].l, fit)
		if g.down != fit.down || g.score != fit.cap {
			t.Errorf("panel %d: down %v, score %.2f; want %v and the cap, %.2f", i, g.down, g.score, fit.down, fit.cap)
		}
	}
}

// TestGraphFindings: services that did not end healthy are named by their
// state, stuck first; without a title (no x) the sentence stands alone.
func TestGraphFindings(t *testing.T) {
	tab, f := graphExample()
	tab.Rows = tab.Rows[1:2]
	tab.Axes[0].Values = tab.Axes[0].Values[1:2]
	for i, v := range tab.Rows[0].Result.Graph {
		if v.Column == "db.verdict" {
			tab.Rows[0].Result.Graph[i].Mean = float64(model.Draining)
		}
	}
	f.X = ""
	got := tab.Findings(&f)
	want := "At the end of the run front, orders and users are stuck and db is still draining; the most tries per user request go from orders to db, 2.8."
	if len(got) != 1 || got[0] != want {
		t.Errorf("findings %q, want %q", got, want)
	}
}

// TestGraphFaultless: where no cell has a fault, a service unhealthy at
// the end recovered from nothing: the findings, the legend and the caption
// say unhealthy, with no fault, never stuck.
func TestGraphFaultless(t *testing.T) {
	tab, f := graphExample()
	tab.Rows = tab.Rows[1:2]
	tab.Axes[0].Values = tab.Axes[0].Values[1:2]
	tab.Rows[0].Facts.Faults = nil
	f.X = ""
	got := tab.Findings(&f)
	want := "At the end of the run front, orders, users and db are unhealthy, with no fault; the most tries per user request go from orders to db, 2.8."
	if len(got) != 1 || got[0] != want {
		t.Errorf("findings %q, want %q", got, want)
	}
	if s := serviceLegend(stuckCell, true); s != "unhealthy at the end, with no fault" {
		t.Errorf("legend %q", s)
	}
	if s := serviceLegend(stuckCell, false); s != stuckCell.legend() {
		t.Errorf("legend with a fault %q", s)
	}
	if d, err := tab.diagram(&tab.Rows[0]); err != nil || !strings.Contains(graphCaption(&f, []*Diagram{d}, true), "Red: unhealthy at the end of the run, with no fault") {
		t.Errorf("caption without a fault: %v", err)
	}
}

// TestBusiest: the calls that send the most tries per request, every one
// on a tie, grouped by caller; a call never made counts for none.
func TestBusiest(t *testing.T) {
	svc := func(names ...string) []DiagramService {
		out := []DiagramService{{Name: "requests", Outside: true}}
		for _, n := range names {
			out = append(out, DiagramService{Name: n})
		}
		return out
	}
	nan := math.NaN()
	for _, c := range []struct {
		d    Diagram
		want string
	}{
		{Diagram{svc("gateway", "b1", "b2", "b3"), []DiagramCall{{0, 1, 1}, {1, 2, 1.1}, {1, 3, 1.104}, {1, 4, 1.1}}},
			"the most tries per user request go from gateway to b1, b2 and b3, 1.1 each"},
		{Diagram{svc("front", "orders", "users", "db"), []DiagramCall{{0, 1, 1}, {1, 2, 1}, {1, 3, 1}, {2, 4, 2}, {3, 4, 2}}},
			"the most tries per user request go from orders to db and from users to db, 2 each"},
		{Diagram{svc("gateway", "b1"), []DiagramCall{{0, 1, 1.27}, {1, 2, nan}}},
			"the most tries per user request go from the users to gateway, 1.27"},
		{Diagram{svc("gateway", "b1"), []DiagramCall{{0, 1, 1}, {1, 2, nan}}},
			"no call sends more than one try per user request"},
	} {
		if got := busiest(&c.d); got != c.want {
			t.Errorf("busiest = %q, want %q", got, c.want)
		}
	}
}
