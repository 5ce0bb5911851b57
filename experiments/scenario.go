package experiments

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/stormlab/stormlab/experiments/sweep"
)

// shorthands are grid, policy and -set names for common scenario keys.
var shorthands = map[string]string{
	"blip":           "fault.0.length",
	"attempts":       "layer.*.attempts",
	"timeout":        "layer.*.timeout",
	"backoff.kind":   "layer.*.backoff.kind",
	"backoff.base":   "layer.*.backoff.base",
	"backoff.cap":    "layer.*.backoff.cap",
	"backoff.factor": "layer.*.backoff.factor",
	"backoff.jitter": "layer.*.backoff.jitter",
	"budget":         "budget.ratio",
}

// kindsFirst moves each "kind" key before the other keys of its table: a
// table with a kind takes its kind's defaults when the kind is set, and its
// other keys then override them, whatever order the file writes them in.
func kindsFirst(leaves []sweep.Override) []sweep.Override {
	parent := func(p string) string {
		if i := strings.LastIndexByte(p, '.'); i >= 0 {
			return p[:i]
		}
		return ""
	}
	for k := range leaves {
		if !strings.HasSuffix(leaves[k].Path, ".kind") {
			continue
		}
		for j := 0; j < k; j++ {
			if parent(leaves[j].Path) == parent(leaves[k].Path) {
				kind := leaves[k]
				copy(leaves[j+1:k+1], leaves[j:k])
				leaves[j] = kind
				break
			}
		}
	}
	return leaves
}

// resolve turns a user-written scenario path into the path sweep.Assign takes.
func resolve(path string) string {
	if p, ok := shorthands[path]; ok {
		return p
	}
	return path
}

// readScenario builds the base scenario: the defaults, the top-level
// engine, then the [scenario] table.
func (e *Experiment) readScenario(engine, scenario any) error {
	base := &e.Grid.Base
	if engine != nil {
		if err := sweep.Assign(base, "engine", engine); err != nil {
			return e.errorAt("engine", "engine", err, "")
		}
	}
	if scenario == nil {
		return nil
	}
	m, ok := scenario.(map[string]any)
	if !ok {
		return e.errorf("scenario", "wants a table ([scenario]), got %s", sweep.Describe(scenario))
	}
	for _, o := range e.overrides("scenario", m) {
		if err := sweep.Assign(base, o.Path, o.Value); err != nil {
			return e.errorAt(o.Key, o.Path, err, "")
		}
	}
	return nil
}

// overrides flattens a table of scenario keys written at prefix into single
// assignments: whole lists of tables first (they replace a list), then every
// other value in the order the file writes them.
func (e *Experiment) overrides(prefix string, m map[string]any) []sweep.Override {
	var lists, leaves []sweep.Override
	var walk func(path string, v any)
	walk = func(path string, v any) {
		if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
			for _, k := range slices.Sorted(maps.Keys(sub)) {
				walk(join(path, k), sub[k])
			}
			return
		}
		o := sweep.Override{Path: resolve(path), Value: v, Key: join(prefix, path)}
		if _, ok := sweep.Tables(v); ok && isList(v) {
			lists = append(lists, o)
		} else {
			leaves = append(leaves, o)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		walk(k, m[k])
	}
	sort.SliceStable(leaves, func(i, j int) bool { return e.before(leaves[i].Key, leaves[j].Key) })
	return append(lists, kindsFirst(leaves)...)
}

func isList(v any) bool {
	switch x := v.(type) {
	case []map[string]any:
		return true
	case []any:
		return len(x) > 0
	}
	return false
}

// before orders two keys by where the file writes them; keys that only a
// -set flag gave come last.
func (e *Experiment) before(a, b string) bool {
	pa, oka := e.pos[a]
	pb, okb := e.pos[b]
	switch {
	case oka && okb:
		return pa.Line < pb.Line || pa.Line == pb.Line && pa.Col < pb.Col
	case oka != okb:
		return oka
	}
	return false
}
