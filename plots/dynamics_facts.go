package plots

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// This file describes, for subtitles and captions, what changes during a
// run: a load shape and the interventions ([[scenario.change]]).

// shapeText describes a load shape: "load 20→68→8 requests/s at 0s, 4m, 8m".
func shapeText(sc *model.Scenario) string {
	loads, ats := make([]string, len(sc.Shape)), make([]string, len(sc.Shape))
	for i, pt := range sc.Shape {
		loads[i], ats[i] = numText(pt.Load), durText(pt.At)
	}
	return "load " + strings.Join(loads, "→") + " requests/s at " + strings.Join(ats, ", ")
}

// openLoadFact describes the load of open-loop cells: "load 70
// requests/s", "load 50–95 requests/s", or with a load shape "load 20→68→8
// requests/s at 0s, 240s, 480s".
func openLoadFact(open []sweep.Cell) string {
	shaped := false
	for i := range open {
		shaped = shaped || len(open[i].Scenario.Shape) > 0
	}
	if !shaped {
		return "load " + eachOf(open, func(_ *model.Scenario, p *model.Plan) (float64, string) { return p.Load, numText(p.Load) }) + " requests/s"
	}
	return "load " + eachOf(open, func(sc *model.Scenario, p *model.Plan) (float64, string) {
		if len(sc.Shape) > 0 {
			return p.LoadAt(0), strings.TrimPrefix(shapeText(sc), "load ")
		}
		return p.Load, numText(p.Load) + " requests/s"
	})
}

// changeFacts describes the cells' interventions ([[scenario.change]]),
// one phrase per change: "then at 43s budget.kind = token_bucket", or,
// when the cells differ, the times as choices and the keys changed: "then
// at 95s–30m a change of layer.0.attempts, dependency.drop_expired". None
// when no cell has a change.
func changeFacts(cells []sweep.Cell) []string {
	var out []string
	for j := 0; ; j++ {
		var with []sweep.Cell
		for i := range cells {
			if len(cells[i].Scenario.Change) > j {
				with = append(with, cells[i])
			}
		}
		if len(with) == 0 {
			return out
		}
		when := eachOf(with, func(sc *model.Scenario, _ *model.Plan) (float64, string) {
			return sc.Change[j].At.Seconds(), durText(sc.Change[j].At)
		})
		var sets, keys []string
		for i := range with {
			var parts []string
			for _, st := range with[i].Scenario.Change[j].Settings() {
				parts = append(parts, fmt.Sprintf("%s = %v", st.Path, st.Value))
				if !slices.Contains(keys, st.Path) {
					keys = append(keys, st.Path)
				}
			}
			if t := strings.Join(parts, ", "); !slices.Contains(sets, t) {
				sets = append(sets, t)
			}
		}
		what := sets[0]
		if len(sets) > 1 {
			what = "a change of " + strings.Join(keyGroups(keys), ", ")
		}
		if len(with) < len(cells) {
			what += " (some cells)"
		}
		out = append(out, "then at "+when+" "+what)
	}
}

// keyGroups shortens a list of scenario keys to the tables they belong to
// where a table holds several of them: budget.kind and budget.ratio are
// "budget", layer.0.attempts alone stays as it is.
func keyGroups(keys []string) []string {
	parent := func(k string) string {
		if i := strings.LastIndex(k, "."); i > 0 {
			return k[:i]
		}
		return k
	}
	n := map[string]int{}
	for _, k := range keys {
		n[parent(k)]++
	}
	var out []string
	for _, k := range keys {
		g := k
		if n[parent(k)] > 1 {
			g = parent(k)
		}
		if !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}

// pct writes a share as a whole percentage: "85%".
func pct(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }
