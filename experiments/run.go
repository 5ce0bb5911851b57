package experiments

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/stormlab/stormlab/model"
)

// Run simulates every cell of the experiment on up to workers goroutines and
// returns the results in grid order: each worker writes its cell's result at
// the cell's index, so the numbers never depend on workers. done, if not
// nil, is called after each cell (from the workers; it must be safe for
// concurrent use). Cancelling ctx stops the pool after the cells under way.
func Run(parent context.Context, e *Experiment, workers int, done func()) ([]model.Result, error) {
	cells := e.Cells()
	results := make([]model.Result, len(cells))
	g, ctx := errgroup.WithContext(parent)
	g.SetLimit(max(1, workers))
	for i := range cells {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			c := &cells[i]
			r, err := model.Run(c.Scenario, c.Seed, c.Series)
			if err != nil {
				return fmt.Errorf("%s: cell %s: %w", e.Name, c.Label(), err)
			}
			results[i] = r
			if done != nil {
				done()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if err := parent.Err(); err != nil {
		return nil, err
	}
	return results, nil
}
