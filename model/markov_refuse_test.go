package model

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// markovScenario is Metafor's README example as a scenario for the markov
// engine.
func markovScenario() Scenario {
	sc := Default()
	sc.Engine = "markov"
	sc.Arrivals = "poisson"
	sc.Load = 9.5
	sc.Layer[0].Timeout = Duration(3 * time.Second)
	sc.Layer[0].Attempts = 5
	sc.Dependency.Capacity = 10
	sc.Dependency.QueueLimit = 99
	sc.Markov.Orbit = 19
	return sc
}

// TestMarkovScenario: Metafor's README example written as a scenario runs
// on the markov engine and gives the chain's results, and what the chain
// cannot express is refused by the key that asks for it.
func TestMarkovScenario(t *testing.T) {
	res, err := Run(markovScenario(), 1, false)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := analyseMarkov(metaforPlan(9.5, 4))
	if !reflect.DeepEqual(res.Markov, want) {
		t.Errorf("run %+v, the chain %+v", res.Markov, want)
	}
	for _, c := range []struct {
		key string
		set func(sc *Scenario)
	}{
		{"arrivals", func(sc *Scenario) { sc.Arrivals = "constant" }},
		{"budget.kind", func(sc *Scenario) { sc.Budget.SetTableKind("token_bucket") }},
		{"layer.0.backoff.kind", func(sc *Scenario) { sc.Layer[0].Backoff.Kind = "exponential" }},
		{"dependency.queue", func(sc *Scenario) { sc.Dependency.Queue = "lifo" }},
		{"fault.0.kind", func(sc *Scenario) { sc.Fault = []Fault{DefaultFault()} }},
		{"shape", func(sc *Scenario) { sc.Shape = []Point{{Load: 5}} }},
		{"dependency.drop_expired", func(sc *Scenario) { sc.Dependency.DropExpired = true }},
		{"dependency.collapse.slope", func(sc *Scenario) { sc.Dependency.Collapse.Slope = 0.5 }},
		{"initial.backlog", func(sc *Scenario) { sc.Initial.Backlog = 10 }},
		{"deadline", func(sc *Scenario) { sc.Deadline = Duration(time.Second) }},
		{"layer", func(sc *Scenario) { sc.Layers = 2 }},
		{"dependency.queue_limit", func(sc *Scenario) { sc.Dependency.QueueLimit = 0 }},
		{"markov.orbit", func(sc *Scenario) { sc.Markov.Orbit = 0 }},
		{"replicates", func(sc *Scenario) { sc.Replicates = 3 }},
	} {
		sc := markovScenario()
		c.set(&sc)
		err := Check(&sc)
		fe, ok := err.(*FieldError)
		if !ok || !strings.HasPrefix(fe.Path, c.key) {
			t.Errorf("%s set: %v; want it refused by that key", c.key, err)
		}
	}
	// The markov table's keys are the markov engine's alone.
	sc := Default()
	sc.Markov.Orbit = 5
	if err := Check(&sc); err == nil || !strings.Contains(err.Error(), "markov.orbit") {
		t.Errorf("markov.orbit on the queue engine: %v; want it refused by name", err)
	}
}
