package serve

import (
	"reflect"
	"strings"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// policyChange is the change that switches the run to one of its
// experiment's policies now: every key any of the experiment's policies
// sets takes the value it has under that policy, and the keys no policy
// sets (the load, a change made by hand to another key) stay as they are.
func (r *run) policyChange(name string) (map[string]any, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	cur, err := r.nowLocked()
	if err != nil {
		return nil, err
	}
	now := cur.sc
	st := r.tl.setup
	st.Policy = name
	target, err := st.scenario(r.tl.from)
	if err != nil {
		return nil, inputErr(err)
	}
	var paths []string
	if ax, ok := r.tl.from.Exp.Grid.Axis("policy"); ok {
		for _, set := range ax.Sets {
			for _, o := range set.Overrides {
				paths = append(paths, o.Path)
			}
		}
	}
	want := map[string]any{}
	for _, s := range valuesOf(target) {
		want[s.Path] = s.Value
	}
	out := map[string]any{}
	for _, s := range valuesOf(now) {
		w, ok := want[s.Path]
		if !ok || reflect.DeepEqual(w, s.Value) {
			continue
		}
		for _, p := range paths {
			if sweep.Covers(p, s.Path) {
				out[s.Path] = w
				break
			}
		}
	}
	if len(out) == 0 {
		return nil, badInput("the run already follows policy %q: it sets nothing new", clip(name, 80))
	}
	return out, nil
}

// valuesOf lists a scenario's keys with their values, without its faults,
// changes and load shape: the keys a change may set, and the fixed ones.
func valuesOf(sc model.Scenario) []model.Setting {
	var out []model.Setting
	for _, s := range sweep.Values(sc) {
		if strings.HasPrefix(s.Path, "fault.") || strings.HasPrefix(s.Path, "change.") || strings.HasPrefix(s.Path, "shape.") {
			continue
		}
		out = append(out, s)
	}
	return out
}
