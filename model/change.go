package model

import (
	"fmt"
	"slices"
	"strings"
)

// Change is an intervention: at a moment of the run, scenario keys take new
// values — retries turned off at one layer, a budget switched on, capacity
// added, load shed — and the run goes on from the state it is in.
type Change struct {
	At  Duration       `toml:"at" doc:"when the change happens, from the start of the run"`
	Set map[string]any `toml:"set" doc:"the keys it sets, by their path below [scenario] as -set writes them, e.g. { \"layer.0.attempts\" = 1, \"budget.kind\" = \"token_bucket\" }"`
	// Then is the scenario from At on: the one before with Set applied.
	// The loader fills it in (it knows how to set a key by its path).
	Then *Scenario `toml:"-"`
}

func (c *Change) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"at", "", span(0, LongestRun), &c.At})
}

// Setting is one key a change sets.
type Setting struct {
	Path  string // below [scenario]
	Value any
}

// Settings lists what c sets, by path in sorted order: a table written
// inline (set = { budget = { kind = "ratio" } }) counts as the keys it holds.
func (c *Change) Settings() []Setting {
	var out []Setting
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if m, ok := v.(map[string]any); ok && len(m) > 0 {
			for k, x := range m {
				walk(prefix+"."+k, x)
			}
			return
		}
		out = append(out, Setting{strings.TrimPrefix(prefix, "."), v})
	}
	walk("", c.Set)
	// In path order, a table's kind before its other keys: setting a kind
	// gives the table that kind's defaults, which the others then override.
	kindFirst := func(p string) string { return strings.ReplaceAll(p+".", ".kind.", ".\x00.") }
	slices.SortFunc(out, func(a, b Setting) int { return strings.Compare(kindFirst(a.Path), kindFirst(b.Path)) })
	return out
}

// fixedKeys are the keys a change cannot set: they shape the run itself
// (its clock, its chain, its fault, what healthy means), not a policy or
// the load.
var fixedKeys = []string{"engine", "tick", "duration", "rng", "replicates", "arrivals", "clients", "layers",
	"layer", "chain", "fault", "health", "initial", "change", "cancel_abandoned", "measure_latency",
	"dependency.queue", "dependency.latency_slope", "dependency.network"}

// fixedKey returns the fixed key a path falls under; "layer" is fixed as a
// list (how many layers there are), not in the keys of a layer
// ("layer.0.attempts", "layer.*.budget").
func fixedKey(path string) (string, bool) {
	for _, k := range fixedKeys {
		if path == k || strings.HasPrefix(path, k+".") {
			if k == "layer" && strings.Count(path, ".") >= 2 {
				continue
			}
			return k, true
		}
	}
	return "", false
}

// validateChanges checks the changes' times and keys, and each scenario
// after a change.
func (s *Scenario) validateChanges() error {
	prev := Duration(0)
	for i, c := range s.Change {
		p := fmt.Sprintf("change.%d.", i)
		switch {
		case c.At <= 0 || c.At >= s.Duration:
			return bad(p+"at", "must be inside the run (after 0 and before %v), got %v", s.Duration, c.At)
		case c.At <= prev && i > 0:
			return bad(p+"at", "changes must come in time order: %v is not after change %d at %v", c.At, i-1, prev)
		case len(c.Set) == 0:
			return bad(p+"set", "sets nothing: give the keys to change, e.g. set = { \"layer.0.attempts\" = 1 }")
		}
		prev = c.At
		for _, st := range c.Settings() {
			if strings.Contains(st.Path+".", ".limiter.") {
				return bad(p+"set."+st.Path, "a concurrency limiter cannot change during a run (it counts the tries in flight from the run's start): start the run with it instead")
			}
			if k, fixed := fixedKey(st.Path); fixed {
				return bad(p+"set."+st.Path, "%s cannot change during a run; a change may set a policy, the load, the dependency's capacity or its latency (fixed: %s)",
					k, strings.Join(fixedKeys, ", "))
			}
		}
		if c.Then == nil {
			return bad(p+"set", "was not applied (the scenario after it is missing)")
		}
		before := s
		if i > 0 {
			before = s.Change[i-1].Then
		}
		if fe := graphShapeChange(before, c.Then, c.Settings()); fe != nil {
			return bad(p+"set."+fe.Path, "%s", fe.Msg)
		}
		then := *c.Then
		then.Change = nil
		if err := then.Validate(); err != nil {
			if fe, ok := err.(*FieldError); ok {
				return bad(p+"set."+fe.Path, "%s", fe.Msg)
			}
			return err
		}
	}
	return nil
}

// PlanChange is a change resolved: from tick At on, the run follows Plan;
// Settings are the keys it sets, as written.
type PlanChange struct {
	At       int64
	Plan     *Plan
	Settings []Setting
}

// resolveChanges resolves the scenario after each change and checks that
// the run can go on from one to the next; with unforeseen faults it also
// lays out the plans the run switches to as each of them starts
// (unforeseen.go).
func (p *Plan) resolveChanges(s *Scenario) error {
	prev := p
	for i, c := range s.Change {
		path := fmt.Sprintf("change.%d.set", i)
		at := int64(c.At) / p.TickNs
		np, err := p.planFrom(c.Then, at)
		if err != nil {
			if fe, ok := err.(*FieldError); ok {
				return bad(path+"."+fe.Path, "%s", fe.Msg)
			}
			return err
		}
		switch {
		case np.Server != prev.Server:
			return bad(path, "the dependency's kind (loss, queue, latency server) cannot change during a run; keep capacity above 0")
		case np.Health.Rule != prev.Health.Rule:
			return bad(path, "the health rule would change during the run: the queue rule judges a server with a capacity above 0 and an edge timeout above 0, the goodput rule any other; keep both above 0, or both as they are")
		case (np.AdmissionKind == "priority") != (prev.AdmissionKind == "priority"):
			return bad(path, "priority classes (dependency.admission.kind = \"priority\") cannot start or stop during a run: the waiting room keeps first tries and retries apart from the start; set it from the start, or leave it")
		case p.Engine == EngineQueue && np.Chain[0].Timeout != prev.Chain[0].Timeout:
			return bad(path, "the queue engine cannot change a timeout during a run")
		}
		if fe := graphServersKept(prev, np, path); fe != nil {
			return fe
		}
		p.Changes = append(p.Changes, PlanChange{At: at, Plan: np, Settings: c.Settings()})
		prev = np
	}
	return p.resolveSwitches(s)
}

// planAt is the plan in force at tick t.
func (p *Plan) planAt(t int64) *Plan {
	q := p
	for _, c := range p.timeline() {
		if c.At <= t {
			q = c.Plan
		}
	}
	return q
}

// nextChange is the first change after tick t; never when none.
func (p *Plan) nextChange(t int64) int64 {
	for _, c := range p.timeline() {
		if c.At > t {
			return c.At
		}
	}
	return never
}
