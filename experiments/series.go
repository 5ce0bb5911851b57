package experiments

import (
	"fmt"

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
	// The same values a figure's only takes: "95s" picks the cell written
	// 1m35s, and a value the axis does not have is an error, not an empty
	// selection.
	only, err := e.figureOnly("series", s.match)
	if err != nil {
		return err
	}
	e.Grid.Series = &sweep.Selector{Only: only}
	return nil
}
