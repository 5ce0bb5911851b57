package experiments

import (
	"fmt"
	"strings"

	"github.com/stormlab/stormlab/experiments/sweep"
)

// readPolicies reads the [[policy]] entries: named sets of scenario keys
// that form the grid axis "policy".
func (e *Experiment) readPolicies(v any) ([]sweep.Set, error) {
	items, err := e.tablesAt("policy", v, "[[policy]] entries, each with a name and scenario keys")
	if err != nil || items == nil {
		return nil, err
	}
	return e.namedSets("policy", items)
}

// namedSets reads a list of tables, each a name and scenario keys: the
// [[policy]] entries or a [[grid.NAME]] axis.
func (e *Experiment) namedSets(key string, items []map[string]any) ([]sweep.Set, error) {
	var sets []sweep.Set
	seen := map[string]bool{}
	for i, m := range items {
		k := fmt.Sprintf("%s.%d", key, i)
		s, err := e.namedSet(k, m)
		if err != nil {
			return nil, err
		}
		if seen[s.Name] {
			return nil, e.errorf(k+".name", "%q is named twice", s.Name)
		}
		seen[s.Name] = true
		sets = append(sets, s)
	}
	return sets, nil
}

// namedSet reads one table of a name and scenario keys, written at key.
func (e *Experiment) namedSet(key string, m map[string]any) (sweep.Set, error) {
	name, ok := m["name"].(string)
	if !ok || strings.TrimSpace(name) == "" {
		return sweep.Set{}, e.errorf(key, "each entry needs a name = \"...\" beside its scenario keys")
	}
	rest := map[string]any{}
	for k, v := range m {
		if k != "name" {
			rest[k] = v
		}
	}
	s := sweep.Set{Name: name, Overrides: e.overrides(key, rest)}
	// Check the keys now, on a scratch scenario, for a positioned error.
	scratch := sweep.Clone(e.Grid.Base)
	if o, err := s.Apply(&scratch); err != nil {
		return s, e.errorAt(o.Key, o.Path, err, "")
	}
	return s, nil
}

// setNames lists an axis's named sets, quoted, for messages.
func setNames(ax *sweep.Axis) string {
	var names []string
	for _, s := range ax.Sets {
		names = append(names, fmt.Sprintf("%q", s.Name))
	}
	return strings.Join(names, ", ")
}
