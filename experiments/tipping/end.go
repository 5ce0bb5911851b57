package tipping

import "github.com/stormlab/stormlab/model"

// End is the state a tipping point leaves the system in when the run ends:
// stuck (metastable: the backlog no longer shrinks) or still draining,
// slower than the run is long, so that a longer run would see it recover.
// It is the model's verdict of the run (model.Verdict), not a rule of its
// own.
type End struct {
	Draining bool    // the verdict is draining
	Queue    float64 // the backlog when the run ends (model.Metrics.EndBacklog)
	Rate     float64 // calls a second the backlog fell by at the end of the run; NaN unless draining
	// Left is, for a draining backlog, the seconds after the run's end until
	// it is within the healthy limit at that rate; NaN otherwise.
	Left float64
}

// endOf reads the end state from a run's verdict.
func endOf(r *model.Result) End {
	return End{Draining: r.Verdict == model.Draining, Queue: r.EndBacklog, Rate: r.DrainRate, Left: r.DrainLeftS}
}
