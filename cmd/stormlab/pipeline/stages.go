package pipeline

import (
	"context"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/experiments/tipping"
	"github.com/stormlab/stormlab/model"
)

// Stages are the stages that compute: simulate (refine is simulate on the
// cells at half the tick) and search, on one worker pool and memory
// budget, each counted on a meter. A Pipeline runs them for the commands;
// stormlab serve runs them for the phase diagram around a point and for a
// chart.
type Stages struct {
	Budget Budget
	// Meter counts the work as it goes; nil counts nothing.
	Meter Meter
}

// meter is the stages' meter, or one that counts nothing.
func (s Stages) meter() Meter {
	if s.Meter == nil {
		return Calls(nil)
	}
	return s.Meter
}

// Simulate runs the cells on the worker pool, each within its share of the
// budget, and returns their results in the cells' order; name labels the
// meter. A cell stopped at its share comes back with Result.Aborted set;
// cancelling ctx stops every cell within a tick of simulated time and
// returns ctx.Err().
func (s Stages) Simulate(ctx context.Context, name string, cells []sweep.Cell) ([]model.Result, error) {
	done, stop := s.meter()(name, len(cells))
	opt := s.Budget.Pool(len(cells))
	opt.Done = done
	results, err := sweep.Run(ctx, cells, opt)
	stop()
	return results, err
}

// Search runs the boundary searches specs over the grid's product, each
// cell within the share of the budget of Workers cells at once; nil when
// there are none. name labels the meter, which counts searches.
func (s Stages) Search(ctx context.Context, name string, g *sweep.Grid, specs []spec.Tipping) (*tipping.Outcome, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	done, stop := s.meter()(name, tipping.Count(g, specs))
	opt := s.Budget.Pool(s.Budget.Workers)
	o, err := tipping.Run(ctx, g, specs, tipping.Options{Workers: opt.Workers, MaxMemory: opt.MaxMemory, Done: done})
	stop()
	return o, err
}
