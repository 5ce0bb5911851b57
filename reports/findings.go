package reports

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/model"
)

// findings writes the report's findings from the results alone: one line
// per cell for small grids, and for phase and line figures where the system
// tips. No number in them is typed by hand.
func findings(e *experiments.Experiment, results []model.Result) []string {
	cells := e.Cells()
	var out []string
	rec := 0
	for i := range results {
		if results[i].Recovered {
			rec++
		}
	}
	for _, f := range e.Findings {
		out = append(out, renderFinding(f, results))
	}
	out = append(out, fmt.Sprintf("%d of %d cell%s recovered within the %v run; %d never did.",
		rec, len(cells), plural(len(cells)), e.Base.Duration, len(cells)-rec))
	if len(cells) <= 8 {
		var lines []string
		for i := range results {
			lines = append(lines, "- "+cellSentence(&cells[i], &results[i]))
		}
		out = append(out, strings.Join(lines, "\n"))
	}
	for _, f := range e.Figures {
		if len(f.Range) > 0 {
			continue // a zoom repeats what its full figure says
		}
		switch f.Kind {
		case "phase":
			if n := countKind(e, "phase"); n > 1 && f.Title != "" {
				out = append(out, "*"+f.Title+"*")
			}
			out = append(out, phaseFindings(e, f, results)...)
		case "lines":
			out = append(out, linesFindings(e, f, results)...)
		}
	}
	return out
}

// cellSentence says what happened in one cell.
func cellSentence(c *experiments.Cell, r *model.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**: ", c.Label())
	switch {
	case r.Replicates > 1:
		fmt.Fprintf(&b, "%s of %d replicates recovered", pct(r.RecoveredShare), r.Replicates)
		if !math.IsNaN(r.RecoveryS) {
			fmt.Fprintf(&b, " (mean %s s after the fault)", num(r.RecoveryS))
		}
	case r.Recovered && r.RecoveryS == 0:
		b.WriteString("healthy as soon as the fault ended")
	case r.Recovered:
		fmt.Fprintf(&b, "recovered %s s after the fault ended", num(r.RecoveryS))
	default:
		fmt.Fprintf(&b, "never recovered within the %v run", c.Scenario.Duration)
	}
	fmt.Fprintf(&b, "; calls at the dependency peaked at %s× the base arrival rate", num1(r.PeakLoadX))
	if r.WindowRateX > 0 {
		fmt.Fprintf(&b, " (%s× on average during the fault)", num1(r.WindowRateX))
	}
	if r.PeakQueue > 0 {
		fmt.Fprintf(&b, ", the queue at %s calls", thousands(math.Round(r.PeakQueue)))
	}
	switch {
	case r.Wasted() > 0:
		fmt.Fprintf(&b, ", and %s of the dependency's work served callers who had already given up", pct(r.Wasted()))
	case r.PeakQueue > 0:
		b.WriteString(", and none of the dependency's work was wasted on callers who had given up")
	}
	fmt.Fprintf(&b, ". %s of %s requests succeeded, %s failed",
		thousands(math.Round(r.Successful)), thousands(math.Round(r.Requests)), thousands(math.Round(r.Failed)))
	if r.RetriesRefused > 0 {
		fmt.Fprintf(&b, " (%s retries refused by the budget)", thousands(math.Round(r.RetriesRefused)))
	}
	if p := math.Round(r.Pending); p > 0 {
		verb := "were"
		if p == 1 {
			verb = "was"
		}
		fmt.Fprintf(&b, ", %s %s still waiting when the run ended", thousands(p), verb)
	}
	b.WriteString(".")
	return b.String()
}

// panelCells groups the indexes of the cells a figure draws (the grid's
// product within the figure's range and slice) by the value of its panel
// axis ("" = one group), in axis order.
func panelCells(e *experiments.Experiment, f experiments.Figure) (names []string, groups map[string][]int) {
	panel := f.Panel
	cells := e.Cells()
	groups = map[string][]int{}
	if ax, ok := e.Axis(panel); ok && panel != "" {
		for _, v := range ax.Values {
			names = append(names, v.Text)
		}
	} else {
		names = []string{""}
	}
	for i := range cells[:e.Size()] {
		if !f.InRange(&cells[i]) {
			continue
		}
		key := ""
		if v, ok := cells[i].Get(panel); ok {
			key = v.Text
		}
		groups[key] = append(groups[key], i)
	}
	return names, groups
}

// phaseFindings describes, per panel, the boundary between recovering and
// never-recovering cells, and where the rule of thumb (blip ≈ capacity ×
// timeout / load) parts from it.
func phaseFindings(e *experiments.Experiment, f experiments.Figure, results []model.Result) []string {
	cells := e.Cells()
	names, groups := panelCells(e, f)
	var out []string
	for _, name := range names {
		idx := groups[name]
		if replicated(results, idx) {
			out = append(out, shareFindings(e, f, name, idx, results))
			continue
		}
		// The lowest Y that never recovers, per X.
		tip := map[float64]float64{}
		var xs []float64
		ys := map[float64]bool{}
		slowest, sx, sy := -1.0, 0.0, 0.0
		for _, i := range idx {
			x, _ := cells[i].Get(f.X)
			y, _ := cells[i].Get(f.Y)
			if _, seen := tip[x.Num]; !seen {
				tip[x.Num] = math.Inf(1)
				xs = append(xs, x.Num)
			}
			ys[y.Num] = true
			r := &results[i]
			if !r.Recovered && y.Num < tip[x.Num] {
				tip[x.Num] = y.Num
			}
			if r.Recovered && r.RecoveryS > slowest {
				slowest, sx, sy = r.RecoveryS, x.Num, y.Num
			}
		}
		sort.Float64s(xs)
		ylist := make([]float64, 0, len(ys))
		for y := range ys {
			ylist = append(ylist, y)
		}
		sort.Float64s(ylist)
		label := "All cells"
		if name != "" {
			label = fmt.Sprintf("**%s**", name)
		}
		// Group the loads by the blip from which they never recover.
		var groupsByTip []string
		tipped := 0
		for i := 0; i < len(xs); {
			j := i
			for j < len(xs) && tip[xs[j]] == tip[xs[i]] {
				j++
			}
			if !math.IsInf(tip[xs[i]], 1) {
				tipped += j - i
				groupsByTip = append(groupsByTip, fmt.Sprintf("from %s %s at %s %s", f.Y, text(e, f.Y, tip[xs[i]]), f.X, spans(e, f.X, xs[i:j])))
			}
			i = j
		}
		if tipped == 0 {
			s := fmt.Sprintf("%s: recovers in every cell", label)
			if slowest >= 0 {
				s += fmt.Sprintf("; the slowest recovery is %s s, at %s %s and %s %s", num(slowest), f.X, text(e, f.X, sx), f.Y, text(e, f.Y, sy))
			}
			out = append(out, s+".")
			continue
		}
		s := fmt.Sprintf("%s: never recovers %s", label, strings.Join(sample(groupsByTip, 6), ", "))
		if tipped < len(xs) {
			s += fmt.Sprintf("; at the other %d values of %s it recovers throughout", len(xs)-tipped, f.X)
		}
		s += "."
		if f.RuleOfThumb && f.X == "load" {
			s += " " + ruleComparison(e, f.Y, idx, xs, tip, ylist)
		}
		out = append(out, s)
	}
	if f.RuleOfThumb && f.X == "load" {
		out = append(out, tippingTable(e, f, results))
	}
	return out
}

// tippingTable lists, for a sample of loads, the rule of thumb's blip and
// the shortest blip that never recovers under each policy.
func tippingTable(e *experiments.Experiment, f experiments.Figure, results []model.Result) string {
	cells := e.Cells()
	names, groups := panelCells(e, f)
	xAx, _ := e.Axis(f.X)
	xs := make([]float64, 0, len(xAx.Values))
	for _, v := range xAx.Values {
		xs = append(xs, v.Num)
	}
	sort.Float64s(xs)
	if len(xs) > 12 {
		var picked []float64
		for i := 0; i < 11; i++ {
			picked = append(picked, xs[i*(len(xs)-1)/10])
		}
		xs = picked[:11]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Shortest %s that never recovers, by %s, beside the rule of thumb (capacity × timeout / load):\n\n| %s | rule of thumb |", f.Y, f.X, f.X)
	for _, n := range names {
		fmt.Fprintf(&b, " %s |", escape(n))
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(names)) + "\n")
	for _, x := range xs {
		var rule float64
		row := ""
		for _, n := range names {
			tip := math.Inf(1)
			for _, i := range groups[n] {
				xv, _ := cells[i].Get(f.X)
				if xv.Num != x {
					continue
				}
				sc := cells[i].Scenario
				layers := sc.ChainLayers()
				rule = sc.Dependency.Capacity * layers[len(layers)-1].Timeout.Seconds() / x
				if yv, _ := cells[i].Get(f.Y); !results[i].Recovered && yv.Num < tip {
					tip = yv.Num
				}
			}
			if math.IsInf(tip, 1) {
				row += " recovers |"
			} else {
				row += fmt.Sprintf(" %s s |", num(tip))
			}
		}
		fmt.Fprintf(&b, "| %s | %s s |%s\n", num(x), num2(rule), row)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// ruleComparison compares the simulated boundary with the rule of thumb.
// The rule says the system tips once load × blip > capacity × timeout, so on
// the grid it predicts the shortest blip above capacity × timeout / load;
// the comparison says at which loads the simulation tips there, later or
// earlier.
func ruleComparison(e *experiments.Experiment, yAxis string, idx []int, xs []float64, tip map[float64]float64, ys []float64) string {
	sc := e.Cells()[idx[0]].Scenario
	layers := sc.ChainLayers()
	work := sc.Dependency.Capacity * layers[len(layers)-1].Timeout.Seconds()
	var same, later, earlier []float64
	var laterText, earlierText []string
	for _, x := range xs {
		if x <= 0 || math.IsInf(tip[x], 1) {
			continue
		}
		pred := predictedTip(work/x, ys)
		switch {
		case tip[x] == pred:
			same = append(same, x)
		case tip[x] > pred:
			later = append(later, x)
			laterText = append(laterText, fmt.Sprintf("%s where it predicts %s", text(e, yAxis, tip[x]), text(e, yAxis, pred)))
		default:
			earlier = append(earlier, x)
			earlierText = append(earlierText, fmt.Sprintf("%s where it predicts %s", text(e, yAxis, tip[x]), text(e, yAxis, pred)))
		}
	}
	var parts []string
	if len(same) > 0 {
		parts = append(parts, fmt.Sprintf("tips exactly where the rule of thumb predicts (the first grid blip above %s × %v / load) at load %s",
			num(sc.Dependency.Capacity), layers[len(layers)-1].Timeout, spans(e, "load", same)))
	}
	if len(later) > 0 {
		parts = append(parts, fmt.Sprintf("tips later than the rule at load %s (e.g. %s)", spans(e, "load", later), laterText[0]))
	}
	if len(earlier) > 0 {
		parts = append(parts, fmt.Sprintf("tips earlier than the rule at load %s (e.g. %s)", spans(e, "load", earlier), earlierText[0]))
	}
	if len(parts) == 0 {
		return ""
	}
	return "It " + strings.Join(parts, "; it ") + "."
}

// text is how the axis writes the value x ("3s" for a blip), or x itself.
func text(e *experiments.Experiment, axis string, x float64) string {
	if ax, ok := e.Axis(axis); ok {
		for _, v := range ax.Values {
			if v.IsNum && v.Num == x {
				return v.Text
			}
		}
	}
	return num(x)
}

// predictedTip is the shortest grid value above the rule's threshold.
func predictedTip(rule float64, ys []float64) float64 {
	for _, y := range ys {
		if y > rule+1e-9 {
			return y
		}
	}
	return math.Inf(1)
}

// spans writes sorted values of an axis as runs: "50, 63–95", "1s–4s".
// Values are consecutive when they are neighbours on the axis.
func spans(e *experiments.Experiment, axis string, xs []float64) string {
	ax, ok := e.Axis(axis)
	if !ok {
		return ""
	}
	var all []float64
	for _, v := range ax.Values {
		if v.IsNum {
			all = append(all, v.Num)
		}
	}
	sort.Float64s(all)
	rank := map[float64]int{}
	for i, v := range all {
		rank[v] = i
	}
	var out []string
	start := 0
	for i := 1; i <= len(xs); i++ {
		if i < len(xs) && rank[xs[i]] == rank[xs[i-1]]+1 {
			continue
		}
		if i-1 == start {
			out = append(out, text(e, axis, xs[start]))
		} else {
			out = append(out, text(e, axis, xs[start])+"–"+text(e, axis, xs[i-1]))
		}
		start = i
	}
	return strings.Join(out, ", ")
}

// sample keeps at most n items, evenly spread and keeping the ends.
func sample(items []string, n int) []string {
	if len(items) <= n {
		return items
	}
	out := make([]string, 0, n+1)
	for i := 0; i < n-1; i++ {
		out = append(out, items[i*(len(items)-1)/(n-1)])
	}
	out = append(out, "…", items[len(items)-1])
	return out
}

// linesFindings says, per line, up to which X value the system still
// recovers.
func linesFindings(e *experiments.Experiment, f experiments.Figure, results []model.Result) []string {
	cells := e.Cells()
	lineAx, _ := e.Axis(f.Line)
	var parts []string
	for _, lv := range lineAx.Values {
		type pt struct {
			x   float64
			rec bool
			s   float64
		}
		var pts []pt
		for i := range cells[:e.Size()] {
			if v, _ := cells[i].Get(f.Line); v.Text != lv.Text || !f.InRange(&cells[i]) {
				continue
			}
			x, _ := cells[i].Get(f.X)
			pts = append(pts, pt{x.Num, results[i].Recovered, results[i].RecoveryS})
		}
		sort.Slice(pts, func(i, j int) bool { return pts[i].x < pts[j].x })
		var rec, never []float64
		slowest := 0.0
		for _, p := range pts {
			if p.rec {
				rec = append(rec, p.x)
				slowest = math.Max(slowest, p.s)
			} else {
				never = append(never, p.x)
			}
		}
		name := fmt.Sprintf("%s %s", f.Line, lv.Text)
		switch {
		case len(never) == 0:
			parts = append(parts, fmt.Sprintf("at %s it recovers at every %s (at most %s s after the fault)", name, f.X, num(slowest)))
		case len(rec) == 0:
			parts = append(parts, fmt.Sprintf("at %s it never recovers", name))
		default:
			parts = append(parts, fmt.Sprintf("at %s it recovers at %s %s (at most %s s after the fault) and never at %s",
				name, f.X, spans(e, f.X, rec), num(slowest), spans(e, f.X, never)))
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return []string{"Across " + f.X + ": " + strings.Join(parts, "; ") + "."}
}

// renderFinding fills an author's finding with the numbers it refers to.
func renderFinding(f experiments.Finding, results []model.Result) string {
	var b strings.Builder
	for _, p := range f.Parts {
		if p.Column == "" {
			b.WriteString(p.Text)
			continue
		}
		m, _ := model.LookupMetric(p.Column)
		v := m.Value(&results[p.Cell])
		switch {
		case m.Kind == "bool":
			b.WriteString(fmt.Sprint(v != 0))
		case math.IsNaN(v):
			b.WriteString("never")
		case p.Format == "pct":
			b.WriteString(pct(v))
		case p.Format != "":
			fmt.Fprintf(&b, p.Format, v)
		default:
			b.WriteString(human(m, v))
		}
	}
	return b.String()
}

// replicated reports whether any of the cells ran several replicates.
func replicated(results []model.Result, idx []int) bool {
	for _, i := range idx {
		if results[i].Replicates > 1 {
			return true
		}
	}
	return false
}

// shareFindings describes a panel of replicated cells: where every run
// recovered and where none did, as runs of X values with the Y values they
// hold for.
func shareFindings(e *experiments.Experiment, f experiments.Figure, name string, idx []int, results []model.Result) string {
	cells := e.Cells()
	always, never := map[float64][]float64{}, map[float64][]float64{}
	var xs []float64
	seen := map[float64]bool{}
	for _, i := range idx {
		x, _ := cells[i].Get(f.X)
		y, _ := cells[i].Get(f.Y)
		if !seen[x.Num] {
			seen[x.Num] = true
			xs = append(xs, x.Num)
		}
		switch results[i].RecoveredShare {
		case 1:
			always[x.Num] = append(always[x.Num], y.Num)
		case 0:
			never[x.Num] = append(never[x.Num], y.Num)
		}
	}
	sort.Float64s(xs)
	describe := func(set map[float64][]float64) string {
		var parts []string
		for i := 0; i < len(xs); {
			ys := set[xs[i]]
			sort.Float64s(ys)
			key := fmt.Sprint(ys)
			j := i + 1
			for j < len(xs) && fmt.Sprint(sorted(set[xs[j]])) == key {
				j++
			}
			if len(ys) > 0 {
				parts = append(parts, fmt.Sprintf("%s %s with %s %s", f.X, spans(e, f.X, xs[i:j]), f.Y, spans(e, f.Y, ys)))
			}
			i = j
		}
		return strings.Join(parts, "; ")
	}
	label := "All cells"
	if name != "" {
		label = fmt.Sprintf("**%s: %s**", strings.ReplaceAll(f.Panel, ".", " "), name)
	}
	n := results[idx[0]].Replicates
	var s []string
	if a := describe(always); a != "" {
		s = append(s, fmt.Sprintf("all %d runs recover at %s", n, a))
	}
	if nv := describe(never); nv != "" {
		s = append(s, fmt.Sprintf("none recovers at %s", nv))
	}
	if len(s) == 0 {
		return label + ": every cell has runs that recover and runs that do not."
	}
	mixed := len(idx)
	for _, ys := range always {
		mixed -= len(ys)
	}
	for _, ys := range never {
		mixed -= len(ys)
	}
	if mixed > 0 {
		s = append(s, fmt.Sprintf("in the other %d cells some runs recover and some do not", mixed))
	}
	return label + ": " + strings.Join(s, "; ") + "."
}

func sorted(xs []float64) []float64 {
	out := append([]float64(nil), xs...)
	sort.Float64s(out)
	return out
}

// countKind counts the experiment's full (not zoomed) figures of a kind.
func countKind(e *experiments.Experiment, kind string) int {
	n := 0
	for _, f := range e.Figures {
		if f.Kind == kind && len(f.Range) == 0 {
			n++
		}
	}
	return n
}
