package sweep

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/stormlab/stormlab/model"
)

// Options say how Run simulates the cells.
type Options struct {
	// Workers is how many cells run at once (at least one).
	Workers int
	// MaxMemory caps the bytes of live simulation state one cell may hold
	// (model.Options.MaxMemory); 0 = no cap. A cell that reaches it comes
	// back with Result.Aborted set and the others go on.
	MaxMemory int64
	// Done, if not nil, is called after each cell, from the workers: it
	// must be safe for concurrent use.
	Done func()
}

// Run simulates the cells on up to opt.Workers goroutines and returns their
// results in the cells' order: each worker writes its cell's result at the
// cell's position, so the numbers never depend on the workers. Cancelling
// ctx stops every cell under way within a tick of simulated time, and Run
// returns ctx.Err().
func Run(parent context.Context, cells []Cell, opt Options) ([]model.Result, error) {
	results := make([]model.Result, len(cells))
	g, ctx := errgroup.WithContext(parent)
	g.SetLimit(max(1, opt.Workers))
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
			r, err := model.RunPlan(ctx, c.Plan, c.Seed, model.Options{Series: c.Series, MaxMemory: opt.MaxMemory, Windows: c.Windows})
			if err != nil {
				return fmt.Errorf("cell %s: %w", c.Label(), err)
			}
			results[i] = r
			if opt.Done != nil {
				opt.Done()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		if perr := parent.Err(); perr != nil {
			return nil, perr
		}
		return nil, err
	}
	if err := parent.Err(); err != nil {
		return nil, err
	}
	return results, nil
}
