package serve

import "github.com/stormlab/stormlab/model"

// status is what the page says of one row of the run, beside the health
// rule's verdict.
type status string

const (
	// healthy: the health rule held (the experiment's own rule: the queue
	// within capacity × timeout, or goodput within its share).
	healthy status = "healthy"
	// overloaded: unhealthy while something pushes the system past what
	// it can do: a fault during the row, or more new requests than its
	// capacity.
	overloaded status = "overloaded"
	// recovering: unhealthy with nothing pushing, and answering at least
	// the new demand with successes, so the backlog drains.
	recovering status = "recovering"
	// metastable: unhealthy with no fault and demand below capacity, and
	// answering less than the demand: held down by its own retries after
	// the trigger is gone.
	metastable status = "metastable"
)

// judge says what row r of a run was: step is the row's span in seconds,
// faulted tells whether a fault touched it.
func judge(r *model.SeriesRow, step float64, faulted bool) status {
	switch {
	case !r.Unhealthy:
		return healthy
	case faulted || r.Requests > r.Capacity*step:
		return overloaded
	case r.Successes >= r.Requests:
		return recovering
	}
	return metastable
}
