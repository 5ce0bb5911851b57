package tipping

import (
	"context"
	"fmt"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"golang.org/x/sync/errgroup"
)

// Options say how Run simulates the points.
type Options struct {
	// Workers is how many cells run at once (at least one).
	Workers int
	// MaxMemory caps the live state of one cell (model.Options.MaxMemory);
	// 0 = no cap. A point stopped at the cap stops its search.
	MaxMemory int64
	// Done, if not nil, is called after each search, from the workers: it
	// must be safe for concurrent use.
	Done func()
}

// Run runs every search of specs over the grid's product: for each spec,
// one search per combination of values of the axes other than its key, the
// first grid cell with those values its base. Searches run side by side on
// up to opt.Workers cells at once; each runs its own points in a fixed
// order, so the outcome never depends on the workers. Cancelling ctx stops
// every cell under way, and Run returns ctx.Err().
func Run(parent context.Context, g *sweep.Grid, specs []spec.Tipping, opt Options) (*Outcome, error) {
	out := &Outcome{Specs: specs, Searches: make([][]Search, len(specs))}
	eg, ctx := errgroup.WithContext(parent)
	ev := &evaluator{ctx: ctx, slots: make(chan struct{}, max(1, opt.Workers)), maxMemory: opt.MaxMemory}
	for k := range specs {
		t := &out.Specs[k]
		s, err := newSearcher(g, t)
		if err != nil {
			return nil, err
		}
		groups := s.groups()
		out.Searches[k] = make([]Search, len(groups))
		for i, c := range groups {
			eg.Go(func() error {
				r, err := s.search(ev, c)
				if err != nil {
					return fmt.Errorf("tipping search over %s, %s: %w", t.Key, (&Search{Params: s.others(c)}).Label(), err)
				}
				out.Searches[k][i] = r
				if opt.Done != nil {
					opt.Done()
				}
				return nil
			})
		}
	}
	if err := eg.Wait(); err != nil {
		if perr := parent.Err(); perr != nil {
			return nil, perr
		}
		return nil, err
	}
	if err := parent.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Count is the number of searches specs make over the grid's product.
func Count(g *sweep.Grid, specs []spec.Tipping) int {
	n := 0
	for k := range specs {
		s, err := newSearcher(g, &specs[k])
		if err == nil {
			n += len(s.groups())
		}
	}
	return n
}
