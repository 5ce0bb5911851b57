package experiments

import (
	"fmt"
	"maps"
	"slices"

	"github.com/stormlab/stormlab/experiments/sweep"
)

// series is the top-level key that picks the cells recording a per-second
// time series: true for all of them, or a table of axis = value(s).
type series struct {
	all   bool
	match map[string]any // axis → value or [values]
}

func (s *series) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case bool:
		s.all = x
	case map[string]any:
		s.match = x
	default:
		return fmt.Errorf("wants true (every cell), or a table of axis = value(s), got %s", sweep.Describe(v))
	}
	return nil
}

// readSeries sets the grid's series selector; every axis it names must be
// one of the grid's.
func (e *Experiment) readSeries(s series) error {
	if s.all {
		e.Grid.Series = &sweep.Selector{}
		return nil
	}
	if len(s.match) == 0 {
		return nil
	}
	only := map[string][]string{}
	for _, k := range slices.Sorted(maps.Keys(s.match)) {
		if _, ok := e.Grid.Axis(k); !ok {
			return e.errorf("series."+k, "is not a grid axis; the axes are %s", e.Grid.AxisList())
		}
		for _, r := range listOf(s.match[k]) {
			val, err := sweep.NewValue(r, false)
			if err != nil {
				return e.errorf("series."+k, "%v", err)
			}
			only[k] = append(only[k], val.Text)
		}
	}
	e.Grid.Series = &sweep.Selector{Only: only}
	return nil
}
