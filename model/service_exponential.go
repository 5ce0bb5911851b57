package model

import "math"

// exponentialService is a memoryless service time of mean latency: the M
// of M/M/1 and M/M/c.
type exponentialService struct{ mu float64 }

func exponentialServiceKind() serviceKind {
	return serviceKind{Kind: Kind{Name: "exponential", Doc: "an exponential time, dependency.latency on average", Engines: OnStochastic},
		make: func(_ any, latency float64) serviceLaw { return exponentialService{latency} }}
}

func (e exponentialService) survival(x float64) float64 {
	if x <= 0 {
		return 1
	}
	return math.Exp(-x / e.mu)
}

func (e exponentialService) upper(s float64) float64 { return -e.mu * math.Log(s) }
func (e exponentialService) mean() float64           { return e.mu }
