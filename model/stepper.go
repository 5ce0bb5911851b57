package model

import (
	"context"
	"errors"
	"fmt"
)

// Stepper runs one seeded replicate of a plan a few rows of its series at
// a time, and takes changes to the plan between them: the live explorer
// (stormlab serve) streams a run so, and applies what its reader does at
// the moment the run has reached, at the cost of the run from there on.
//
// The rows are those RunPlan records for the same plan and seed, however
// the run is cut: the engines advance to the end of a row and go on from
// there exactly as a run that never stopped (stochastic_advance.go,
// queue_advance.go). A plan given to Replan at row r that differs from
// the one in force only from row r on — changes and unforeseen faults
// added there (unforeseen.go) — continues the run as RunPlan runs the new
// plan from its start: the rows before r are the same, and so are the
// engine's states.
type Stepper struct {
	p   *Plan
	eng stepEngine
	bin int64 // ticks in a row
	max int64 // bytes of state the run may hold; 0 = no cap
	// rows is the rows handed out: the run has run rows × bin ticks.
	rows int
	err  error // why the run cannot go on
}

// stepEngine is an engine run by a Stepper.
type stepEngine interface {
	advance(end int64) bool
	replan(np *Plan, next int64)
	setGuard(g *guard)
	recorder() *recorder
	release()
}

// NewStepper starts replicate 0 of p with seed (as RunPlan seeds it),
// recording its series; its state may hold up to maxMemory bytes (0: no
// cap), as model.Options.MaxMemory.
func NewStepper(p *Plan, seed uint64, maxMemory int64) *Stepper {
	st := &Stepper{p: p, bin: p.seriesBinTicks(), max: maxMemory}
	if p.Engine == EngineStochastic {
		s := newStoch(p, seed, true)
		s.begin()
		st.eng = s
	} else {
		st.eng = newQueueSim(p, seed, true)
	}
	return st
}

// Rows is the rows of the series run so far.
func (st *Stepper) Rows() int { return st.rows }

// MaxRows is the rows the plan runs to.
func (st *Stepper) MaxRows() int { return int(st.p.Ticks / st.bin) }

// ErrStopped is the error of a Stepper whose run was stopped part way
// through a row: by its context, or by its memory cap. It cannot go on.
var ErrStopped = errors.New("the run was stopped part way through a row and cannot go on")

// Advance runs the next n rows (fewer at the plan's end) and returns them.
// A run that ctx cancels, or that outgrows its memory cap, stops within
// the row: the error says why, and the Stepper runs no more.
func (st *Stepper) Advance(ctx context.Context, n int) ([]SeriesRow, error) {
	if st.err != nil {
		return nil, st.err
	}
	end := min(int64(st.rows+max(n, 0)), int64(st.MaxRows())) * st.bin
	g := newGuard(ctx, st.max)
	st.eng.setGuard(g)
	ok := st.eng.advance(end)
	st.eng.setGuard(nil)
	if !ok {
		switch {
		case g.abort != "":
			st.err = fmt.Errorf("%w: %s", ErrStopped, g.abort)
		case ctx.Err() != nil:
			st.err = fmt.Errorf("%w: %w", ErrStopped, ctx.Err())
		default:
			st.err = ErrStopped
		}
		st.eng.release()
		return nil, st.err
	}
	rows := st.eng.recorder().s.Rows
	out := append([]SeriesRow(nil), rows[st.rows:]...)
	st.rows = len(rows)
	return out, nil
}

// Services is each service's rows of a graph's run (as Series.Services
// holds them), by row, for the rows from row from to those run so far:
// Services(from)[r][i] is service i's row from+r, the services in the
// order of GraphPlan.Services. A chain's run has none (nil).
func (st *Stepper) Services(from int) [][]ServiceRow {
	s, ok := st.eng.(*stoch)
	if !ok || s.graph == nil || s.graph.health.series == nil {
		return nil
	}
	out := s.graph.health.series.out
	rows := make([][]ServiceRow, 0, max(st.rows-from, 0))
	for r := from; r < st.rows; r++ {
		row := make([]ServiceRow, len(out))
		for i := range out {
			row[i] = out[i].Rows[r]
		}
		rows = append(rows, row)
	}
	return rows
}

// Replan makes the run follow np from the next row on. np must be the
// plan in force with only changes and unforeseen faults added from that
// row on: the same engine, tick and length, and the same switches before
// it; otherwise the run is not the one np runs, and Replan refuses it.
func (st *Stepper) Replan(np *Plan) error {
	if st.err != nil {
		return st.err
	}
	next := int64(st.rows) * st.bin
	if np.Engine != st.p.Engine || np.TickNs != st.p.TickNs || np.Ticks != st.p.Ticks {
		return errors.New("replan: the new plan has another engine, tick or length")
	}
	before := func(p *Plan) []int64 {
		var out []int64
		for _, c := range p.timeline() {
			if c.At < next {
				out = append(out, c.At)
			}
		}
		return out
	}
	if a, b := before(st.p), before(np); fmt.Sprint(a) != fmt.Sprint(b) {
		return fmt.Errorf("replan: the new plan switches at ticks %v before tick %d, the run did at %v", b, next, a)
	}
	st.eng.replan(np, next)
	st.p = np
	return nil
}

// Close lets the run's resources go; the Stepper runs no more.
func (st *Stepper) Close() {
	if st.err == nil {
		st.err = ErrStopped
		st.eng.release()
	}
}
