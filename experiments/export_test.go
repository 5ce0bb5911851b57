package experiments

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// TestExportRoundTrip writes cells of every committed experiment as files
// of one cell and reads them back: the same scenario, plan and seed.
func TestExportRoundTrip(t *testing.T) {
	files, err := filepath.Glob("*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no experiments: %v", err)
	}
	for _, f := range files {
		e, err := Load(f, nil)
		if err != nil {
			t.Fatal(err)
		}
		cells := e.Grid.Cells()
		step := max(1, len(cells)/40) // every cell of a small grid, 40 of a large one
		for i := 0; i < len(cells); i += step {
			c := &cells[i]
			x := Export{Name: "one-cell", Title: e.Title, Comment: []string{"from " + f, c.Label()}, Seed: c.Seed >> 11, Scenario: c.Scenario}
			src, err := x.TOML()
			if err != nil {
				t.Fatalf("%s %s: %v", f, c.Label(), err)
			}
			back, err := Parse("one-cell.toml", src, nil)
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", f, c.Label(), err, src)
			}
			got := back.Grid.Cells()
			if len(got) != 1 {
				t.Fatalf("%s %s: %d cells, want 1", f, c.Label(), len(got))
			}
			if !reflect.DeepEqual(got[0].Scenario, c.Scenario) {
				t.Errorf("%s %s: the scenario read back differs\n got %+v\nwant %+v\n%s", f, c.Label(), got[0].Scenario, c.Scenario, src)
			}
			if planText(got[0].Plan) != planText(c.Plan) {
				t.Errorf("%s %s: the plan read back differs", f, c.Label())
			}
			if got[0].Seed != x.Seed {
				t.Errorf("%s %s: seed %d, want %d", f, c.Label(), got[0].Seed, x.Seed)
			}
		}
	}
}

// TestExportRuns: an exported file runs the same as the scenario it holds,
// series included, and its strings and keys survive quoting.
func TestExportRuns(t *testing.T) {
	sc := model.Default()
	sc.Engine = "stochastic"
	sc.Duration = model.Seconds(30)
	sc.Tick = model.Seconds(0.01)
	sc.Arrivals = "poisson"
	sc.Load = 40
	sc.Layer[0].Attempts = 6
	sc.Layer[0].Timeout = model.Seconds(0.5)
	sc.Dependency.Capacity = 60
	sc.Fault = []model.Fault{{Kind: "outage", Start: model.Seconds(5), Length: model.Seconds(3), Factor: 1}}
	sc.Change = []model.Change{{At: model.Seconds(15), Set: map[string]any{
		"budget":           map[string]any{"kind": "token_bucket", "ratio": 0.1, "max_tokens": 10.0},
		"layer.0.attempts": int64(3),
	}}}
	x := Export{Name: "quoted", Title: "a \"quoted\" title\twith a tab", Question: "back\\slash, ünïcode", Seed: 1 << 40, Series: true, Scenario: sc,
		Figure: "live", FigureTitle: "the run"}
	src, err := x.TOML()
	if err != nil {
		t.Fatal(err)
	}
	e, err := Parse("quoted.toml", src, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	if e.Title != x.Title || e.Question != x.Question || e.Name != "quoted" {
		t.Errorf("read back name %q, title %q, question %q", e.Name, e.Title, e.Question)
	}
	if len(e.Figures) != 1 || e.Figures[0].Kind != "series" || e.Figures[0].Name != "live" {
		t.Errorf("figures %+v", e.Figures)
	}
	if !strings.Contains(string(src), `"layer.0.attempts" = 3`) {
		t.Errorf("the change's dotted key is not quoted as written:\n%s", src)
	}
	c := e.Grid.Cells()[0]
	if !c.Series || c.Seed != 1<<40 {
		t.Errorf("series %v, seed %d", c.Series, c.Seed)
	}
	if err := sweep.ApplyChanges(&sc); err != nil {
		t.Fatal(err)
	}
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	want, err := model.RunPlan(context.Background(), p, 1<<40, model.Options{Series: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := model.RunPlan(context.Background(), c.Plan, c.Seed, model.Options{Series: true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Series, want.Series) || got.Successful != want.Successful {
		t.Errorf("the exported file runs differently: %v successes, want %v", got.Successful, want.Successful)
	}
}

// planText prints a plan and the plans after its changes, for a comparison
// that NaN fields (equal, yet not to reflect.DeepEqual) do not upset.
func planText(p *model.Plan) string {
	q := *p
	q.Changes = nil // the changes, each with its own plan, below
	q.Graph = nil   // a graph, with its servers' plans, below
	s := fmt.Sprintf("%+v", q)
	if g := p.Graph; g != nil {
		h := *g
		h.Servers = nil
		s += fmt.Sprintf("|graph %+v", h)
		for _, sp := range g.Servers {
			if sp != nil {
				s += "|server " + planText(sp)
			}
		}
	}
	for _, c := range p.Changes {
		s += fmt.Sprintf("|%d:%s", c.At, planText(c.Plan))
	}
	return s
}
