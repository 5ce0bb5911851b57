package pipeline

import (
	"fmt"
	"time"

	"github.com/stormlab/stormlab/experiments/tipping"
	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/plots"
	"github.com/stormlab/stormlab/reports"
)

// Outcome is what a job came to: its cells' results (Results[i] is
// Job.Cells[i]'s), with -refine theirs at half the tick, and its boundary
// searches.
type Outcome struct {
	Job     *Job
	Results []model.Result
	Half    []model.Result   // nil without -refine
	Tipping *tipping.Outcome // nil without [tipping], and for a shard
	Start   time.Time        // when the job began
}

// Aborted counts the cell runs and searches stopped at the memory cap,
// which make the report partial: those of the shards too, for a merge.
func (o *Outcome) Aborted() int {
	return reports.CountAborted(o.Results) + reports.CountAborted(o.Half) + abortedSearches(o.Tipping)
}

// abortedHere counts those stopped in this process, under its budget: for
// a merge, only its searches.
func (o *Outcome) abortedHere() int {
	if o.Job.Merged != nil {
		return abortedSearches(o.Tipping)
	}
	return o.Aborted()
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

// elapsed is the seconds since the job began.
func (o *Outcome) elapsed() float64 { return time.Since(o.Start).Seconds() }

// flips says, for a run with -refine, how many verdicts change at half the
// tick.
func (o *Outcome) flips() string {
	if o.Half == nil {
		return ""
	}
	return fmt.Sprintf(", %d of %d verdicts change at half the tick", reports.TickFlips(o.Results, o.Half), len(o.Results))
}

// searched is the run's summary of the searches: ", 16 tipping searches
// in 207 evaluations (uniform grids of the same resolution: 11,357)";
// empty without.
func (o *Outcome) searched() string {
	if o.Tipping == nil {
		return ""
	}
	searched, grid := o.Tipping.Evaluations()
	return fmt.Sprintf(", %d tipping searches in %s evaluations (uniform grids of the same resolution: %s)",
		o.Tipping.Count(), plots.Number(float64(searched)), plots.Number(float64(grid)))
}

// abortedText says how many cells were stopped at the memory cap.
func abortedText(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d stopped at the memory cap", n)
}

// AbortedError is a run in which cells were stopped at the memory cap: the
// reports are written, with those cells' rows marked, and the exit code is
// 1.
type AbortedError struct{ Cells int }

func (e *AbortedError) Error() string {
	return fmt.Sprintf("%d cell run%s stopped at the memory cap (the aborted column of results.csv says where); raise -max-memory or make the cells smaller", e.Cells, plural(e.Cells))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
