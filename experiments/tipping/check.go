package tipping

import (
	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
)

// EndError is a search whose range cannot be run: the cell at one of its
// ends (or the run without a fault) fails to build.
type EndError struct {
	End  string // "from" or "to"
	Cell string // the grid cell the search starts from
	Err  error  // from the grid (a *sweep.CellError)
}

func (e *EndError) Error() string { return e.Err.Error() }

func (e *EndError) Unwrap() error { return e.Err }

// Check builds, for every search of t over the grid's product, the cells at
// both ends of its range and the run without a fault, so that a range the
// model refuses is bad input before anything runs. The points between the
// ends set the same key to values between theirs.
func Check(g *sweep.Grid, t *spec.Tipping) error {
	s, err := newSearcher(g, t)
	if err != nil {
		return err
	}
	for _, c := range s.groups() {
		for _, end := range []struct {
			name string
			i    int
		}{{"from", 0}, {"to", s.l.n - 1}} {
			if _, err := s.point(c, end.i); err != nil {
				return &EndError{End: end.name, Cell: c.Label(), Err: err}
			}
		}
		if t.Trigger() {
			if _, err := s.noFault(c); err != nil {
				return &EndError{End: "from", Cell: c.Label(), Err: err}
			}
		}
	}
	return nil
}
