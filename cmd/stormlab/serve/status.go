package serve

import "github.com/stormlab/stormlab/model"

// status is what the page says of one row of the run, beside the health
// rule's verdict.
type status string

const (
	// healthy: the health rule held (the experiment's own rule: the queue
	// within capacity × timeout, or goodput within its share).
	healthy status = "healthy"
	// overloaded: more new requests than the dependency can serve (an
	// outage, a degradation, a spike, or a load above capacity), or
	// unhealthy during a fault.
	overloaded status = "overloaded"
	// recovering: unhealthy with nothing pushing, and answering at least
	// the new demand with successes, or sending no retries (demand below
	// capacity and nothing amplifying it): the backlog drains.
	recovering status = "recovering"
	// metastable: unhealthy with no fault and demand below capacity,
	// retrying, and answering less than the demand: held down by its own
	// retries after the trigger is gone.
	metastable status = "metastable"
	// idle: no new request and none in flight: nothing for a health rule
	// to judge (after a burst, say), so neither healthy nor anything else.
	idle status = "idle"
)

// judge says what row r of a run was: step is the row's span in seconds,
// faulted tells whether a fault touched it. A row with more new requests
// than the dependency could serve (an outage, a degradation, a spike, or a
// load above capacity) is overloaded whatever the health rule says of it; a
// row without a request, a call or one in flight is idle. In a service
// graph (one dependency false) the row's capacity is one server's of
// several, so demand is not weighed against it: the status follows the
// users' health and the faults alone.
func judge(r *model.SeriesRow, step float64, faulted, oneDependency bool) status {
	switch {
	case r.Requests == 0 && r.InFlight == 0 && r.Calls == 0:
		return idle
	case oneDependency && r.Requests > r.Capacity*step:
		return overloaded
	case !r.Unhealthy:
		return healthy
	case faulted:
		return overloaded
	case r.Successes >= r.Requests || r.Retries == 0:
		return recovering
	}
	return metastable
}
