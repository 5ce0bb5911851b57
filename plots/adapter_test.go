package plots

import (
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// tableOf is the table of the given cells and their results (a result per
// cell, in order) over the grid's axes, as the adapter builds it for a
// figure that draws them.
func tableOf(g *sweep.Grid, cells []sweep.Cell, results []model.Result) *Table {
	t := &Table{Axes: axesOf(g, &cells[0]), Columns: g.Metrics()}
	t.Rows = rowsOf(cells, results)
	return t
}

// rowsOf are the rows of cells and their results; no results: empty ones.
func rowsOf(cells []sweep.Cell, results []model.Result) []Row {
	out := make([]Row, len(cells))
	for i := range cells {
		r := model.Result{}
		if results != nil {
			r = results[i]
		}
		out[i] = rowOf(&cells[i], &r)
	}
	return out
}
