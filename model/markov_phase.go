package model

// MarkovPhase is the markov engine's verdict on a scenario, read from its
// chain: where the server spends its time, and whether it stays in a mode
// for longer than the run.
type MarkovPhase uint8

const (
	PhaseNone MarkovPhase = iota // not a markov run
	// PhaseHealthy: not metastable, and the low mode holds at least half
	// of the stationary mass.
	PhaseHealthy
	// PhaseMetastable: each mode holds at least MetastableMass of the
	// stationary mass, and both the time to fill from empty and the time
	// to drain from full exceed the run's duration: started in either mode,
	// the run ends in it.
	PhaseMetastable
	// PhaseOverloaded: not metastable, and the high mode holds more than
	// half of the stationary mass.
	PhaseOverloaded
)

// MetastableMass is the least stationary probability each mode holds in a
// metastable scenario.
const MetastableMass = 1e-3

// String is the verdict as results.csv writes it.
func (v MarkovPhase) String() string {
	switch v {
	case PhaseHealthy:
		return "healthy"
	case PhaseMetastable:
		return "metastable"
	case PhaseOverloaded:
		return "overloaded"
	}
	return ""
}

// markovPhase judges a chain's results.
func markovPhase(m *MarkovMetrics, horizon float64) MarkovPhase {
	switch {
	case m.HighP >= MetastableMass && 1-m.HighP >= MetastableMass && m.FillS > horizon && m.DrainS > horizon:
		return PhaseMetastable
	case m.HighP > 0.5:
		return PhaseOverloaded
	}
	return PhaseHealthy
}
