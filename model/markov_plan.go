package model

// MarkovPlan is a scenario resolved for the markov engine: the rates of
// the continuous-time Markov chain of one server with a bounded queue, a
// pool of workers with exponential service, and callers that time out and
// retry through an orbit (markov_chain.go says what each rate is).
type MarkovPlan struct {
	Arrival float64 // λ: new requests per second, Poisson (load)
	Service float64 // μ: calls per second one worker serves (capacity / workers)
	Workers int     // c: calls served at once
	Limit   int     // K: most calls at the server, waiting or in service (queue_limit)
	Orbit   int     // O: most timed-out calls waiting to be retried (markov.orbit)
	Timeout float64 // T: seconds a caller waits for a try (layer timeout)
	Retries int     // R: retries a request may make (attempts − 1)
	Alpha   float64 // α: the share of the calls that will time out that also enter the orbit (markov.alpha)
	// High is the most calls at the server in the low mode: capacity ×
	// timeout, the work the server does within one timeout, the queue
	// engine's health limit. A state with more calls is in the high mode,
	// where a new call waits longer than its caller does.
	High    float64
	Horizon float64 // seconds: the run's duration, against which escape times are judged
}

// States is the number of states of the chain: (K + 1) × (O + 1).
func (m *MarkovPlan) States() int { return (m.Limit + 1) * (m.Orbit + 1) }

// resolveMarkov fills the plan's chain from the scenario; only the markov
// engine reads it.
func (p *Plan) resolveMarkov(s *Scenario) {
	l := s.Layer[0]
	workers := max(s.Markov.Workers, 1)
	alpha := s.Markov.Alpha
	if alpha == 0 {
		alpha = metaforAlpha
	}
	p.Markov = MarkovPlan{
		Arrival: s.Load,
		Service: s.Dependency.Capacity / float64(workers),
		Workers: workers,
		Limit:   s.Dependency.QueueLimit,
		Orbit:   s.Markov.Orbit,
		Timeout: l.Timeout.Seconds(),
		Retries: l.Attempts - 1,
		Alpha:   alpha,
		High:    s.Dependency.Capacity * l.Timeout.Seconds(),
		Horizon: s.Duration.Seconds(),
	}
}
