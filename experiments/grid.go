package experiments

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// readGrid reads the [grid] axes, in the order the file writes them. The
// policies become the first axis unless the grid names "policy" itself.
func (e *Experiment) readGrid(v any, policies []sweep.Set) error {
	var axes []sweep.Axis
	hasPolicy := false
	if v != nil {
		m, ok := v.(map[string]any)
		if !ok {
			return e.errorf("grid", "wants a table ([grid]) of axes, got %s", sweep.Describe(v))
		}
		var walk func(path string, v any) error
		walk = func(path string, v any) error {
			if sub, ok := v.(map[string]any); ok && !isRange(sub) {
				for _, k := range slices.Sorted(maps.Keys(sub)) {
					if err := walk(join(path, k), sub[k]); err != nil {
						return err
					}
				}
				return nil
			}
			ax, err := e.axis(path, v, policies)
			if err != nil {
				return err
			}
			hasPolicy = hasPolicy || ax.Name == "policy"
			axes = append(axes, ax)
			return nil
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if err := walk(k, m[k]); err != nil {
				return err
			}
		}
		sort.SliceStable(axes, func(i, j int) bool { return e.before(axes[i].Key, axes[j].Key) })
	}
	if len(policies) > 0 && !hasPolicy {
		axes = append([]sweep.Axis{sweep.SetAxis("policy", "policy", policies)}, axes...)
	}
	e.Grid.Axes = axes
	return nil
}

// isRange reports whether a grid table is a {from, to, step} range.
func isRange(m map[string]any) bool {
	_, ok := m["from"]
	return ok
}

// axis reads one grid axis: a list, a single value or a range of one
// scenario key, a list of named sets, or a choice of the policies.
func (e *Experiment) axis(name string, v any, policies []sweep.Set) (sweep.Axis, error) {
	key := "grid." + name
	ax := sweep.Axis{Name: name, Key: key}
	if name == "policy" {
		if len(policies) == 0 {
			return ax, e.errorf(key, "there are no [[policy]] entries to choose from")
		}
		all := sweep.SetAxis("policy", "policy", policies)
		var chosen []sweep.Set
		for _, x := range listOf(v) {
			s, ok := x.(string)
			set, found := all.Set(s)
			if !ok || !found {
				return ax, e.errorf(key, "%s is not a policy; the [[policy]] names are %s", sweep.Describe(x), setNames(&all))
			}
			chosen = append(chosen, *set)
		}
		return sweep.SetAxis(name, key, chosen), nil
	}
	if items, ok := v.([]map[string]any); ok {
		sets, err := e.namedSets(key, items)
		if err != nil {
			return ax, err
		}
		return sweep.SetAxis(name, key, sets), nil
	}
	ax.Path = resolve(name)
	duration, err := sweep.IsDuration(ax.Path)
	if err != nil {
		return ax, e.errorf(key, "%v", err)
	}
	ax.Duration = duration
	var raws []any
	if m, ok := v.(map[string]any); ok {
		if raws, err = expandRange(m, duration, e.MaxCells); err != nil {
			return ax, e.errorf(key, "%v", err)
		}
	} else {
		raws = listOf(v)
	}
	if len(raws) == 0 {
		return ax, e.errorf(key, "an axis needs at least one value")
	}
	for _, r := range raws {
		val, err := sweep.NewValue(r, duration)
		if err != nil {
			return ax, e.errorf(key, "%v", err)
		}
		ax.Values = append(ax.Values, val)
	}
	return ax, nil
}

// listOf is a value written as a list, or a single value as a list of one.
func listOf(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case []map[string]any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = x[i]
		}
		return out
	}
	return []any{v}
}

// expandRange turns {from, to, step} into its values, from and to included.
func expandRange(m map[string]any, durations bool, limit int) ([]any, error) {
	for k := range m {
		if k != "from" && k != "to" && k != "step" {
			return nil, fmt.Errorf("a range takes from, to and step; %q is not one of them", k)
		}
	}
	num := func(k string) (float64, error) {
		v, ok := m[k]
		if !ok {
			return 0, fmt.Errorf("a range needs %s", k)
		}
		switch x := v.(type) {
		case int64, float64:
			f := sweep.Float(x)
			if durations {
				if _, err := model.DurationOf(f); err != nil { // seconds
					return 0, fmt.Errorf("%s: %v", k, err)
				}
			}
			return f, nil
		case string:
			d, err := model.ParseDuration(x)
			if err != nil {
				return 0, fmt.Errorf("%s: %v", k, err)
			}
			if !durations {
				return 0, fmt.Errorf("%s: this key wants numbers, got %q", k, x)
			}
			return d.Seconds(), nil
		}
		return 0, fmt.Errorf("%s wants a number or a duration, got %s", k, sweep.Describe(v))
	}
	from, err := num("from")
	if err != nil {
		return nil, err
	}
	to, err := num("to")
	if err != nil {
		return nil, err
	}
	step, err := num("step")
	if err != nil {
		return nil, err
	}
	if !(step > 0) {
		return nil, fmt.Errorf("step must be > 0, got %v", step)
	}
	if to < from {
		return nil, fmt.Errorf("to (%v) is below from (%v)", to, from)
	}
	n := math.Floor((to-from)/step+1e-9) + 1
	if n > float64(limit) {
		return nil, fmt.Errorf("from %v to %v by %v is %.0f values, more than max_cells = %d", from, to, step, n, limit)
	}
	ints := !durations && isInt(m["from"]) && isInt(m["step"])
	out := make([]any, 0, int(n))
	for i := 0; i < int(n); i++ {
		x := from + float64(i)*step
		switch {
		case durations:
			out = append(out, model.Seconds(x).String())
		case ints:
			out = append(out, int64(math.Round(x)))
		default:
			out = append(out, roundDigits(x, 9))
		}
	}
	return out, nil
}

func isInt(v any) bool { _, ok := v.(int64); return ok }

func roundDigits(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}
