package experiments

import (
	"errors"
	"fmt"
	"path/filepath"
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
	cells := e.Grid.Cells()
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
	if sc.Load != 80 || sc.Fault[0].Length != model.Duration(4*time.Second) || sc.FlatAttempts() != 27 || sc.Budget.Kind != "per_tick" || sc.Budget.TableParams() != (model.PerTickParams{Ratio: 0.1}) {
		t.Errorf("last cell scenario: load %v, blip %v, attempts %d, budget %+v", sc.Load, sc.Fault[0].Length, sc.FlatAttempts(), sc.Budget)
	}
	if cells[0].Scenario.Budget.Kind != "none" {
		t.Errorf("policy 'none' got budget %+v: policies leak into each other", cells[0].Scenario.Budget)
	}
	if e.Grid.Base.Fault[0].Length != model.Duration(5*time.Second) {
		t.Errorf("the base scenario changed: %v", e.Grid.Base.Fault[0].Length)
	}
}

func TestSeedsDependOnParametersOnly(t *testing.T) {
	a := mustParse(t, small)
	b := mustParse(t, strings.Replace(small, "load = [60, 80]", "load = [60, 70, 80]", 1))
	seeds := map[string]uint64{}
	for _, c := range a.Grid.Cells() {
		seeds[c.Label()] = c.Seed
	}
	distinct := map[uint64]bool{}
	for _, c := range b.Grid.Cells() {
		distinct[c.Seed] = true
		if s, ok := seeds[c.Label()]; ok && s != c.Seed {
			t.Errorf("%s: seed changed when another load was added", c.Label())
		}
	}
	if len(distinct) != len(b.Grid.Cells()) {
		t.Errorf("%d distinct seeds for %d cells", len(distinct), len(b.Grid.Cells()))
	}
	same := mustParse(t, "same_seed = true\nseed = 20260802\n"+small[strings.Index(small, "[scenario]"):])
	for _, c := range same.Grid.Cells() {
		if c.Seed != 20260802 {
			t.Fatalf("same_seed: cell %s has seed %d", c.Label(), c.Seed)
		}
	}
}

func TestSet(t *testing.T) {
	e := mustParse(t, small, "grid.load=90", "scenario.dependency.capacity=120", "grid.policy=[\"many\"]", "seed=9", "duration=1m")
	cells := e.Grid.Cells()
	if len(cells) != 3 {
		t.Fatalf("%d cells, want 3 (one load, one policy, three blips)", len(cells))
	}
	sc := cells[0].Scenario
	if sc.Load != 90 || sc.Dependency.Capacity != 120 || sc.FlatAttempts() != 27 || e.Grid.Seed != 9 || sc.Duration != model.Duration(time.Minute) {
		t.Errorf("overrides not applied: load %v capacity %v attempts %d seed %d duration %v", sc.Load, sc.Dependency.Capacity, sc.FlatAttempts(), e.Grid.Seed, sc.Duration)
	}
}

func TestRanges(t *testing.T) {
	e := mustParse(t, `
[scenario]
budget.kind = "per_tick"
[grid]
budget = { from = 0, to = 0.3, step = 0.05 }
load = { from = 50, to = 95, step = 5 }
"dependency.queue_limit" = [0, 500]
`)
	texts := func(name string) string {
		a, _ := e.Grid.Axis(name)
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
		{"unknown scenario key", "[scenario]\nload = 70\ndependency.capasity = 100\n", nil, []string{"x.toml:3:", "scenario.dependency.capasity", "unknown key (did you mean \"capacity\"?)"}},
		{"negative capacity", "[scenario]\ndependency.capacity = -5\n", nil, []string{"x.toml:2:", "scenario.dependency.capacity: must be a number from 0 to 1e+09 calls/s, got -5"}},
		{"capacity over the bound", "[scenario]\ndependency.capacity = 1e19\n", nil, []string{"x.toml:2:", "scenario.dependency.capacity: must be a number from 0 to 1e+09 calls/s, got 1e+19"}},
		{"wrong type", "[scenario]\nload = \"fast\"\n", nil, []string{"x.toml:2:", "scenario.load", "wants a number"}},
		{"bad enum", "[scenario]\ndependency.queue = \"stack\"\n", nil, []string{"x.toml:2:", "dependency.queue", "fifo, lifo, none"}},
		{"bad duration", "[scenario]\ntick = \"fast\"\n", nil, []string{"x.toml:2:", "scenario.tick", "not a duration"}},
		{"grid cell invalid", "[grid]\nload = [50, -1]\n", nil, []string{"x.toml:2:", "grid.load", "load=-1"}},
		{"grid too large", "max_cells = 100\n[grid]\nload = { from = 1, to = 20, step = 1 }\nbudget = { from = 0, to = 1, step = 0.1 }\n", nil, []string{"x.toml:", "grid", "220 cells", "max_cells = 100"}},
		{"range backwards", "[grid]\nload = { from = 90, to = 50, step = 5 }\n", nil, []string{"x.toml:2:", "grid.load", "below"}},
		{"unknown axis", "[grid]\nspeed = [1, 2]\n", nil, []string{"x.toml:2:", "grid.speed", "unknown key"}},
		{"policy without name", "[[policy]]\nattempts = 3\n", nil, []string{"x.toml:1:", "policy.0", "name"}},
		{"policy bad key", "[[policy]]\nname = \"a\"\nattemps = 3\n", nil, []string{"x.toml:3:", "policy.0.attemps", "unknown key"}},
		{"layer bad value", "[[scenario.layer]]\nattempts = 3\n[[scenario.layer]]\nattempts = 0\n", nil, []string{"x.toml:4:", "scenario.layer.1.attempts: must be a whole number from 1 to 1000, got 0"}},
		{"queue engine jitter", "[scenario]\nlayer = [{ attempts = 3, backoff = { kind = \"exponential\", base = \"1s\", jitter = \"full\" } }]\n", nil, []string{"x.toml:2:", "jitter", "stochastic"}},
		{"change of a fixed key", "[scenario]\nduration = \"1h\"\n[[scenario.change]]\nat = \"100s\"\nset = { tick = \"2s\" }\n", nil, []string{"x.toml:5:", "scenario.change.0.set.tick: tick cannot change during a run"}},
		{"change of an unknown key", "[scenario]\nduration = \"1h\"\n[[scenario.change]]\nat = \"100s\"\nset = { \"layer.0.atempts\" = 2 }\n", nil, []string{"x.toml:5:", "scenario.change.0.set.layer.0.atempts: unknown key (did you mean \"attempts\"?)"}},
		{"change of a graph's shape", "[scenario]\nengine = \"stochastic\"\nduration = \"1m\"\ngraph.service = [{ name = \"gw\" }, { name = \"a\", server = { capacity = 100 } }, { name = \"b\", server = { capacity = 100 } }]\ngraph.edge = [{ to = \"gw\" }, { from = \"gw\", to = \"a\" }, { from = \"gw\", to = \"b\" }]\n[[scenario.change]]\nat = \"30s\"\nset = { \"graph.edge.1.attempts\" = 3, \"graph.edge.1.to\" = \"b\" }\n", nil, []string{"x.toml:8:", "scenario.change.0.set.graph.edge.1.to: a change may not alter a graph's shape"}},
		{"change of a graph's server's kind", "[scenario]\nengine = \"stochastic\"\nduration = \"1m\"\ngraph.service = [{ name = \"gw\" }, { name = \"a\", server = { capacity = 100, queue = \"fifo\" } }, { name = \"b\", server = { capacity = 100, queue = \"fifo\" } }]\ngraph.edge = [{ to = \"gw\" }, { from = \"gw\", to = \"a\" }, { from = \"gw\", to = \"b\" }]\n[[scenario.change]]\nat = \"30s\"\nset = { \"graph.service.2.server.admission.kind\" = \"priority\" }\n", nil, []string{"x.toml:8:1: scenario.change.0.set: priority classes (b's server.admission.kind = \"priority\") cannot start or stop during a run"}},
		{"change after the run", "[scenario]\nduration = \"1h\"\n[[scenario.change]]\nat = \"2h\"\nset = { load = 2 }\n", nil, []string{"x.toml:4:1: scenario.change.0.at: must be inside the run"}},
		{"deadline beyond ticks", "[scenario]\nengine = \"stochastic\"\ntick = \"1us\"\nduration = \"1s\"\ndeadline = \"1h\"\n", nil, []string{"x.toml:5:", "scenario.deadline", "more than 2,000,000,000 ticks", "none (0)"}},
		{"duration too large", "[[scenario.fault]]\nlength = 1e12\n", nil, []string{"x.toml:2:1: scenario.fault.0.length: 1e+12 s is too large: a duration is at most 2562047h47m16.854775807s"}},
		{"duration too large, set", "", []string{"scenario.layer.0.timeout=3000000h"}, []string{`-set scenario.layer.0.timeout: "3000000h" is too large: a duration is at most 2562047h47m16.854775807s`}},
		{"axis duration too large", "[grid]\nblip = [1e12]\n", nil, []string{"x.toml:2:", "grid.blip", "1e+12 s is too large"}},
		{"deadline beyond its range", "[scenario]\nengine = \"stochastic\"\ndeadline = \"1000h\"\n", nil, []string{"x.toml:3:", "scenario.deadline: must be a duration from 0s to 24h, got 1000h"}},
		{"set bad", "", []string{"scenario.load=-3"}, []string{"-set scenario.load: must be a number from 0 to 1e+09 requests/s, got -3"}},
		{"set malformed", "", []string{"load"}, []string{"PATH=VALUE"}},
		{"set unknown key", "", []string{"laod=3"}, []string{"-set scenario.laod", "unknown key (did you mean \"load\"?)"}},
		{"set with a line break", "", []string{"load=80\nseed=9"}, []string{"x.toml: -set: \"load=80\\nseed=9\" holds a line break", "one PATH=VALUE on one line", "its own -set"}},
		{"set with a carriage return", "", []string{"grid.blip=5s\r"}, []string{"-set: \"grid.blip=5s\\r\" holds a line break"}},
		{"top key near", "senario.load = 1\n", nil, []string{"x.toml:1:1: senario: unknown key (did you mean \"scenario\"?)"}},
		{"figure key near", "[[figure]]\nkind = \"series\"\nrule_of_thum = true\n", nil, []string{"x.toml:3:1: figure.0.rule_of_thum: unknown key (did you mean \"rule_of_thumb\"?)"}},
		{"tolerance key near", "[tolerance]\nrecovery_s = { ab = 1 }\n", nil, []string{"tolerance.recovery_s.ab: unknown key (did you mean \"abs\"?)"}},
		{"tolerance column near", "[tolerance]\npeak_qeue = { abs = 1 }\n", nil, []string{"tolerance.peak_qeue: is not a results.csv column (did you mean \"peak_queue\"?)"}},
		{"axis key near", "[grid]\nlaod = [1, 2]\n", nil, []string{"x.toml:2:1: grid.laod", "(did you mean \"load\"?)"}},
		{"nothing near", "[scenario]\nzzzzzz = 1\n", nil, []string{"scenario.zzzzzz: unknown key; [scenario] accepts"}},
		{"lab key near", "[lab]\nsped = 10\ncolumns = [{ name = \"calls\", why = \"w\" }]\n", nil, []string{"x.toml:2:1: lab.sped: unknown key (did you mean \"speed\"?)"}},
		{"lab speed", "[lab]\nspeed = 0\ncolumns = [{ name = \"calls\", why = \"w\" }]\n", nil, []string{"x.toml:2:", "lab.speed: must be a number from 0.01 to 1000, got 0"}},
		{"lab column near", "[lab]\ncolumns = [{ name = \"cals\", why = \"w\" }]\n", nil, []string{"lab.columns.0.name: \"cals\" is not a results.csv column (did you mean \"calls\"?)"}},
		{"lab column without why", "[lab]\ncolumns = [{ name = \"calls\", abs = 1 }]\n", nil, []string{"lab.columns.0.why", "required"}},
		{"lab without columns", "[lab]\nspeed = 2\n", nil, []string{"x.toml:1:", "lab.columns: is required"}},
		{"lab only axis", "[lab]\nonly = { laod = 1 }\ncolumns = [{ name = \"calls\", why = \"w\" }]\n", nil, []string{"lab.only.laod: is not a grid axis"}},
		{"name testdata", "name = \"testdata\"\n", nil, []string{"x.toml:1:1: name: \"testdata\" cannot name an experiment's folder", "not \"testdata\""}},
		{"name of the index", "name = \"README.md\"\n", nil, []string{"x.toml:1:1: name: \"README.md\" cannot name an experiment's folder", "not \"testdata\" or \"README.md\""}},
		{"name of the index in another case", "name = \"readme.MD\"\n", nil, []string{"x.toml:1:1: name: \"readme.MD\" cannot name"}},
		{"name hidden", "name = \".git\"\n", nil, []string{"x.toml:1:1: name: \".git\" cannot name", "a letter or digit"}},
		{"name with a separator", "name = \"a/b\"\n", nil, []string{"x.toml:1:1: name: \"a/b\" cannot name"}},
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

const namedAxes = `
[scenario]
duration = "2m"
fault = [{ kind = "outage", start = "10s", length = "5s" }]

[[grid.profile]]
name = "calm"
load = 50

[[grid.profile]]
name = "busy"
load = 90

[grid]
attempts = [1, 3]

[[cell]]
profile = "busy"
attempts = 9

[[cell]]
profile = { name = "spike", load = 70, fault = [{ kind = "spike", start = "10s", length = "5s", factor = 2 }] }
attempts = 3
`

func TestNamedAxesExtraCellsAndFindings(t *testing.T) {
	e := mustParse(t, "findings = [\"calls {calls[busy; 9]} of {requests[busy; 9]}, {wasted[spike; 3]pct}; {{literal}} ± {calls[busy; 9]sd%.1f}\"]\n"+namedAxes)
	cells := e.Grid.Cells()
	if len(cells) != 6 || e.Grid.Size() != 4 {
		t.Fatalf("%d cells (grid %d), want 4 + 2", len(cells), e.Grid.Size())
	}
	if sc := cells[4].Scenario; cells[4].Label() != "profile=busy, attempts=9" || sc.Load != 90 || sc.FlatAttempts() != 9 {
		t.Errorf("extra cell 4: %s load %v attempts %d", cells[4].Label(), sc.Load, sc.FlatAttempts())
	}
	if sc := cells[5].Scenario; sc.Load != 70 || sc.Fault[0].Kind != "spike" || sc.Fault[0].Factor != 2 {
		t.Errorf("extra cell 5: load %v fault %+v", sc.Load, sc.Fault)
	}
	if sc := cells[1].Scenario; sc.Load != 50 || sc.FlatAttempts() != 3 {
		t.Errorf("cell 1: load %v attempts %d", sc.Load, sc.FlatAttempts())
	}
	f := e.Findings[0]
	var refs []string
	for _, p := range f.Parts {
		if p.Column != "" {
			sd := ""
			if p.SD {
				sd = "sd"
			}
			refs = append(refs, fmt.Sprintf("%s@%d%s%s", p.Column, p.Cell, sd, p.Format))
		} else {
			refs = append(refs, p.Text)
		}
	}
	if got := strings.Join(refs, "|"); got != "calls |calls@4| of |requests@4|, |wasted@5pct|; {literal} ± |calls@4sd%.1f" {
		t.Errorf("finding parsed as %q", got)
	}
	for _, bad := range []struct{ finding, want string }{
		{"{calls[busy]}", "1 values for 2 axes"},
		{"{calls[busy; 27]}", "no cell has the values busy; 27"},
		{"{speed[busy; 9]}", "not a results.csv column"},
		{"{calls[busy; 9]%d%d}", "one Go verb"},
		{"{amplification[busy; 9]sd}", "no spread over replicates"},
		{"a } b", "without its {"},
	} {
		_, err := Parse("x.toml", []byte("findings = [\""+bad.finding+"\"]\n"+namedAxes), nil)
		if err == nil || !strings.Contains(err.Error(), bad.want) || !strings.Contains(err.Error(), "findings.0") {
			t.Errorf("finding %q: got %v, want an error with %q", bad.finding, err, bad.want)
		}
	}
	for _, bad := range []struct{ cell, want string }{
		{"[[cell]]\nprofile = \"calm\"\n", "attempts is missing"},
		{"[[cell]]\nprofile = \"calm\"\nattempts = 1\n", "already in the grid"},
		{"[[cell]]\nprofile = \"storm\"\nattempts = 2\n", "not one of \"calm\", \"busy\""},
		{"[[cell]]\nprofile = \"calm\"\nattempts = 2\nload = 3\n", "cell.0.load: is not a grid axis"},
	} {
		src := namedAxes[:strings.Index(namedAxes, "[[cell]]")] + bad.cell
		_, err := Parse("x.toml", []byte(src), nil)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: got %v, want an error with %q", bad.cell, err, bad.want)
		}
	}
}

func TestFigureSlices(t *testing.T) {
	e := mustParse(t, namedAxes+`
[[figure]]
kind = "bars"
x = "profile"
line = "attempts"
metric = "failed"
only = { attempts = [3] }
`)
	f := e.Figures[0]
	var in []string
	for _, c := range e.Grid.Cells() {
		if f.Select.Holds(&c) {
			in = append(in, c.Label())
		}
	}
	if got := strings.Join(in, "|"); got != "profile=calm, attempts=3|profile=busy, attempts=3|profile=spike, attempts=3" {
		t.Errorf("cells in the figure: %s", got)
	}
	if _, err := Parse("x.toml", []byte(namedAxes+"\n[[figure]]\nkind = \"bars\"\nx = \"profile\"\nonly = { attempts = [4] }\n"), nil); err == nil || !strings.Contains(err.Error(), "not a value of axis attempts") {
		t.Errorf("only with a missing value: %v", err)
	} // A single cell's value on an axis is one only may name.
	e = mustParse(t, namedAxes+"\n[[figure]]\nkind = \"bars\"\nx = \"profile\"\nonly = { attempts = 9 }\n")
	in = nil
	for _, c := range e.Grid.Cells() {
		if e.Figures[0].Select.Holds(&c) {
			in = append(in, c.Label())
		}
	}
	if got := strings.Join(in, "|"); got != "profile=busy, attempts=9" {
		t.Errorf("cells in the figure of attempts 9: %s", got)
	}
}

// -set reaches the entries of a list of tables by index whether the file
// writes the list inline (layer = [{ ... }]) or as [[...]] tables; the
// index one past the end adds an entry.
func TestSetListEntries(t *testing.T) {
	for name, src := range map[string]string{
		"inline": "[scenario]\nlayer = [{ timeout = \"1s\" }]\nfault = [{ kind = \"outage\", start = \"60s\", length = \"30s\" }]\n",
		"tables": "[[scenario.layer]]\ntimeout = \"1s\"\n[[scenario.fault]]\nkind = \"outage\"\nstart = \"60s\"\nlength = \"30s\"\n",
	} {
		e := mustParse(t, src, "scenario.layer.0.timeout=2s", "fault.0.start=30s", "scenario.layer.1.attempts=3", "layer.2={ attempts = 5 }")
		sc := e.Grid.Cells()[0].Scenario
		if len(sc.Layer) != 3 || sc.Layer[0].Timeout != model.Seconds(2) || sc.Layer[1].Attempts != 3 || sc.Layer[1].Timeout != model.DefaultLayer().Timeout || sc.Layer[2].Attempts != 5 {
			t.Errorf("%s: layers %+v", name, sc.Layer)
		}
		if len(sc.Fault) != 1 || sc.Fault[0].Start != model.Seconds(30) || sc.Fault[0].Length != model.Seconds(30) {
			t.Errorf("%s: faults %+v", name, sc.Fault)
		}
		for _, c := range []struct{ set, want string }{
			{"scenario.layer.3.timeout=2s", "x.toml: -set scenario.layer.3.timeout: scenario.layer has entries 0..0; name one of them, or 1 to add one"},
			{"scenario.layer.first.timeout=2s", "scenario.layer has entries 0..0"},
			{"scenario.layer.0.timeout.x=2s", "-set scenario.layer.0.timeout.x: scenario.layer.0.timeout is a single value, not a table"},
			{"scenario.layer.0.timeout=fast", "-set scenario.layer.0.timeout: \"fast\" is not a duration"},
			{"scenario.layer.0=3", "-set scenario.layer.0: an entry of scenario.layer is a table; give it as { key = value, ... }"},
		} {
			_, err := Parse("x.toml", []byte(src), []string{c.set})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: -set %s: got %v, want %q", name, c.set, err, c.want)
			}
		}
	}
	_, err := Parse("x.toml", []byte("[grid]\nload = [50, 60]\n"), []string{"grid.load.0=55"})
	if err == nil || !strings.Contains(err.Error(), "-set grid.load.0: grid.load is a list of values; set it whole, as -set grid.load=[...]") {
		t.Errorf("-set into a list of values: %v", err)
	}
}

// Every committed experiment takes a -set on its first layer and its first
// fault; one on the markov engine, which models no fault, refuses the
// fault by name and takes the layer's; one of a service graph refuses the
// layer by name (the graph replaces the chain) and takes its first
// edge's.
func TestSetCommittedExperiments(t *testing.T) {
	files, _ := filepath.Glob("*.toml")
	for _, f := range files {
		e, err := Load(f, []string{"scenario.layer.0.timeout=2s", "scenario.fault.0.start=30s"})
		if err != nil && strings.Contains(err.Error(), "scenario.layer: a graph replaces the chain") {
			if e, err = Load(f, []string{"scenario.graph.edge.0.timeout=2s"}); err == nil && e.Grid.Base.Graph.Edge[0].Timeout != model.Seconds(2) && e.Grid.Cells()[0].Scenario.Graph.Edge[0].Timeout != model.Seconds(2) {
				t.Errorf("%s: edge 0 timeout %v", f, e.Grid.Cells()[0].Scenario.Graph.Edge[0].Timeout)
			}
			if err != nil {
				t.Errorf("%v", err)
			}
			continue
		}
		if err != nil && strings.Contains(err.Error(), "scenario.fault.0.kind") && strings.Contains(err.Error(), "the markov engine does not model it") {
			if e, err = Load(f, []string{"scenario.layer.0.timeout=2s"}); err == nil && e.Grid.Base.Layer[0].Timeout != model.Seconds(2) {
				t.Errorf("%s: layer 0 timeout %v", f, e.Grid.Base.Layer[0].Timeout)
			}
			if err != nil {
				t.Errorf("%v", err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if b := e.Grid.Base; b.Layer[0].Timeout != model.Seconds(2) || b.Fault[0].Start != model.Seconds(30) {
			t.Errorf("%s: layer 0 timeout %v, fault 0 start %v", f, b.Layer[0].Timeout, b.Fault[0].Start)
		}
	}
}
