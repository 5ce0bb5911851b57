package serve

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/model"
)

// maxInterventions caps the faults and changes one run takes: each one
// makes the run's file longer, and the file is read back at every one.
const maxInterventions = 100

// engine is a run's live engine: a model.Stepper over the run's file at
// the longest a run may last, standing at the last row streamed. The
// stream advances it as rows fall due; an intervention replans it at that
// row, so it costs the run from there on, never its past. Its mutex is
// taken before the run's, and held while it advances (a frame's rows at
// most), so an intervention always lands at the row the page has.
type engine struct {
	st *model.Stepper // nil: built again (from the start) when next needed
}

// planOf is the run's file over the longest a run may last, with the
// interventions steps, as the loader reads it (its one cell: the plan its
// engine runs and the seed it runs with), checked to fit what a live run
// may use.
func (s *Server) planOf(tl *live, steps []intervention) (*experiments.Experiment, error) {
	e, err := tl.parse(s.capRows(tl), steps)
	if err != nil {
		return nil, err
	}
	if err := s.fits(e.Grid.Cells()[0].Plan); err != nil {
		return nil, err
	}
	return e, nil
}

// advance runs the next n rows of the run (engMu held, mu not), and in a
// graph's run gives each service's rows too: it builds the engine when
// there is none, running it to the rows already streamed, and stops it at
// the server's deadline on a stretch of simulation or when ctx (the page's
// stream) ends.
func (r *run) advance(ctx context.Context, n int) ([]model.SeriesRow, [][]model.ServiceRow, error) {
	ctx, cancel := context.WithTimeout(ctx, r.srv.opt.SimTimeout)
	defer cancel()
	r.mu.Lock()
	tl, steps, have := r.tl, slices.Clone(r.tl.steps), len(r.sent)
	r.mu.Unlock()
	if r.eng.st == nil {
		e, err := r.srv.planOf(tl, steps)
		if err != nil {
			return nil, nil, err
		}
		c := e.Grid.Cells()[0]
		st := model.NewStepper(c.Plan, c.Seed, r.srv.opt.MaxMemory)
		if have > 0 {
			if _, err := st.Advance(ctx, have); err != nil {
				return nil, nil, r.stopped(ctx, tl, have, err)
			}
		}
		r.eng.st = st
	}
	from := r.eng.st.Rows()
	rows, err := r.eng.st.Advance(ctx, n)
	if err != nil {
		r.eng.st = nil
		return nil, nil, r.stopped(ctx, tl, have+n, err)
	}
	return rows, r.eng.st.Services(from), nil
}

// stopped says why the engine stopped short of row rows: nil when its page
// went (the engine is built again when one comes back), else an error that
// ends the run.
func (r *run) stopped(ctx context.Context, tl *live, rows int, err error) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("simulating this run up to %v took over %v, too long to stream it live; export it and run it with stormlab run", tl.at(rows), r.srv.opt.SimTimeout)
	case ctx.Err() != nil:
		return nil
	}
	return fmt.Errorf("the run outgrew the memory a live run may use: %w", err)
}

// replanLocked makes the engine follow the run's file with the
// interventions steps, from the row streamed on (engMu and mu held).
func (r *run) replanLocked(p *model.Plan) {
	if r.eng.st == nil {
		return
	}
	if len(r.sent) == 0 || r.eng.st.Rows() != len(r.sent) || r.eng.st.Replan(p) != nil {
		// Before the first row the run has not begun: begin it again.
		r.eng.st.Close()
		r.eng.st = nil
	}
}

// dropEngineLocked lets the engine go (engMu held).
func (r *run) dropEngineLocked() {
	if r.eng.st != nil {
		r.eng.st.Close()
		r.eng.st = nil
	}
}
