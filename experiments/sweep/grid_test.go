package sweep_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// axis is a grid axis over the scenario key at path.
func axis(t *testing.T, name, path string, raws ...any) sweep.Axis {
	t.Helper()
	duration, err := sweep.IsDuration(path)
	if err != nil {
		t.Fatal(err)
	}
	ax := sweep.Axis{Name: name, Path: path, Key: "grid." + name, Duration: duration}
	for _, r := range raws {
		v, err := sweep.NewValue(r, duration)
		if err != nil {
			t.Fatal(err)
		}
		ax.Values = append(ax.Values, v)
	}
	return ax
}

// small is two policies × two loads × three blips over two minutes, built
// without any file.
func small(t *testing.T) *sweep.Grid {
	t.Helper()
	base := model.Default()
	base.Load = 70
	base.Duration = model.Duration(2 * time.Minute)
	base.Fault = []model.Fault{{Kind: "outage", Start: model.Seconds(10), Length: model.Seconds(5), Factor: 1}}
	policies := []sweep.Set{
		{Name: "none", Overrides: []sweep.Override{{Path: "layer.*.attempts", Value: int64(1), Key: "policy.0.attempts"}}},
		{Name: "many", Overrides: []sweep.Override{
			{Path: "layer.*.attempts", Value: int64(27), Key: "policy.1.attempts"},
			{Path: "budget", Value: map[string]any{"kind": "per_tick", "ratio": 0.1}, Key: "policy.1.budget"},
		}},
	}
	g := &sweep.Grid{Base: base, Seed: 7, Axes: []sweep.Axis{
		sweep.SetAxis("policy", "policy", policies),
		axis(t, "load", "load", int64(60), int64(80)),
		axis(t, "blip", "fault.0.length", "0s", "2s", "4s"),
	}}
	if err := g.Expand(); err != nil {
		t.Fatal(err)
	}
	return g
}

// The product comes in grid order, first axis slowest; each cell's
// scenario is the base, its named set, then its axis values; each carries
// its resolved plan.
func TestExpand(t *testing.T) {
	g := small(t)
	cells := g.Cells()
	if len(cells) != 12 || g.Size() != 12 || len(g.Product()) != 12 {
		t.Fatalf("%d cells, size %d: want 12", len(cells), g.Size())
	}
	var labels []string
	for _, c := range cells[:4] {
		labels = append(labels, c.Label())
	}
	if got, want := strings.Join(labels, "|"), "policy=none, load=60, blip=0s|policy=none, load=60, blip=2s|policy=none, load=60, blip=4s|policy=none, load=80, blip=0s"; got != want {
		t.Errorf("first cells\n got %s\nwant %s", got, want)
	}
	last := cells[len(cells)-1]
	sc := last.Scenario
	if sc.Load != 80 || sc.Fault[0].Length != model.Seconds(4) || sc.FlatAttempts() != 27 || sc.Budget.Kind != "per_tick" {
		t.Errorf("last cell: load %v, blip %v, attempts %d, budget %+v", sc.Load, sc.Fault[0].Length, sc.FlatAttempts(), sc.Budget)
	}
	if cells[0].Scenario.Budget.Kind != "none" {
		t.Errorf("policy none got budget %+v: sets leak into each other", cells[0].Scenario.Budget)
	}
	if g.Base.Fault[0].Length != model.Seconds(5) {
		t.Errorf("the base scenario changed: %v", g.Base.Fault[0].Length)
	}
	for i, c := range cells {
		if c.Index != i || c.Plan == nil || c.Plan.Allowed != c.Scenario.FlatAttempts() || c.Plan.Load != c.Scenario.Load {
			t.Fatalf("cell %d (%s): index %d, plan %+v", i, c.Label(), c.Index, c.Plan)
		}
	}
	if i, ok := g.Find([]string{"many", "60", "2s"}); !ok || cells[i].Label() != "policy=many, load=60, blip=2s" {
		t.Errorf("Find: %d, %v", i, ok)
	}
	if _, ok := g.Find([]string{"many", "70", "2s"}); ok {
		t.Error("Find found a cell the grid does not have")
	}
}

// A cell's seed depends on its parameters alone: the same cell built alone
// or in a larger grid has the same seed.
func TestSeedOf(t *testing.T) {
	g := small(t)
	seeds := map[uint64]bool{}
	for _, c := range g.Cells() {
		seeds[c.Seed] = true
	}
	if len(seeds) != len(g.Cells()) {
		t.Errorf("%d distinct seeds for %d cells", len(seeds), len(g.Cells()))
	}
	wider := small(t)
	wider.Axes[1] = axis(t, "load", "load", int64(60), int64(70), int64(80))
	if err := wider.Expand(); err != nil {
		t.Fatal(err)
	}
	for _, c := range wider.Cells() {
		if i, ok := g.Find(texts(c)); ok && g.Cells()[i].Seed != c.Seed {
			t.Errorf("%s: seed changed when another load was added", c.Label())
		}
	}
	alone, err := g.Cell([]sweep.Value{g.Axes[0].Values[1], g.Axes[1].Values[0], g.Axes[2].Values[2]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if i, _ := g.Find(texts(alone)); g.Cells()[i].Seed != alone.Seed || len(g.Cells()) != 12 {
		t.Errorf("a cell built alone has seed %d, in the grid %d", alone.Seed, g.Cells()[i].Seed)
	}
	g.SameSeed = true
	if err := g.Expand(); err != nil {
		t.Fatal(err)
	}
	for _, c := range g.Cells() {
		if c.Seed != 7 {
			t.Fatalf("same seed: cell %s has seed %d", c.Label(), c.Seed)
		}
	}
}

func texts(c sweep.Cell) []string {
	var out []string
	for _, p := range c.Params {
		out = append(out, p.Text)
	}
	return out
}

// A cell added beside the product may bring a named set of its own; a
// series selector picks the cells that record a time series.
func TestAddAndSeries(t *testing.T) {
	g := small(t)
	g.Series = &sweep.Selector{Only: map[string][]string{"blip": {"4s"}}}
	spike := sweep.Set{Name: "spike", Overrides: []sweep.Override{{Path: "load", Value: int64(90)}}}
	c, err := g.Add([]sweep.Value{{Text: "spike", Raw: "spike"}, g.Axes[1].Values[0], g.Axes[2].Values[2]},
		map[string]sweep.Set{"policy": spike})
	if err != nil {
		t.Fatal(err)
	}
	// The named set applies first, then the axis values: load 60 wins.
	if c.Index != 12 || c.Scenario.Load != 60 || !c.Series || len(g.Cells()) != 13 || len(g.Product()) != 12 {
		t.Errorf("added cell %s: index %d, load %v, series %v", c.Label(), c.Index, c.Scenario.Load, c.Series)
	}
	if _, err := g.Add([]sweep.Value{{Text: "storm"}, g.Axes[1].Values[0], g.Axes[2].Values[0]}, nil); err == nil {
		t.Error("a cell naming no set of the axis was added")
	}
}

// A cell that cannot be built names what set the key at fault.
func TestCellError(t *testing.T) {
	g := small(t)
	g.Axes[1] = axis(t, "load", "load", int64(60), int64(-1))
	err := g.Expand()
	var ce *sweep.CellError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v (%T), want a *CellError", err, err)
	}
	if ce.Source != "grid.load" || ce.Path != "load" || ce.Cell != "policy=none, load=-1, blip=0s" {
		t.Errorf("error %+v", ce)
	}
	if p, ok := sweep.KeyPath(err); !ok || p != "load" {
		t.Errorf("KeyPath = %q, %v", p, ok)
	}
}

// The pool writes results by position, so the numbers do not depend on how
// many workers ran them.
func TestRunIndependentOfWorkers(t *testing.T) {
	g := small(t)
	one, four := run(t, g.Cells(), 1), run(t, g.Cells(), 4)
	if !reflect.DeepEqual(metrics(one), metrics(four)) {
		t.Error("results differ between 1 and 4 workers")
	}
}

// run runs the cells on workers goroutines.
func run(t *testing.T, cells []sweep.Cell, workers int) []model.Result {
	t.Helper()
	res, err := sweep.Run(context.Background(), cells, sweep.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func metrics(rs []model.Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Metrics.String())
	}
	return out
}

func TestRunCancelled(t *testing.T) {
	g := small(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := sweep.Run(ctx, g.Cells(), sweep.Options{Workers: 2}); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// A stochastic grid with replicates gives the same means and spreads
// whatever the pool size.
func TestReplicatesIndependentOfWorkers(t *testing.T) {
	base := model.Default()
	base.Engine = "stochastic"
	base.Tick = model.Duration(10 * time.Millisecond)
	base.Duration = model.Seconds(30)
	base.Arrivals = "poisson"
	base.Replicates = 6
	base.Dependency.Capacity = 60
	base.Layer = []model.Layer{model.DefaultLayer()}
	base.Layer[0].Attempts = 4
	base.Layer[0].Timeout = model.Duration(500 * time.Millisecond)
	base.Layer[0].Backoff = model.Backoff{Kind: "exponential", Base: model.Duration(100 * time.Millisecond), Factor: 2, Jitter: "full"}
	base.Fault = []model.Fault{{Kind: "outage", Start: model.Seconds(10), Length: model.Seconds(2), Factor: 1}}
	g := &sweep.Grid{Base: base, Seed: 3, Axes: []sweep.Axis{axis(t, "load", "load", int64(30), int64(40), int64(50))}}
	if err := g.Expand(); err != nil {
		t.Fatal(err)
	}
	one, two := run(t, g.Cells(), 1), run(t, g.Cells(), 2)
	for i := range one {
		if one[i].Metrics.String() != two[i].Metrics.String() || one[i].SD.String() != two[i].SD.String() {
			t.Errorf("cell %d differs between 1 and 2 workers", i)
		}
		if one[i].Replicates != 6 || one[i].SD.Calls == 0 {
			t.Errorf("cell %d: %d replicates, calls sd %v: want 6 runs with a spread", i, one[i].Replicates, one[i].SD.Calls)
		}
	}
}
