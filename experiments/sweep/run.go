package sweep

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/stormlab/stormlab/model"
)

// Run simulates the cells on up to workers goroutines and returns their
// results in the cells' order: each worker writes its cell's result at the
// cell's position, so the numbers never depend on workers. done, if not
// nil, is called after each cell (from the workers; it must be safe for
// concurrent use). Cancelling ctx stops the pool after the cells under way.
func Run(parent context.Context, cells []Cell, workers int, done func()) ([]model.Result, error) {
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
			if c.Plan == nil {
				return fmt.Errorf("cell %s has no plan: build cells with a Grid", c.Label())
			}
			r, err := model.RunPlan(ctx, c.Plan, c.Seed, model.Options{Series: c.Series})
			if err != nil {
				return fmt.Errorf("cell %s: %w", c.Label(), err)
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
