package tipping

import "github.com/stormlab/stormlab/experiments/spec"

// Outcome is every search of an experiment: per spec, one search per
// combination of values of the grid's other axes, in grid order.
type Outcome struct {
	Specs    []spec.Tipping
	Searches [][]Search
}

// Evaluations and GridPoints total the cells the searches ran and those
// uniform grids of the same resolution would run.
func (o *Outcome) Evaluations() (searched, grid int) {
	for _, ss := range o.Searches {
		for i := range ss {
			searched += ss[i].Evaluations
			grid += ss[i].GridPoints
		}
	}
	return searched, grid
}

// Count is the number of searches.
func (o *Outcome) Count() int {
	n := 0
	for _, ss := range o.Searches {
		n += len(ss)
	}
	return n
}
