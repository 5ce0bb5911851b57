package model

// MarkovKeys are the keys only the markov engine reads: what its chain
// needs beyond the scenario's server and caller.
type MarkovKeys struct {
	Orbit int `toml:"orbit" engines:"markov" doc:"the most timed-out calls waiting to be retried that the chain tracks; a retry beyond it is lost (Metafor's orbit_size is orbit + 1)"`
	// Workers is the chain's pool; it is to read dependency.workers (the
	// stochastic engine's worker pool) once that key means the same here.
	Workers int     `toml:"workers" engines:"markov" doc:"calls served at once, each at capacity / workers calls a second, exponential service (0 = 1)"`
	Alpha   float64 `toml:"alpha" engines:"markov" doc:"the share of the new requests that will time out which also put a retry in the orbit: Metafor's calibration factor (0 = its default, 0.25)"`
}

// metaforAlpha is Metafor's default calibration factor α.
const metaforAlpha = 0.25

func (m *MarkovKeys) bounds(dst []Bound) []Bound {
	return append(dst,
		Bound{"orbit", "", Range{0, 100_000, "calls"}, &m.Orbit},
		Bound{"workers", "", Range{0, 100_000, ""}, &m.Workers},
		Bound{"alpha", "", Range{0, 1, ""}, &m.Alpha},
	)
}

// markovSupports refuses what the markov engine's chain cannot express
// beyond the kinds and keys its registries and tags leave out: one server
// with a bounded queue, one caller that times out, one solve.
func markovSupports(s *Scenario) error {
	d := s.Dependency
	switch {
	case s.chainLen() != 1:
		return bad("layer", "the markov engine models one caller above the server; this chain has %d layers", s.chainLen())
	case s.Layer[0].Timeout <= 0:
		return bad("layer.0.timeout", "the markov engine's callers give up after a timeout: set one (> 0)")
	case d.QueueLimit < 1:
		return bad("dependency.queue_limit", "the markov engine's chain has a state per queue length: set queue_limit ≥ 1")
	case d.Capacity <= 0:
		return bad("dependency.capacity", "the markov engine's server serves capacity calls a second: set capacity > 0")
	case s.Layer[0].Attempts > 1 && s.Markov.Orbit == 0:
		return bad("markov.orbit", "retries need an orbit to wait in: set markov.orbit ≥ 1 (or attempts = 1)")
	case s.Replicates != 1:
		return bad("replicates", "the markov engine solves its chain exactly: one replicate, got %d", s.Replicates)
	case s.Markov.Workers > d.QueueLimit:
		return bad("markov.workers", "%d workers serve at most the queue_limit of %d calls at once", s.Markov.Workers, d.QueueLimit)
	}
	n := (d.QueueLimit + 1) * (s.Markov.Orbit + 1)
	if n > MaxMarkovStates {
		return bad("dependency.queue_limit", "with orbit = %d the chain has %d states, more than the %d solved", s.Markov.Orbit, n, MaxMarkovStates)
	}
	if b := float64(min(d.QueueLimit, s.Markov.Orbit) + 2); float64(n)*b*b > MaxMarkovWork {
		return bad("markov.orbit", "queue_limit %d and orbit %d make a band of %g states: %d states × band² is more than the %g operations a solve may take; lower the smaller of the two",
			d.QueueLimit, s.Markov.Orbit, b, n, float64(MaxMarkovWork))
	}
	return nil
}

// Bounds of the markov engine's chain: its states, and the work of one
// banded elimination, states × band², the band being the smaller of
// queue_limit and orbit plus two (about ten seconds at the bound).
const (
	MaxMarkovStates = 4_000_000
	MaxMarkovWork   = 1e10
)
