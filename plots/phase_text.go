package plots

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/model"
)

// This file holds what a phase diagram says: its title, its caption and
// its findings for the report.

// title is the figure's title: the spec's, or what it colours by which
// axes.
func (ph *phaseFigure) title() string {
	if ph.f.Title != "" {
		return ph.f.Title
	}
	what := ph.mode.label
	if ph.mode.share {
		what = "share of replicates that recovered"
	}
	return capitalize(fmt.Sprintf("%s by %s and %s", what, axisName(ph.f.X), axisName(ph.f.Y)))
}

// caption is what the figure adds to its cells' facts: what the colours
// mean, the rule of thumb where it is drawn and where it lies when it is
// not, and the axes placed by index.
func (ph *phaseFigure) caption() string {
	f := ph.f
	more := "Each rectangle is one grid cell; colour: " + ph.mode.doc
	if ph.scale.log {
		more += " (log scale)"
	}
	more += "."
	for _, cs := range []cellState{stuckCell, drainingCell, notJudgedCell} {
		if ph.seen[cs] {
			more += " " + cs.caption()
		}
	}
	if ph.aborted {
		more += " " + abortedCell.caption()
	}
	if ph.drawn {
		more += " Dashed: the rule of thumb for naive retries, blip ≈ capacity × timeout / load."
	}
	ys := ph.yo.nums()
	more += ruleOffAxis(ph.below, "below the smallest", axisName(f.Y), ph.t.text(f.Y, ys[0]), ph.drawn) +
		ruleOffAxis(ph.above, "above the largest", axisName(f.Y), ph.t.text(f.Y, ys[len(ys)-1]), ph.drawn)
	var byIndex []string
	if ph.xp.index {
		byIndex = append(byIndex, f.X)
	}
	if ph.yp.index {
		byIndex = append(byIndex, f.Y)
	}
	if n := notToScale(byIndex...); n != "" {
		more += " " + n
	}
	return more
}

// ruleOffAxis is the caption's sentence for a rule of thumb that lies
// beyond the values tried (where, "below the smallest"), with its values
// there; empty when there are none. In a figure that draws the rule in
// other panels, it speaks of "some panels".
func ruleOffAxis(values []float64, where, axis, limit string, drawn bool) string {
	if len(values) == 0 {
		return ""
	}
	v := secondsRange(values)
	if drawn {
		return fmt.Sprintf(" In some panels the rule of thumb, %s, lies %s %s tried (%s) and is not drawn.", v, where, axis, limit)
	}
	return fmt.Sprintf(" The rule of thumb for naive retries (blip ≈ capacity × timeout / load), %s, lies %s %s tried (%s) and is not drawn.", v, where, axis, limit)
}

// secondsRange writes the span of values in seconds: "0.42 s", "1.05–2.00 s".
func secondsRange(values []float64) string {
	lo, hi := Ratio(slices.Min(values)), Ratio(slices.Max(values))
	if lo == hi {
		return lo + " s"
	}
	return lo + "–" + hi + " s"
}

// findings describe, per panel, the boundary between recovering and
// never-recovering cells and, with the rule of thumb over load, where the
// rule (blip ≈ capacity × timeout / load) parts from it; a table of
// tipping points follows, and the panels ranked by the area that never
// recovers. Panels of replicated cells are described by the share of runs
// that recover. A figure coloured by another metric has none.
func (phase) findings(t *Table, f *spec.Figure) []string {
	if !aboutRecovery(f.Metric) {
		return nil // coloured by another metric
	}
	names, groups := t.panels(f.Panel)
	var out []string
	for _, name := range names {
		idx := groups[name]
		if replicated(t.Rows, idx) {
			out = append(out, t.shareFindings(f, name, idx))
			continue
		}
		// The lowest Y that is stuck, per X; the cells still draining when
		// the run ends are told apart, not counted as tipped.
		tip := map[float64]float64{}
		var xs []float64
		ys := map[float64]bool{}
		var draining []int
		slowest, sx, sy := -1.0, 0.0, 0.0
		for _, i := range idx {
			x, _ := t.Rows[i].Get(f.X)
			y, _ := t.Rows[i].Get(f.Y)
			if _, seen := tip[x.Num]; !seen {
				tip[x.Num] = math.Inf(1)
				xs = append(xs, x.Num)
			}
			ys[y.Num] = true
			r := &t.Rows[i].Result
			switch {
			case r.Verdict == model.Stuck && y.Num < tip[x.Num]:
				tip[x.Num] = y.Num
			case r.Verdict == model.Draining:
				draining = append(draining, i)
			case r.Recovered() && r.RecoveryS > slowest:
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
			switch tp := tip[xs[i]]; {
			case tp == ylist[0]:
				tipped += j - i
				groupsByTip = append(groupsByTip, fmt.Sprintf("from %s %s, the smallest tried, at %s %s", f.Y, t.text(f.Y, tp), f.X, t.spans(f.X, xs[i:j])))
			case !math.IsInf(tp, 1):
				tipped += j - i
				groupsByTip = append(groupsByTip, fmt.Sprintf("from %s %s at %s %s", f.Y, t.text(f.Y, tp), f.X, t.spans(f.X, xs[i:j])))
			}
			i = j
		}
		drain := t.drainingSentence(f, draining)
		if tipped == 0 {
			s := fmt.Sprintf("%s: recovers in every cell", label)
			if len(draining) > 0 {
				s = fmt.Sprintf("%s: stuck in no cell", label)
			}
			if slowest >= 0 {
				s += fmt.Sprintf("; the slowest recovery is %s s, at %s %s and %s %s", Number(slowest), f.X, t.text(f.X, sx), f.Y, t.text(f.Y, sy))
			}
			out = append(out, s+"."+drain)
			continue
		}
		s := fmt.Sprintf("%s: stuck (never recovers) %s", label, strings.Join(sample(groupsByTip, 6), ", "))
		if tipped < len(xs) {
			s += fmt.Sprintf("; at the other %d values of %s it is stuck nowhere", len(xs)-tipped, f.X)
		}
		s += "." + drain
		if f.RuleOfThumb && f.X == "load" {
			s += " " + t.ruleComparison(f.Y, idx, xs, tip, ylist)
		}
		out = append(out, s)
	}
	if f.RuleOfThumb && f.X == "load" {
		out = append(out, t.tippingTable(f))
	}
	if len(names) > 1 {
		out = append(out, t.metastableRanking(f, names, groups))
	}
	return out
}

// drainingSentence says which cells were still draining when the run ended
// (unhealthy, the backlog still shrinking), with the slowest drain among
// them; empty when none was.
func (t *Table) drainingSentence(f *spec.Figure, idx []int) string {
	if len(idx) == 0 {
		return ""
	}
	byX := map[float64][]float64{}
	var xs []float64
	slow := idx[0]
	for _, i := range idx {
		x, _ := t.Rows[i].Get(f.X)
		y, _ := t.Rows[i].Get(f.Y)
		if _, ok := byX[x.Num]; !ok {
			xs = append(xs, x.Num)
		}
		byX[x.Num] = append(byX[x.Num], y.Num)
		if slower(&t.Rows[i].Result, &t.Rows[slow].Result) {
			slow = i
		}
	}
	sort.Float64s(xs)
	var where []string
	for _, x := range xs {
		ys := sorted(byX[x])
		where = append(where, fmt.Sprintf("%s %s at %s %s", f.X, t.text(f.X, x), f.Y, t.spans(f.Y, ys)))
	}
	x, _ := t.Rows[slow].Get(f.X)
	y, _ := t.Rows[slow].Get(f.Y)
	return fmt.Sprintf(" %d cell%s %s still draining when the run ends, unhealthy but not stuck (%s): slower than the run, not metastable; the slowest, at %s %s and %s %s, holds %s.",
		len(idx), plural(len(idx)), isAre(len(idx)), strings.Join(sample(where, 4), "; "), f.X, x.Text, f.Y, y.Text, Drain(&t.Rows[slow].Result))
}

// slower reports whether a draining run needs longer than b after the run
// to reach the healthy limit (or, without a limit, drains at a lower rate).
func slower(a, b *model.Result) bool {
	if !math.IsNaN(a.DrainLeftS) && !math.IsNaN(b.DrainLeftS) {
		return a.DrainLeftS > b.DrainLeftS
	}
	return a.DrainRate < b.DrainRate
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// metastableRanking ranks the panels by the area of their metastable
// region: the share of their cells that never recover (with replicates,
// the share of runs that never recover, averaged over the cells), least
// first, ties in panel order.
func (t *Table) metastableRanking(f *spec.Figure, names []string, groups map[string][]int) string {
	type rank struct {
		name  string
		never float64 // cells (or runs, in cells) that never recover
		cells int
	}
	var ranks []rank
	replicates := false
	for _, n := range names {
		r := rank{name: n, cells: len(groups[n])}
		for _, i := range groups[n] {
			r.never += stuckShare(&t.Rows[i].Result)
			replicates = replicates || t.Rows[i].Result.Replicates > 1
		}
		ranks = append(ranks, r)
	}
	sort.SliceStable(ranks, func(i, j int) bool {
		return ranks[i].never/float64(ranks[i].cells) < ranks[j].never/float64(ranks[j].cells)
	})
	what := "cells that are stuck (never recover)"
	if replicates {
		what = "runs that never recover in stuck cells, as shares summed over the cells"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Panels ranked by the area of the metastable region, the share of the %s × %s grid that is stuck (cells still draining when the run ends do not count):\n\n| rank | %s | %s | share of the grid |\n|---|---|---|---|\n",
		axisName(f.X), axisName(f.Y), Escape(axisName(f.Panel)), what)
	for i, r := range ranks {
		fmt.Fprintf(&b, "| %d | %s | %s of %s | %s |\n", i+1, Escape(r.name), Number(r.never), Number(float64(r.cells)), fmt.Sprintf("%.0f%%", 100*r.never/float64(r.cells)))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// tippingTable lists, for a sample of loads, the rule of thumb's blip and
// the shortest blip that never recovers in each panel.
func (t *Table) tippingTable(f *spec.Figure) string {
	names, groups := t.panels(f.Panel)
	xAx, _ := t.axis(f.X)
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
	fmt.Fprintf(&b, "Shortest %s at which it is stuck (never recovers), by %s, beside the rule of thumb (capacity × timeout / load):\n\n| %s | rule of thumb |", f.Y, f.X, f.X)
	for _, n := range names {
		fmt.Fprintf(&b, " %s |", Escape(n))
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(names)) + "\n")
	for _, x := range xs {
		rule := "—"
		row := ""
		for _, n := range names {
			tip := math.Inf(1)
			for _, i := range groups[n] {
				xv, _ := t.Rows[i].Get(f.X)
				if xv.Num != x {
					continue
				}
				if r, ok := t.Rows[i].Facts.rule(x); ok {
					rule = Ratio(r) + " s"
				}
				if yv, _ := t.Rows[i].Get(f.Y); t.Rows[i].Result.Verdict == model.Stuck && yv.Num < tip {
					tip = yv.Num
				}
			}
			if math.IsInf(tip, 1) {
				row += " never stuck |"
			} else {
				row += fmt.Sprintf(" %s s |", Number(tip))
			}
		}
		fmt.Fprintf(&b, "| %s | %s |%s\n", Number(x), rule, row)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// ruleComparison compares the simulated boundary with the rule of thumb,
// saying only what the grid can show. The rule says the system tips once
// load × blip outgrows the backlog of a healthy dependency, so on the grid
// it predicts the shortest blip above that backlog / load. Where the
// simulation tips there, the rule holds to within the grid's spacing (the
// blip below recovers); where the smallest blip tried already tips, the
// grid cannot place the boundary at all; elsewhere it tips later or
// earlier than the rule.
func (t *Table) ruleComparison(yAxis string, idx []int, xs []float64, tip map[float64]float64, ys []float64) string {
	p := &t.Rows[idx[0]].Facts
	var within, already, later, earlier []float64
	var withinText, laterText, earlierText []string
	var alreadyRule []float64
	for _, x := range xs {
		rule, ok := p.rule(x)
		if !ok || math.IsInf(tip[x], 1) {
			continue
		}
		pred := predictedTip(rule, ys)
		switch {
		case tip[x] == ys[0] && pred == ys[0]:
			already = append(already, x)
			alreadyRule = append(alreadyRule, rule)
		case tip[x] == pred:
			within = append(within, x)
			below := ys[slices.Index(ys, pred)-1]
			withinText = append(withinText, fmt.Sprintf("at load %s it recovers at %s and tips at %s, where the rule says %s s",
				Number(x), t.text(yAxis, below), t.text(yAxis, pred), Ratio(rule)))
		case tip[x] > pred:
			later = append(later, x)
			laterText = append(laterText, fmt.Sprintf("%s where it predicts %s", t.text(yAxis, tip[x]), t.text(yAxis, pred)))
		default:
			earlier = append(earlier, x)
			earlierText = append(earlierText, fmt.Sprintf("%s where it predicts %s", t.text(yAxis, tip[x]), t.text(yAxis, pred)))
		}
	}
	var parts []string
	if len(within) > 0 {
		parts = append(parts, fmt.Sprintf("tips at the first grid %s above the rule of thumb's value (%s × %v / load) at load %s: the rule holds there to within the grid's spacing (e.g. %s)",
			yAxis, Number(p.Capacity), p.Timeout, t.spans("load", within), withinText[len(withinText)/2]))
	}
	if len(already) > 0 {
		parts = append(parts, fmt.Sprintf("is already metastable at the smallest %s tried (%s) at load %s, so the grid can neither show where it tips nor test the rule of thumb, which puts the tipping point below it (%s × %v / load = %s)",
			yAxis, t.text(yAxis, ys[0]), t.spans("load", already), Number(p.Capacity), p.Timeout, secondsRange(alreadyRule)))
	}
	if len(later) > 0 {
		parts = append(parts, fmt.Sprintf("tips later than the rule at load %s (e.g. %s)", t.spans("load", later), laterText[0]))
	}
	if len(earlier) > 0 {
		parts = append(parts, fmt.Sprintf("tips earlier than the rule at load %s (e.g. %s)", t.spans("load", earlier), earlierText[0]))
	}
	if len(parts) == 0 {
		return ""
	}
	return "It " + strings.Join(parts, "; it ") + "."
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

// shareFindings describes a panel of replicated cells: where every run
// recovered and where none did, as runs of X values with the Y values they
// hold for.
func (t *Table) shareFindings(f *spec.Figure, name string, idx []int) string {
	always, never, slow := map[float64][]float64{}, map[float64][]float64{}, map[float64][]float64{}
	var xs []float64
	seen := map[float64]bool{}
	for _, i := range idx {
		x, _ := t.Rows[i].Get(f.X)
		y, _ := t.Rows[i].Get(f.Y)
		if !seen[x.Num] {
			seen[x.Num] = true
			xs = append(xs, x.Num)
		}
		switch r := &t.Rows[i].Result; {
		case r.RecoveredShare == 1:
			always[x.Num] = append(always[x.Num], y.Num)
		case r.RecoveredShare == 0 && r.Verdict == model.Draining:
			slow[x.Num] = append(slow[x.Num], y.Num)
		case r.RecoveredShare == 0:
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
				parts = append(parts, fmt.Sprintf("%s %s with %s %s", f.X, t.spans(f.X, xs[i:j]), f.Y, t.spans(f.Y, ys)))
			}
			i = j
		}
		return strings.Join(parts, "; ")
	}
	label := "All cells"
	if name != "" {
		label = fmt.Sprintf("**%s: %s**", strings.ReplaceAll(f.Panel, ".", " "), name)
	}
	n := t.Rows[idx[0]].Result.Replicates
	var s []string
	if a := describe(always); a != "" {
		s = append(s, fmt.Sprintf("all %d runs recover at %s", n, a))
	}
	if nv := describe(never); nv != "" {
		s = append(s, fmt.Sprintf("none recovers at %s", nv))
	}
	if sl := describe(slow); sl != "" {
		s = append(s, fmt.Sprintf("none has recovered when the run ends, but none is stuck either (each still draining) at %s", sl))
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
	for _, ys := range slow {
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
