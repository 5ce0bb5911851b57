package tipping

import (
	"math"

	"github.com/stormlab/stormlab/model"
)

// End is the state a tipping point leaves the system in when the run ends.
// A cell that has not recovered by then is either stuck (metastable: the
// backlog no longer shrinks) or still draining, slower than the run is long:
// a longer run would see it recover. Only a dependency judged by its
// backlog tells them apart.
type End struct {
	Draining bool    // the backlog shrank over the run's last quarter
	Queue    float64 // calls waiting when the run ends
	Rate     float64 // calls a second the backlog shrank by over the last quarter (≤ 0 when stuck)
	// Left is, for a draining backlog, the seconds after the run's end until
	// it is within the healthy limit at that rate; NaN otherwise.
	Left float64
}

// endOf reads the end state from a run's series; nil without one, or when
// health is not judged by the backlog.
func endOf(p *model.Plan, r *model.Result) *End {
	if r.Series == nil || len(r.Series.Rows) < 4 || p.Health.Rule != model.HealthQueue || math.IsNaN(p.Health.Limit) {
		return nil
	}
	rows := r.Series.Rows
	a, b := rows[len(rows)*3/4], rows[len(rows)-1]
	e := &End{Queue: b.Queue, Rate: (a.Queue - b.Queue) / (b.T - a.T), Left: math.NaN()}
	if e.Rate > 0 && b.Queue > p.Health.Limit {
		e.Draining = true
		e.Left = (b.Queue - p.Health.Limit) / e.Rate
	}
	return e
}
