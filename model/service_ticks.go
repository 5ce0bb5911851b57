package model

import "math"

// ServiceTicks is how long a capacity server takes to answer a call it
// serves in fault segment seg: the service latency, times a slowdown's
// factor, in whole ticks. The stochastic engine and the lab's real
// dependency both answer so.
func (p *Plan) ServiceTicks(seg int) int64 {
	if p.Latency == 0 {
		return 0
	}
	return int64(math.Round(p.Latency * p.Faults[seg].LatFactor * p.TPS))
}
