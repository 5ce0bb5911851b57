package serve

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// TestInterventionsLeaveThePastAlone is what the live run rests on: an
// intervention at second t, of any kind the page offers, leaves every row
// before t as it was, so the server can simulate the run again from the
// start and go on streaming from t. Checked on the FIG. 1 server
// (stochastic), the 30-second blip (the queue engine) and a chain of four
// layers with breakers.
func TestInterventionsLeaveThePastAlone(t *testing.T) {
	cat, err := newCatalog([]string{fig1, "../../../experiments/blip-30s.toml", "../../../experiments/chain-breaker.toml"})
	if err != nil {
		t.Fatal(err)
	}
	fault := func(kind string, length float64, capacity, factor float64) intervention {
		f := model.Fault{Kind: kind, Length: model.Seconds(length), Capacity: capacity, Factor: factor}
		return intervention{Fault: &f, Label: faultLabel(&f)}
	}
	change := func(set map[string]any) intervention { return intervention{Set: set, Label: changeLabel(set)} }
	all := []intervention{
		fault("outage", 3, 0, 1), fault("outage", 1, 0, 1), fault("degradation", 5, 30, 1),
		fault("slowdown", 5, 0, 4), fault("spike", 5, 0, 2),
		change(map[string]any{"layer.*.attempts": int64(3)}),
		change(map[string]any{"deadline": "2s"}),
		change(map[string]any{"dependency.drop_expired": false}),
		change(map[string]any{"load": 50.5}),
		change(map[string]any{"dependency.capacity": int64(80)}),
	}
	const at, rows = 30, 60
	for _, name := range []string{"server-60", "blip-30s", "chain-breaker"} {
		o := cat.byName[name]
		policy := ""
		if names := policyNames(o); len(names) > 0 {
			policy = names[len(names)-1]
		}
		l, err := newLive(cat, setup{Experiment: name, Policy: policy})
		if err != nil {
			t.Fatal(err)
		}
		before, err := l.simulate(context.Background(), rows, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		// Every kind of every family the form offers, from the registries.
		kinds := slices.Clone(all)
		modelled := map[string]model.EngineSet{}
		for _, kc := range formKindChanges(t, l.base.Tick) {
			st := change(kc.set)
			modelled[st.Label] = kc.engines
			kinds = append(kinds, st)
		}
		// The first change lands at the run's first tick; a change after
		// it at once, and a fault at the start, leave nothing before.
		first := change(map[string]any{"dependency.capacity": int64(70)})
		for _, st := range append([]intervention{first}, kinds...) {
			st.Row = at
			if st.Fault != nil {
				f := *st.Fault
				f.Start = l.at(at)
				st.Fault = &f
			}
			steps := []intervention{st}
			if _, err := l.parse(rows, steps); err != nil {
				// A kind the engine does not model is refused, not run.
				if e, ok := modelled[st.Label]; ok && e.Has(l.base.Engine) {
					t.Errorf("%s: %s: refused, though the %s engine models it: %v", name, st.Label, l.base.Engine, err)
				}
				t.Logf("%s: %s: refused: %v", name, st.Label, err)
				continue
			}
			after, err := l.simulate(context.Background(), rows, steps, 0)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, st.Label, err)
			}
			if !slices.Equal(before[:at], after[:at]) {
				t.Errorf("%s: %s at %ds changes the rows before it", name, st.Label, at)
			}
			// Simulating further does not change them either.
			longer, err := l.simulate(context.Background(), 2*rows, steps, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(after, longer[:rows]) {
				t.Errorf("%s: %s: a longer run differs in its first %d rows", name, st.Label, rows)
			}
		}
	}
}

// kindChange is a change the policy form can make: a family's key set to
// one of its kinds, with the kind's keys, and the engines that model it.
type kindChange struct {
	set     map[string]any
	engines model.EngineSet
}

// formKindChanges is every kind of every family the page's form offers
// (the data-family places in index.html), as a change with the kind's keys
// at their defaults, or at the bottom of their range (a duration at least
// a tick) where a default is outside it; a layer's keys on the first layer
// for one kind, on every layer for the next.
func formKindChanges(t *testing.T, tick model.Duration) []kindChange {
	page, err := os.ReadFile("assets/index.html")
	if err != nil {
		t.Fatal(err)
	}
	var out []kindChange
	for _, m := range regexp.MustCompile(`data-family="([^"]+)"`).FindAllStringSubmatch(string(page), -1) {
		fam, ok := model.FamilyOf(m[1])
		if !ok {
			t.Fatalf("the form offers %s, which picks no registered kind", m[1])
		}
		table := sweep.Table(fam)
		for i, k := range sweep.KindsOf(fam) {
			layer := []string{"layer.0.", "layer.*."}[i%2]
			set := map[string]any{strings.Replace(fam.Key, "layer.N.", layer, 1): k.Name}
			for _, key := range k.Keys {
				set[strings.Replace(table+"."+key.Path, "layer.N.", layer, 1)] = formValue(t, key, tick)
			}
			out = append(out, kindChange{set: set, engines: k.Engines})
		}
	}
	if len(out) == 0 {
		t.Fatal("the form offers no family of kinds")
	}
	return out
}

// formValue is a key's default as the form sends it, or the bottom of its
// range (a duration at least tick) where the default is outside it.
func formValue(t *testing.T, k sweep.Key, tick model.Duration) any {
	switch k.Type {
	case "text":
		v, err := strconv.Unquote(k.Value)
		if err != nil {
			t.Fatal(err)
		}
		return v
	case "bool":
		return k.Value == "true"
	}
	var x float64
	if k.Type == "duration" {
		d, err := time.ParseDuration(k.Value)
		if err != nil {
			t.Fatal(err)
		}
		x = d.Seconds()
	} else {
		var err error
		if x, err = strconv.ParseFloat(k.Value, 64); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range k.Ranges {
		if x < r.Min {
			x = r.Min
			if k.Type == "duration" {
				x = max(x, tick.Seconds())
			}
		}
	}
	switch k.Type {
	case "duration":
		return model.Seconds(x).String()
	case "whole":
		return int64(x)
	}
	return x
}
