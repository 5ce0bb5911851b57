package tipping

import (
	"context"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// evaluator runs cells, at most cap(slots) at once over every search.
type evaluator struct {
	ctx       context.Context
	slots     chan struct{}
	maxMemory int64
}

// run runs one cell, with its per-second series when series is set.
func (ev *evaluator) run(c *sweep.Cell, series bool) (model.Result, error) {
	select {
	case ev.slots <- struct{}{}:
	case <-ev.ctx.Done():
		return model.Result{}, ev.ctx.Err()
	}
	defer func() { <-ev.slots }()
	return model.RunPlan(ev.ctx, c.Plan, c.Seed, model.Options{MaxMemory: ev.maxMemory, Series: series})
}
