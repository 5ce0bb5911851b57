package main

import (
	"context"
	"fmt"
	"io"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/experiments/tipping"
	"github.com/stormlab/stormlab/plots"
)

// searchTipping runs the experiment's boundary searches ([tipping]), with
// a progress bar of the searches done; nil when it has none.
func searchTipping(ctx context.Context, stderr io.Writer, e *experiments.Experiment, opt sweep.Options) (*tipping.Outcome, error) {
	if len(e.Tipping) == 0 {
		return nil, nil
	}
	name := e.Name + " tipping points"
	p := startProgress(stderr, name, tipping.Count(e.Grid, e.Tipping))
	o, err := tipping.Run(ctx, e.Grid, e.Tipping, tipping.Options{Workers: opt.Workers, MaxMemory: opt.MaxMemory, Done: p.done})
	p.stop()
	if err != nil && ctx.Err() == nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return o, err
}

// searchedText is the run's summary of the searches: ", 16 tipping
// searches in 207 evaluations (a uniform grid: 11,357)"; empty without.
func searchedText(o *tipping.Outcome) string {
	if o == nil {
		return ""
	}
	searched, grid := o.Evaluations()
	return fmt.Sprintf(", %d tipping searches in %s evaluations (uniform grids of the same resolution: %s)",
		o.Count(), plots.Number(float64(searched)), plots.Number(float64(grid)))
}

// abortedSearches counts the searches stopped because a cell they ran
// reached the memory cap; 0 without searches.
func abortedSearches(o *tipping.Outcome) int {
	if o == nil {
		return 0
	}
	n := 0
	for _, ss := range o.Searches {
		for i := range ss {
			if ss[i].Status == tipping.Aborted {
				n++
			}
		}
	}
	return n
}
