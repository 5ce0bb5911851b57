package serve

import "github.com/stormlab/stormlab/model"

// row is one row of the series as the page gets it: the counts of
// series.csv over the row's span and the status.
type row struct {
	T         float64 `json:"t"`         // start, seconds
	Requests  float64 `json:"requests"`  // new user requests
	Calls     float64 `json:"calls"`     // attempts that reached the dependency: the offered load
	Retries   float64 `json:"retries"`   // of those, retries
	Successes float64 `json:"successes"` // user requests answered with a success: the goodput
	Failures  float64 `json:"failures"`  // user requests answered with an error
	Refused   float64 `json:"refused"`   // retries a policy refused
	Queue     float64 `json:"queue"`     // calls waiting at the dependency at the end
	InFlight  float64 `json:"in_flight"` // user requests without an answer at the end
	Capacity  float64 `json:"capacity"`  // the dependency's capacity per second
	Healthy   bool    `json:"healthy"`   // the health rule held
	Status    status  `json:"status"`
	// Services are each service's numbers in a graph's run, in the order
	// of the state's graph.services; none for a chain. Calls and Queue
	// above then sum every server's.
	Services []svcRow `json:"services,omitempty"`
}

// rowsOf turns rows from..to of a series into the page's rows, with each
// service's numbers from svc (none: a chain's rows).
func rowsOf(rows []model.SeriesRow, svc serviceSeries, from int, step float64, faults [][2]float64) []row {
	out := make([]row, 0, len(rows)-from)
	for i := from; i < len(rows); i++ {
		r := &rows[i]
		faulted := false
		for _, f := range faults {
			faulted = faulted || f[0] < r.T+step && f[1] > r.T
		}
		out = append(out, row{T: r.T, Requests: r.Requests, Calls: r.Calls, Retries: r.Retries, Successes: r.Successes,
			Failures: r.Failures, Refused: r.Refused, Queue: r.Queue, InFlight: r.InFlight, Capacity: r.Capacity,
			Healthy: !r.Unhealthy, Status: judge(r, step, faulted, svc == nil), Services: svc.at(i)})
	}
	return out
}
