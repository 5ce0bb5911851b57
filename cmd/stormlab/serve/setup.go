package serve

import (
	"fmt"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// maxLayers is the deepest chain of callers a run may have.
const maxLayers = 16

// maxSeed is the largest seed a page may ask for: a JavaScript number holds
// every whole number up to it exactly.
const maxSeed = 1<<53 - 1

// setup is what a live run starts from: an offered experiment's scenario,
// one of its policies, a seed and the depth of the chain of callers.
type setup struct {
	Experiment string `json:"experiment"`
	// Policy names one of the experiment's [[policy]] entries; "" runs its
	// [scenario] as written.
	Policy string `json:"policy"`
	// Seed is the run's seed, used as is (the exported file says
	// same_seed = true); nil takes the experiment's seed.
	Seed *uint64 `json:"seed"`
	// Layers is the depth of the chain of callers (0 = as the experiment
	// has it); the last layer repeats to fill it. The depth cannot change
	// during a run: a new depth starts a new run.
	Layers int `json:"layers"`
}

// scenario is the setup's scenario at the start of the run: the
// experiment's first cell with the policy (its first cell, without one),
// as scenarioOf makes it. A cell, not the bare [scenario]: some
// experiments are complete only with their grid's values (a backoff's base
// on an axis of its own).
func (s *setup) scenario(o *offered) (model.Scenario, error) {
	c, err := s.cell(o)
	if err != nil {
		return model.Scenario{}, err
	}
	return s.scenarioOf(c)
}

// scenarioOf is the cell's scenario as the setup starts from it: without
// its faults and changes (the page adds its own), one replicate, every
// layer of the chain written out so that a change can name any of them.
func (s *setup) scenarioOf(c *sweep.Cell) (model.Scenario, error) {
	sc := sweep.Clone(c.Scenario)
	if s.Layers < 0 || s.Layers > maxLayers {
		return sc, badField("layers", "must be from 1 to %d (0 = as the experiment has it), got %d", maxLayers, s.Layers)
	}
	if s.Layers > 0 {
		sc.Layers = s.Layers
	}
	if len(sc.Layer) > 0 {
		sc.Layer = sc.ChainLayers()
		sc.Layers = 0
	}
	sc.Fault, sc.Change, sc.Replicates = nil, nil, 1
	return sc, nil
}

// cells are the grid cells of the setup's policy (every cell, without
// one), in grid order.
func (s *setup) cells(o *offered) ([]*sweep.Cell, error) {
	if s.Policy != "" {
		if _, err := policySet(o, s.Policy); err != nil {
			return nil, err
		}
	}
	var out []*sweep.Cell
	cells := o.Exp.Grid.Cells()
	for i := range cells {
		if v, _ := cells[i].Get("policy"); s.Policy == "" || v.Text == s.Policy {
			out = append(out, &cells[i])
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("experiment %q has no cell of policy %q", o.Exp.Name, clip(s.Policy, 80))
	}
	return out, nil
}

// cell is the grid cell the setup starts from: the experiment's first, or
// the first of its policy.
func (s *setup) cell(o *offered) (*sweep.Cell, error) {
	cells, err := s.cells(o)
	if err != nil {
		return nil, err
	}
	return cells[0], nil
}

// solvedBy reports whether the markov engine solves the setup's cell: it
// has no run to stream, and the page shows its chain instead.
func (s *setup) solvedBy(o *offered) bool {
	c, err := s.cell(o)
	return err == nil && c.Scenario.Engine == "markov"
}

// seed is the run's seed: the one asked for, else the experiment's.
func (s *setup) seed(o *offered) (uint64, error) {
	if s.Seed == nil {
		return o.Exp.Grid.Seed & maxSeed, nil
	}
	if *s.Seed > maxSeed {
		return 0, badField("seed", "must be a whole number from 0 to %d, got %d", uint64(maxSeed), *s.Seed)
	}
	return *s.Seed, nil
}

// policySet finds one of the experiment's policies.
func policySet(o *offered, name string) (*sweep.Set, error) {
	names := policyNames(o)
	if ax, ok := o.Exp.Grid.Axis("policy"); ok && ax.Named() {
		if set, ok := ax.Set(name); ok {
			return set, nil
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("experiment %q has no [[policy]] entries; leave the policy empty", o.Exp.Name)
	}
	return nil, fmt.Errorf("experiment %q has no policy %q; its policies are %q", o.Exp.Name, clip(name, 80), names)
}

// policyNames lists the experiment's policies in the order it writes them.
func policyNames(o *offered) []string {
	ax, ok := o.Exp.Grid.Axis("policy")
	if !ok || !ax.Named() {
		return nil
	}
	var out []string
	for _, s := range ax.Sets {
		out = append(out, s.Name)
	}
	return out
}
