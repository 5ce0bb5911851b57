package experiments

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
)

// figureTable is one [[figure]] entry as a file writes it.
type figureTable struct {
	Kind        text `toml:"kind"`
	Name        text `toml:"name"`
	Title       text `toml:"title"`
	X           text `toml:"x"`
	Y           text `toml:"y"`
	Panel       text `toml:"panel"`
	Line        text `toml:"line"`
	Metric      text `toml:"metric"`
	RuleOfThumb flag `toml:"rule_of_thumb"`
	Band        flag `toml:"band"`
	Range       any  `toml:"range"` // axis = [min, max]
	Only        any  `toml:"only"`  // axis = value or [values]
}

// readFigures reads the [[figure]] entries. What each kind of figure needs
// of its keys is the figures' own business: CheckFigures asks them.
func (e *Experiment) readFigures(v any) error {
	items, err := e.tablesAt("figure", v, "[[figure]] entries")
	if err != nil {
		return err
	}
	for i, m := range items {
		key := fmt.Sprintf("figure.%d", i)
		t := figureTable{Metric: "recovery_s"}
		if err := e.decodeTable(key, "a [[figure]]", m, &t); err != nil {
			return err
		}
		f := spec.Figure{
			Kind: string(t.Kind), Name: string(t.Name), Title: string(t.Title),
			X: string(t.X), Y: string(t.Y), Panel: string(t.Panel), Line: string(t.Line),
			Metric: string(t.Metric), RuleOfThumb: bool(t.RuleOfThumb), Band: bool(t.Band),
		}
		if t.Only != nil {
			if f.Select.Only, err = e.figureOnly(key+".only", t.Only); err != nil {
				return err
			}
		}
		if t.Range != nil {
			if f.Select.Range, err = e.figureRange(key+".range", t.Range); err != nil {
				return err
			}
		}
		e.Figures = append(e.Figures, f)
	}
	return nil
}

// CheckFigures checks the figures with check, which knows what each kind
// needs (plots.Check), and places a *spec.FigureError at the key it names.
func (e *Experiment) CheckFigures(check func([]spec.Figure, *sweep.Grid) error) error {
	err := check(e.Figures, e.Grid)
	if err == nil {
		return nil
	}
	var fe *spec.FigureError
	if errors.As(err, &fe) {
		key := fmt.Sprintf("figure.%d", fe.Figure)
		if fe.Key != "" {
			key += "." + fe.Key
		}
		return e.errorf(key, "%s", fe.Msg)
	}
	return &Error{File: e.File, Msg: err.Error()}
}

// figureOnly reads a figure's only table: axis = value or [values], each a
// value of the axis or of a single cell ([[cell]]) on it.
func (e *Experiment) figureOnly(key string, v any) (map[string][]string, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, e.errorf(key, "wants a table of axis = value or [values], got %s", sweep.Describe(v))
	}
	out := map[string][]string{}
	for _, axis := range slices.Sorted(maps.Keys(m)) {
		ax, ok := e.Grid.Axis(axis)
		if !ok {
			return nil, e.errorf(key+"."+axis, "is not a grid axis; the axes are %s", e.Grid.AxisList())
		}
		values := slices.Clone(ax.Values)
		for _, c := range e.Grid.Cells()[min(e.Grid.Size(), len(e.Grid.Cells())):] { // none before the grid expands
			for _, p := range c.Params {
				if p.Axis == axis {
					values = append(values, p.Value)
				}
			}
		}
		for _, r := range listOf(m[axis]) {
			val, err := sweep.NewValue(r, ax.Duration)
			found := false
			for _, av := range values {
				found = found || err == nil && (av.Text == val.Text || av.IsNum && val.IsNum && av.Num == val.Num)
				if found {
					val = av
					break
				}
			}
			if !found {
				return nil, e.errorf(key+"."+axis, "%s is not a value of axis %s", sweep.Describe(r), axis)
			}
			out[axis] = append(out[axis], val.Text)
		}
	}
	return out, nil
}

// figureRange reads a figure's range table: axis = [min, max], numbers or
// durations.
func (e *Experiment) figureRange(key string, v any) (map[string][2]float64, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, e.errorf(key, "wants a table of axis = [min, max], got %s", sweep.Describe(v))
	}
	out := map[string][2]float64{}
	for _, axis := range slices.Sorted(maps.Keys(m)) {
		k := key + "." + axis
		ax, ok := e.Grid.Axis(axis)
		if !ok || len(ax.Values) == 0 || !ax.Values[0].IsNum {
			return nil, e.errorf(k, "%q is not a numeric grid axis; the axes are %s", axis, e.Grid.AxisList())
		}
		bounds := listOf(m[axis])
		if len(bounds) != 2 {
			return nil, e.errorf(k, "wants [min, max], got %s", sweep.Describe(m[axis]))
		}
		var r [2]float64
		for i, b := range bounds {
			val, err := sweep.NewValue(b, ax.Duration)
			if err != nil || !val.IsNum {
				return nil, e.errorf(k, "wants [min, max] as numbers or durations, got %s", sweep.Describe(b))
			}
			r[i] = val.Num
		}
		if r[1] < r[0] {
			return nil, e.errorf(k, "max %v is below min %v", r[1], r[0])
		}
		out[axis] = r
	}
	return out, nil
}
