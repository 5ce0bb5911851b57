package experiments

import (
	"maps"
	"slices"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// toleranceTable is one column's entry of [tolerance] as a file writes it.
type toleranceTable struct {
	Abs absTolerance `toml:"abs"`
	Rel relTolerance `toml:"rel"`
}

// absTolerance is how far a number may move, in the column's unit: up to
// any count a run makes.
type absTolerance float64

func (absTolerance) bounds() model.KeyRange {
	return model.KeyRange{Range: model.Range{Min: 0, Max: model.MaxCalls}}
}

func (a *absTolerance) UnmarshalTOML(v any) error {
	x, err := readNumber(v, a.bounds())
	*a = absTolerance(x)
	return err
}

// relTolerance is how far a number may move as a share of its baseline.
type relTolerance float64

func (relTolerance) bounds() model.KeyRange {
	return model.KeyRange{Range: model.Range{Min: 0, Max: 1000}}
}

func (r *relTolerance) UnmarshalTOML(v any) error {
	x, err := readNumber(v, r.bounds())
	*r = relTolerance(x)
	return err
}

// readTolerance reads [tolerance]: per results.csv column, { abs, rel }.
func (e *Experiment) readTolerance(v any) error {
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return e.errorf("tolerance", "wants a table of column = { abs = ..., rel = ... }, got %s", sweep.Describe(v))
	}
	e.Tolerance = map[string]spec.Tolerance{}
	for _, col := range slices.Sorted(maps.Keys(m)) {
		key := "tolerance." + col
		if _, ok := e.Grid.Metric(col); !ok {
			return e.errorf(key, "is not a results.csv column%s; use one of %s", sweep.DidYouMean(col, e.Grid.ColumnNames()), strings.Join(e.Grid.ColumnNames(), ", "))
		}
		t, ok := m[col].(map[string]any)
		if !ok {
			return e.errorf(key, "wants { abs = ..., rel = ... }, got %s", sweep.Describe(m[col]))
		}
		var tol toleranceTable
		if err := e.decodeTable(key, "a tolerance", t, &tol); err != nil {
			return err
		}
		e.Tolerance[col] = spec.Tolerance{Abs: float64(tol.Abs), Rel: float64(tol.Rel)}
	}
	return nil
}
