package reports

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/experiments/tipping"
	"github.com/stormlab/stormlab/plots"
)

// ruleSentences compare each search's boundary with the rule of thumb,
// which says the system tips once the key passes the rule's value: where
// that value lies within the bracket (between the last point that recovers
// and the first that tips, or within the interval of a stochastic
// estimate), the rule holds to the search's resolution; where the system
// still recovers beyond it, the boundary lies above the rule; where it tips
// before, below. When it parts at low load and holds at high load, a last
// sentence says why.
func ruleSentences(g *sweep.Grid, t *spec.Tipping, ss []tipping.Search, axis string) []string {
	if axis == "" || t.To < t.From {
		return nil
	}
	var holds, above, below, open []int
	for i := range ss {
		s := &ss[i]
		rule, ok := s.RuleOfThumb()
		if !ok || math.IsNaN(s.Critical) || s.Recovers == nil || !s.Monotone() {
			continue
		}
		lo, hi := s.Recovers.Value, s.Tips.Value
		if !s.Exact() {
			if math.IsNaN(s.Lo) || math.IsNaN(s.Hi) {
				// The 95% interval is open on a side: too few replicates
				// to place the boundary, so nothing to test the rule by.
				open = append(open, i)
				continue
			}
			lo, hi = s.Lo, s.Hi
		}
		switch {
		case rule < lo:
			above = append(above, i)
		case rule >= hi:
			below = append(below, i)
		default:
			holds = append(holds, i)
		}
	}
	if len(holds)+len(above)+len(below)+len(open) == 0 {
		return nil
	}
	p := ss[0].Cell.Plan
	var parts []string
	if len(above) > 0 {
		parts = append(parts, fmt.Sprintf("the simulated boundary lies above the rule at %s: %s",
			axisSpans(g, ss, above, axis), strings.Join(sampleStrings(ruleExamples(t, ss, above), 3), "; ")))
	}
	if len(holds) > 0 && ss[holds[0]].Exact() {
		parts = append(parts, fmt.Sprintf("the rule holds to within %s at %s, where its value lies within the bracket: %s",
			keyValue(t, t.Tolerance), axisSpans(g, ss, holds, axis), strings.Join(sampleStrings(ruleExamples(t, ss, holds), 3), "; ")))
	}
	if len(holds) > 0 && !ss[holds[0]].Exact() {
		parts = append(parts, fmt.Sprintf("the rule's value lies within the 95%% interval of the boundary at %s: %s",
			axisSpans(g, ss, holds, axis), strings.Join(sampleStrings(ruleExamples(t, ss, holds), 3), "; ")))
	}
	if len(open) > 0 {
		parts = append(parts, fmt.Sprintf("at %s the search cannot test the rule: its 95%% interval is open on a side (too few replicates to be sure of a verdict), so the boundary is not placed: %s",
			axisSpans(g, ss, open, axis), strings.Join(sampleStrings(ruleExamples(t, ss, open), 3), "; ")))
	}
	if len(below) > 0 {
		parts = append(parts, fmt.Sprintf("the system tips before the rule's value at %s: %s",
			axisSpans(g, ss, below, axis), strings.Join(sampleStrings(ruleExamples(t, ss, below), 3), "; ")))
	}
	out := []string{fmt.Sprintf("Against the rule of thumb for naive retries (the system tips once the outage builds the backlog of a healthy dependency, capacity × timeout = %s calls: blip ≈ capacity × timeout / load), %s.",
		plots.Number(p.Health.Limit), strings.Join(parts, "; "))}
	if why := ruleWhy(ss, holds, above, below, axis); why != "" {
		out = append(out, why)
	}
	return out
}

// where names a search's values in a sentence: "load 45", "27 attempts,
// load 45" (a policy by its name).
func where(s *tipping.Search) string {
	var parts []string
	for _, p := range s.Params {
		if p.Axis == "policy" || !p.IsNum {
			parts = append(parts, p.Text)
		} else {
			parts = append(parts, p.Axis+" "+p.Text)
		}
	}
	if len(parts) == 0 {
		return "the base cell"
	}
	return strings.Join(parts, ", ")
}

func orNaN(x, alt float64) float64 {
	if math.IsNaN(x) {
		return alt
	}
	return x
}

// axisSpans writes the searches' values on axis as spans.
func axisSpans(g *sweep.Grid, ss []tipping.Search, idx []int, axis string) string {
	var xs []float64
	seen := map[float64]bool{}
	for _, i := range idx {
		v, _ := (&sweep.Cell{Params: ss[i].Params}).Get(axis)
		if !seen[v.Num] {
			seen[v.Num] = true
			xs = append(xs, v.Num)
		}
	}
	sort.Float64s(xs)
	return axis + " " + plots.Spans(g, axis, xs)
}

// ruleExamples write, per search, its bracket beside the rule: "at load
// 30 it still recovers at 4s, 1.20× the rule's 3.33s, and tips at 5s".
func ruleExamples(t *spec.Tipping, ss []tipping.Search, idx []int) []string {
	var out []string
	for _, i := range idx {
		s := &ss[i]
		rule, _ := s.RuleOfThumb()
		if !s.Exact() {
			out = append(out, fmt.Sprintf("at %s, %s where the rule says %s", where(s), criticalText(t, s), ruleValue(t, rule)))
			continue
		}
		out = append(out, fmt.Sprintf("at %s it recovers at %s (%s× the rule's %s) and tips at %s (%s×)", where(s),
			keyValue(t, s.Recovers.Value), plots.Ratio(s.Recovers.Value/rule), ruleValue(t, rule), keyValue(t, s.Tips.Value), plots.Ratio(s.Tips.Value/rule)))
	}
	return out
}

// ruleValue writes the rule's value with two decimals: "3.33s", "33.33
// requests/s".
func ruleValue(t *spec.Tipping, x float64) string {
	if t.Duration {
		return plots.Ratio(x) + "s"
	}
	s := plots.Ratio(x)
	if t.Unit != "" {
		s += " " + t.Unit
	}
	return s
}

// sampleStrings keeps at most n items, the first, the last and evenly
// between.
func sampleStrings(items []string, n int) []string {
	if len(items) <= n {
		return items
	}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, items[i*(len(items)-1)/(n-1)])
	}
	return out
}

// ruleWhy explains a boundary that lies above the rule at low load and
// within it at high load, over a load axis: the rule counts the backlog
// only, the simulation also the surplus capacity that drains it. Empty in
// any other case, which the numbers alone describe.
func ruleWhy(ss []tipping.Search, holds, above, below []int, axis string) string {
	if axis != "load" || len(holds) == 0 || len(above) == 0 || len(below) > 0 {
		return ""
	}
	load := func(i int) float64 { return ss[i].Cell.Plan.Load }
	mean := func(idx []int) float64 {
		sum := 0.0
		for _, i := range idx {
			sum += load(i)
		}
		return sum / float64(len(idx))
	}
	if mean(above) >= mean(holds) {
		return ""
	}
	lo, hi := above[0], holds[len(holds)-1]
	for _, i := range above {
		if load(i) < load(lo) {
			lo = i
		}
	}
	for _, i := range holds {
		if load(i) > load(hi) {
			hi = i
		}
	}
	p := ss[lo].Cell.Plan
	surplus := func(i int) string { return plots.Number(ss[i].Cell.Plan.Capacity - load(i)) }
	return fmt.Sprintf("Why the boundary lies above the rule at low load: the rule counts only the backlog that makes a new request wait past its timeout, capacity × timeout = %s calls. "+
		"Once capacity is back, the dependency serves capacity − load calls a second more than new requests bring: %s at load %s, %s at load %s. "+
		"The system stays down only when the calls that time out come back as retries faster than that surplus drains them. "+
		"At high load the surplus is small, so a backlog just past one timeout of work tips it, as the rule says; "+
		"at low load the surplus drains a backlog well past capacity × timeout before the retries outgrow it, so the outage must last longer than the rule says.",
		plots.Number(p.Health.Limit), surplus(lo), plots.Number(load(lo)), surplus(hi), plots.Number(load(hi)))
}
