package serve

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// intervention is one thing done to a live run at a moment of it: a fault
// that starts then, or a change of scenario keys from then on.
type intervention struct {
	Row   int            // the first row of the series it acts on; its time is Row × the series' step
	Fault *model.Fault   // a fault added then (its Start is the moment); nil for a change
	Set   map[string]any // a change's keys, by their path below [scenario]
	Label string         // what the charts' marker says
}

// faultLabel names a fault for a marker: "outage 3s", "spike ×2 for 10s",
// in a graph with the service it hits: "outage 5s on db".
func faultLabel(f *model.Fault) string {
	if f.Service != "" {
		g := *f
		g.Service = ""
		return faultLabel(&g) + " on " + f.Service
	}
	switch f.Kind {
	case "degradation":
		return fmt.Sprintf("degradation to %g/s for %v", f.Capacity, f.Length)
	case "slowdown":
		return fmt.Sprintf("slowdown ×%g for %v", f.Factor, f.Length)
	case "spike":
		return fmt.Sprintf("spike ×%g for %v", f.Factor, f.Length)
	}
	return fmt.Sprintf("%s %v", f.Kind, f.Length)
}

// changeLabel names a change for a marker: its keys and values, short.
func changeLabel(set map[string]any) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(set)) {
		parts = append(parts, fmt.Sprintf("%s = %v", k, set[k]))
	}
	return clip(strings.Join(parts, ", "), 160)
}

// merge adds the keys of a later change at the same moment to set: a key
// replaces the keys it covers ("layer.*.attempts" replaces
// "layer.0.attempts"), so the later change wins as it would a moment later.
func merge(set, later map[string]any) map[string]any {
	out := maps.Clone(set)
	for k, v := range later {
		for old := range out {
			if sweep.Covers(k, old) {
				delete(out, old)
			}
		}
		out[k] = v
	}
	return out
}
