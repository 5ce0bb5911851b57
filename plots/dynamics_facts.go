package plots

import (
	"fmt"
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

// changeFacts describes the cells' interventions, one phrase for all:
// "at 43s: budget.kind = token_bucket" or, when cells differ, the choices
// "at 33s or 43s: ...". None when no cell has one.
func changeFacts(cells []sweep.Cell) []string {
	has := false
	for i := range cells {
		has = has || len(cells[i].Scenario.Change) > 0
	}
	if !has {
		return nil
	}
	return []string{"then " + eachOf(cells, func(sc *model.Scenario, _ *model.Plan) (float64, string) {
		if len(sc.Change) == 0 {
			return -1, "no change"
		}
		var parts []string
		for _, c := range sc.Change {
			var sets []string
			for _, st := range c.Settings() {
				sets = append(sets, fmt.Sprintf("%s = %v", st.Path, st.Value))
			}
			parts = append(parts, "at "+durText(c.At)+" "+strings.Join(sets, ", "))
		}
		return sc.Change[0].At.Seconds(), strings.Join(parts, "; ")
	})}
}

// pct writes a share as a whole percentage: "85%".
func pct(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }
