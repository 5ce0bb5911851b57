package experiments

import (
	"fmt"

	"github.com/stormlab/stormlab/experiments/sweep"
)

// readCells reads the [[cell]] entries: single cells run after the grid's
// product, each giving a value for every axis. For an axis of named sets
// the value is a set's name, or a table { name = ..., keys... } that
// defines a set for this cell alone.
func (e *Experiment) readCells(v any) error {
	items, err := e.tablesAt("cell", v, "[[cell]] entries, each with a value for every grid axis")
	if err != nil || items == nil {
		return err
	}
	g := e.Grid
	if n := len(g.Cells()); n+len(items) > e.MaxCells {
		return e.errorf("cell", "%d grid cells and %d [[cell]] entries are more than max_cells = %d", n, len(items), e.MaxCells)
	}
	for i, m := range items {
		key := fmt.Sprintf("cell.%d", i)
		for k := range m {
			if _, ok := g.Axis(k); !ok {
				return e.errorf(key+"."+k, "is not a grid axis; the axes are %s", e.Grid.AxisList())
			}
		}
		vals := make([]sweep.Value, len(g.Axes))
		texts := make([]string, len(g.Axes))
		var params []sweep.Param
		own := map[string]sweep.Set{}
		for a := range g.Axes {
			ax := &g.Axes[a]
			raw, ok := m[ax.Name]
			k := key + "." + ax.Name
			if !ok {
				return e.errorf(key, "a [[cell]] needs a value for every grid axis; %s is missing", ax.Name)
			}
			if ax.Named() {
				if t, ok := raw.(map[string]any); ok {
					s, err := e.namedSet(k, t)
					if err != nil {
						return err
					}
					own[ax.Name] = s
					vals[a] = sweep.Value{Text: s.Name, Raw: s.Name}
				} else if name, ok := raw.(string); ok && hasSet(ax, name) {
					vals[a] = sweep.Value{Text: name, Raw: name}
				} else {
					return e.errorf(k, "%s is not one of %s, nor a table { name = ..., keys... }", sweep.Describe(raw), setNames(ax))
				}
			} else {
				val, err := sweep.NewValue(raw, ax.Duration)
				if err != nil {
					return e.errorf(k, "%v", err)
				}
				vals[a] = val
			}
			texts[a] = vals[a].Text
			params = append(params, sweep.Param{Axis: ax.Name, Value: vals[a]})
		}
		if _, dup := g.Find(texts); dup {
			c := sweep.Cell{Params: params}
			return e.errorf(key, "cell %s is already in the grid", c.Label())
		}
		if _, err := g.Add(vals, own); err != nil {
			return e.cellError(err)
		}
	}
	return nil
}

func hasSet(ax *sweep.Axis, name string) bool {
	_, ok := ax.Set(name)
	return ok
}
