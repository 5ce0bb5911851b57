package experiments

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stormlab/stormlab/model"
)

const small = `
name = "small"
seed = 7
[scenario]
load = 70
dependency.capacity = 100
fault = [{ kind = "outage", start = "10s", length = "5s" }]
duration = "2m"

[[policy]]
name = "none"
attempts = 1

[[policy]]
name = "many"
attempts = 27
budget = { kind = "per_tick", ratio = 0.1 }

[grid]
load = [60, 80]
blip = { from = "0s", to = "4s", step = "2s" }
`

func mustParse(t *testing.T, src string, sets ...string) *Experiment {
	t.Helper()
	e, err := Parse("x.toml", []byte(src), sets)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestGridOrderAndOverrides(t *testing.T) {
	e := mustParse(t, small)
	cells := e.Cells()
	if len(cells) != 2*2*3 {
		t.Fatalf("%d cells, want 12", len(cells))
	}
	var labels []string
	for _, c := range cells {
		labels = append(labels, c.Label())
	}
	want := "policy=none, load=60, blip=0s|policy=none, load=60, blip=2s|policy=none, load=60, blip=4s|policy=none, load=80, blip=0s"
	if got := strings.Join(labels[:4], "|"); got != want {
		t.Errorf("first cells\n got %s\nwant %s", got, want)
	}
	last := cells[len(cells)-1]
	sc := last.Scenario
	if sc.Load != 80 || sc.Fault[0].Length != model.Duration(4*time.Second) || sc.FlatAttempts() != 27 || sc.Budget.Kind != "per_tick" || sc.Budget.Ratio != 0.1 {
		t.Errorf("last cell scenario: load %v, blip %v, attempts %d, budget %+v", sc.Load, sc.Fault[0].Length, sc.FlatAttempts(), sc.Budget)
	}
	if cells[0].Scenario.Budget.Kind != "none" {
		t.Errorf("policy 'none' got budget %+v: policies leak into each other", cells[0].Scenario.Budget)
	}
	if e.Base.Fault[0].Length != model.Duration(5*time.Second) {
		t.Errorf("the base scenario changed: %v", e.Base.Fault[0].Length)
	}
}

func TestSeedsDependOnParametersOnly(t *testing.T) {
	a := mustParse(t, small)
	b := mustParse(t, strings.Replace(small, "load = [60, 80]", "load = [60, 70, 80]", 1))
	seeds := map[string]uint64{}
	for _, c := range a.Cells() {
		seeds[c.Label()] = c.Seed
	}
	distinct := map[uint64]bool{}
	for _, c := range b.Cells() {
		distinct[c.Seed] = true
		if s, ok := seeds[c.Label()]; ok && s != c.Seed {
			t.Errorf("%s: seed changed when another load was added", c.Label())
		}
	}
	if len(distinct) != len(b.Cells()) {
		t.Errorf("%d distinct seeds for %d cells", len(distinct), len(b.Cells()))
	}
	same := mustParse(t, "same_seed = true\nseed = 20260802\n"+small[strings.Index(small, "[scenario]"):])
	for _, c := range same.Cells() {
		if c.Seed != 20260802 {
			t.Fatalf("same_seed: cell %s has seed %d", c.Label(), c.Seed)
		}
	}
}

func TestSet(t *testing.T) {
	e := mustParse(t, small, "grid.load=90", "scenario.dependency.capacity=120", "grid.policy=[\"many\"]", "seed=9", "duration=1m")
	cells := e.Cells()
	if len(cells) != 3 {
		t.Fatalf("%d cells, want 3 (one load, one policy, three blips)", len(cells))
	}
	sc := cells[0].Scenario
	if sc.Load != 90 || sc.Dependency.Capacity != 120 || sc.FlatAttempts() != 27 || e.Seed != 9 || sc.Duration != model.Duration(time.Minute) {
		t.Errorf("overrides not applied: load %v capacity %v attempts %d seed %d duration %v", sc.Load, sc.Dependency.Capacity, sc.FlatAttempts(), e.Seed, sc.Duration)
	}
}

func TestRanges(t *testing.T) {
	e := mustParse(t, `
[grid]
budget = { from = 0, to = 0.3, step = 0.05 }
load = { from = 50, to = 95, step = 5 }
"dependency.queue_limit" = [0, 500]
`)
	texts := func(name string) string {
		a, _ := e.Axis(name)
		var s []string
		for _, v := range a.Values {
			s = append(s, v.Text)
		}
		return strings.Join(s, " ")
	}
	for name, want := range map[string]string{
		"budget":                 "0 0.05 0.1 0.15 0.2 0.25 0.3",
		"load":                   "50 55 60 65 70 75 80 85 90 95",
		"dependency.queue_limit": "0 500",
	} {
		if got := texts(name); got != want {
			t.Errorf("axis %s = %q, want %q", name, got, want)
		}
	}
}

// TestBadInput: every kind of bad input gets one error naming the file, the
// position where it is known, and the key.
func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		name, src string
		sets      []string
		want      []string // substrings of the one-line message
	}{
		{"syntax", "[scenario]\nload = = 70\n", nil, []string{"x.toml:2:", "expected value"}},
		{"unknown top key", "seed = 1\nsead = 2\n", nil, []string{"x.toml:2:1: sead: unknown key", "seed"}},
		{"unknown scenario key", "[scenario]\nload = 70\ndependency.capasity = 100\n", nil, []string{"x.toml:3:", "scenario.dependency.capasity", "unknown key", "capacity"}},
		{"negative capacity", "[scenario]\ndependency.capacity = -5\n", nil, []string{"x.toml:2:", "scenario.dependency.capacity", "≥ 0"}},
		{"wrong type", "[scenario]\nload = \"fast\"\n", nil, []string{"x.toml:2:", "scenario.load", "wants a number"}},
		{"bad enum", "[scenario]\ndependency.queue = \"stack\"\n", nil, []string{"x.toml:2:", "dependency.queue", "fifo, lifo, none"}},
		{"bad duration", "[scenario]\ntick = \"fast\"\n", nil, []string{"x.toml:2:", "scenario.tick", "not a duration"}},
		{"grid cell invalid", "[grid]\nload = [50, -1]\n", nil, []string{"x.toml:2:", "grid.load", "load=-1"}},
		{"grid too large", "max_cells = 100\n[grid]\nload = { from = 1, to = 20, step = 1 }\nbudget = { from = 0, to = 1, step = 0.1 }\n", nil, []string{"x.toml:", "grid", "220 cells", "max_cells = 100"}},
		{"range backwards", "[grid]\nload = { from = 90, to = 50, step = 5 }\n", nil, []string{"x.toml:2:", "grid.load", "below"}},
		{"unknown axis", "[grid]\nspeed = [1, 2]\n", nil, []string{"x.toml:2:", "grid.speed", "unknown key"}},
		{"policy without name", "[[policy]]\nattempts = 3\n", nil, []string{"x.toml:1:", "policy.0", "name"}},
		{"policy bad key", "[[policy]]\nname = \"a\"\nattemps = 3\n", nil, []string{"x.toml:3:", "policy.0.attemps", "unknown key"}},
		{"layer bad value", "[[scenario.layer]]\nattempts = 3\n[[scenario.layer]]\nattempts = 0\n", nil, []string{"x.toml:4:", "scenario.layer.1.attempts", "between 1 and 1000"}},
		{"queue engine jitter", "[scenario]\nlayer = [{ attempts = 3, backoff = { kind = \"exponential\", base = \"1s\", jitter = \"full\" } }]\n", nil, []string{"x.toml:2:", "jitter", "stochastic"}},
		{"set bad", "", []string{"scenario.load=-3"}, []string{"-set scenario.load", "≥ 0"}},
		{"set malformed", "", []string{"load"}, []string{"PATH=VALUE"}},
		{"figure axis", "[grid]\nload = [1, 2]\n[[figure]]\nkind = \"phase\"\nx = \"load\"\ny = \"blip\"\n", nil, []string{"x.toml:6:", "figure.0.y", "not a grid axis"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("x.toml", []byte(c.src), c.sets)
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("got %v (%T), want an *Error", err, err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("message spans lines: %q", msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
		})
	}
}

func TestCommittedExperimentsLoad(t *testing.T) {
	files, _ := filepath.Glob("*.toml")
	if len(files) == 0 {
		t.Fatal("no experiments found")
	}
	for _, f := range files {
		if _, err := Load(f, nil); err != nil {
			t.Errorf("%v", err)
		}
	}
}

// TestRunIndependentOfWorkers: the pool writes results by index, so the
// numbers do not depend on how many workers ran them.
func TestRunIndependentOfWorkers(t *testing.T) {
	e := mustParse(t, small)
	one, err := Run(context.Background(), e, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	four, err := Run(context.Background(), e, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(metrics(one), metrics(four)) {
		t.Error("results differ between -j 1 and -j 4")
	}
}

func metrics(rs []model.Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Metrics.String())
	}
	return out
}

func TestRunCancelled(t *testing.T) {
	e := mustParse(t, small)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, e, 2, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}
