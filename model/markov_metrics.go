package model

// MarkovMetrics are what the markov engine reads from its chain; zero in a
// run of another engine (Phase is then PhaseNone, and the columns empty).
type MarkovMetrics struct {
	States    float64 // states of the chain: (queue_limit + 1) × (orbit + 1)
	QueueMean float64 // calls at the server, stationary mean
	OrbitMean float64 // calls in the orbit, stationary mean
	// HighP is the stationary probability of the high mode: more calls at
	// the server than capacity × timeout.
	HighP float64
	// Gap is the spectral gap, −Re λ₂ per second; MixingS the time the
	// slowest mode takes to decay to 1%, ln(100) / Gap (Metafor's mixing
	// time is log₂(100) / Gap).
	Gap, MixingS float64
	FillS        float64 // expected seconds from empty (no call at the server or in the orbit) until the queue is first full
	DrainS       float64 // expected seconds from full (queue and orbit) until first empty
	// TipS is the expected seconds from empty until the high mode is first
	// reached, RecoverS from full until the low mode is: the chain's
	// counterparts of a simulation's collapse_s and drain_s.
	TipS, RecoverS float64
	Phase          MarkovPhase
	// Queue is the stationary distribution of the calls at the server:
	// Queue[n] is the probability of n calls, waiting or in service
	// (0..queue_limit), whatever the orbit holds. The explorer draws it.
	Queue []float64
}
