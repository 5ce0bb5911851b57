package experiments

import (
	"fmt"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// labTable is [lab] as a file writes it.
type labTable struct {
	Speed   labSpeed `toml:"speed"`
	Only    any      `toml:"only"`
	Columns any      `toml:"columns"`
}

// labColumnTable is one entry of [lab] columns.
type labColumnTable struct {
	Name string       `toml:"name"`
	Abs  absTolerance `toml:"abs"`
	Rel  relTolerance `toml:"rel"`
	Why  text         `toml:"why"`
}

// labSpeed is how many times faster than the scenario the lab runs.
type labSpeed float64

func (labSpeed) bounds() model.KeyRange {
	return model.KeyRange{Range: model.Range{Min: 0.01, Max: 1000}}
}

func (s *labSpeed) UnmarshalTOML(v any) error {
	x, err := readNumber(v, s.bounds())
	*s = labSpeed(x)
	return err
}

// readLab reads [lab]: the speed, the cells (only: a table as a figure's,
// or a list of them, a cell running when one holds it), and the
// compared columns, each { name, abs, rel, why }; a column is a results.csv
// column, and its reason is required.
func (e *Experiment) readLab(v any) error {
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return e.errorf("lab", "wants a table with speed, only and columns, got %s", sweep.Describe(v))
	}
	t := labTable{Speed: 1}
	if err := e.decodeTable("lab", "[lab]", m, &t); err != nil {
		return err
	}
	lab := &spec.Lab{Speed: float64(t.Speed)}
	tables := []any{t.Only}
	if list, ok := t.Only.([]any); ok {
		tables = list
	} else if list, ok := t.Only.([]map[string]any); ok {
		tables = nil
		for _, x := range list {
			tables = append(tables, x)
		}
	}
	for i, x := range tables {
		if x == nil {
			continue
		}
		key := "lab.only"
		if len(tables) > 1 {
			key = fmt.Sprintf("lab.only.%d", i)
		}
		only, err := e.figureOnly(key, x)
		if err != nil {
			return err
		}
		lab.Only = append(lab.Only, only)
	}
	if t.Columns == nil {
		return e.errorf("lab.columns", "is required: a list of { name = \"column\", abs = ..., rel = ..., why = \"...\" }, the results.csv columns the lab compares with the model's")
	}
	cols, ok := t.Columns.([]map[string]any)
	if !ok {
		if list, isList := t.Columns.([]any); isList {
			for _, x := range list {
				if c, isTable := x.(map[string]any); isTable {
					cols = append(cols, c)
				}
			}
			ok = len(cols) == len(list)
		}
	}
	if !ok || len(cols) == 0 {
		return e.errorf("lab.columns", "wants a list of { name = \"column\", abs = ..., rel = ..., why = \"...\" }, got %s", sweep.Describe(t.Columns))
	}
	for i, c := range cols {
		key := fmt.Sprintf("lab.columns.%d", i)
		var ct labColumnTable
		if err := e.decodeTable(key, "a lab column", c, &ct); err != nil {
			return err
		}
		if _, ok := e.Grid.Metric(ct.Name); !ok {
			return e.errorf(key+".name", "%q is not a results.csv column%s; use one of %s", ct.Name, sweep.DidYouMean(ct.Name, e.Grid.ColumnNames()), strings.Join(e.Grid.ColumnNames(), ", "))
		}
		if strings.TrimSpace(string(ct.Why)) == "" {
			return e.errorf(key+".why", "says why the lab's %s may differ from the model's by that much; it is required", ct.Name)
		}
		lab.Columns = append(lab.Columns, spec.LabColumn{Name: ct.Name, Tolerance: spec.Tolerance{Abs: float64(ct.Abs), Rel: float64(ct.Rel)}, Why: string(ct.Why)})
	}
	e.Lab = lab
	return nil
}
