package serve

import (
	"context"
	"fmt"
	"slices"

	"github.com/stormlab/stormlab/model"
)

// aheadSpan is the seconds simulated ahead of the page, at least.
const aheadSpan = 60.0

// simJob is a stretch of the run to simulate: the timeline as it was at
// version, over rows rows.
type simJob struct {
	tl      *live
	steps   []intervention
	rows    int
	version int
}

// jobLocked is the next stretch to simulate: well ahead of the page, and
// further the longer the run (so a long run is simulated again only a few
// times), up to the cap. nil at the cap.
func (r *run) jobLocked() *simJob {
	have := len(r.sent)
	rows := min(r.capRows(), max(have+int(aheadSpan/r.tl.step), 2*have))
	if rows <= have {
		return nil
	}
	return &simJob{tl: r.tl, steps: slices.Clone(r.tl.steps), rows: rows, version: r.version}
}

// simulate runs a job within the server's caps on time and memory.
func (r *run) simulate(ctx context.Context, j *simJob) ([]model.SeriesRow, error) {
	ctx, cancel := context.WithTimeout(ctx, r.srv.opt.SimTimeout)
	defer cancel()
	rows, err := j.tl.simulate(ctx, j.rows, j.steps, r.srv.opt.MaxMemory)
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		return nil, fmt.Errorf("simulating %v of this run took over %v, too long to stream it live; export it and run it with stormlab run", j.tl.at(j.rows), r.srv.opt.SimTimeout)
	}
	return rows, err
}

// install keeps the rows of a job, unless the timeline changed meanwhile.
// The rows already streamed must come out of it as they were: the engine
// is deterministic and nothing after a moment changes the run before it.
func (r *run) install(j *simJob, rows []model.SeriesRow, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if j.version != r.version || j.tl != r.tl {
		return // a change came meanwhile: simulate again
	}
	if err != nil {
		r.endLocked(err.Error())
		return
	}
	have := len(r.sent)
	if len(rows) < have || !slices.Equal(rows[:have], r.sent) {
		r.pushLocked(event{"problem", "the run simulated again differs before the last change; the export may not match what was shown"})
		have = min(have, len(rows))
	}
	r.ahead, r.aheadFor = rows[have:], j.version
}
