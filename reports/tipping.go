package reports

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/experiments/tipping"
	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/plots"
)

// tippingPart is what an experiment's boundary searches add to its folder:
// the searches, their figures, and notes on figures left out.
type tippingPart struct {
	o     *tipping.Outcome
	figs  []plots.Figure
	notes []string
}

// newTippingPart renders the searches' figures, unless opt says not to; nil
// without searches.
func newTippingPart(g *sweep.Grid, opt Options) (*tippingPart, error) {
	if opt.Tipping == nil {
		return nil, nil
	}
	t := &tippingPart{o: opt.Tipping}
	if !opt.NoFigures {
		var err error
		if t.figs, t.notes, err = plots.Tipping(g, opt.Tipping); err != nil {
			return nil, fmt.Errorf("figures: %w", err)
		}
	}
	return t, nil
}

// figures are the searches' figures; none without searches.
func (t *tippingPart) figures() []plots.Figure {
	if t == nil {
		return nil
	}
	return t.figs
}

// section writes the report's first section: per search, how it was done
// and what it cost against a uniform grid, the regions, the boundary, how
// it compares with the rule of thumb, the figure and a table.
func (t *tippingPart) section(b *strings.Builder, g *sweep.Grid) {
	o := t.o
	b.WriteString("## Tipping points\n\n")
	searched, grid := o.Evaluations()
	fmt.Fprintf(b, "%d boundary %s ran %s cell evaluations in all, where uniform grids of the same resolution over the same ranges run %s: %s× fewer. Every search is in [tipping.csv](tipping.csv).\n\n",
		o.Count(), searches(o.Count()), plots.Number(float64(searched)), plots.Number(float64(grid)), fewer(searched, grid))
	figs := map[string]plots.Figure{}
	for _, f := range t.figs {
		figs[f.Name] = f
	}
	for k := range o.Specs {
		sp := &o.Specs[k]
		ss := o.Searches[k]
		if sp.Title != "" {
			fmt.Fprintf(b, "### %s\n\n", sp.Title)
		} else {
			fmt.Fprintf(b, "### %s\n\n", capitalize(tipping.KeyLabel(sp)))
		}
		for _, p := range searchFindings(g, sp, ss) {
			b.WriteString(p + "\n\n")
		}
		if f, ok := figs[sp.Name]; ok {
			fmt.Fprintf(b, "![%s](%s.png)\n\n*%s* ([SVG](%s.svg))\n\n", f.Title, f.Name, strings.TrimSpace(f.Caption), f.Name)
		}
		searchTable(b, g, sp, ss)
	}
	for _, n := range t.notes {
		b.WriteString(n + "\n\n")
	}
}

// searches is "search" or "searches" for n of them.
func searches(n int) string {
	if n == 1 {
		return "search"
	}
	return "searches"
}

// fewer writes how many times fewer evaluations a search made: "48".
func fewer(searched, grid int) string {
	if searched == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f", float64(grid)/float64(searched))
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// searchFindings are the sentences about one spec's searches: the method
// and its cost, the regions, the boundary, the rule of thumb, and every
// answer that is not a single step.
func searchFindings(g *sweep.Grid, t *spec.Tipping, ss []tipping.Search) []string {
	var out []string
	exact := len(ss) > 0 && ss[0].Exact()
	others := otherAxes(ss)
	how := fmt.Sprintf("For each %s, a search over the %s from %s to %s, to within %s", others, tipping.KeyLabel(t), keyValue(t, t.From), keyValue(t, t.To), keyValue(t, t.Tolerance))
	switch {
	case len(ss) > 0 && ss[0].Chain():
		how += " (the markov engine solves each point's chain, so the answer is exact to that; " + chainTips(ss[0].Cell.Plan.Run) + ")"
	case exact:
		how += " (the queue engine is deterministic, so the answer is exact to that)"
	default:
		how += fmt.Sprintf(" (the stochastic engine: %d seeded replicates per point; a point tips when at least half of them never recover)", replicatesOf(&ss[0]))
	}
	searched, grid := 0, 0
	for i := range ss {
		searched += ss[i].Evaluations
		grid += ss[i].GridPoints
	}
	how += fmt.Sprintf(": %d points evenly over the range, then bisection between neighbours whose verdicts differ. The %d %s used %s evaluations; a uniform grid of the same resolution runs %s, %s× more.",
		t.Scan, len(ss), searches(len(ss)), plots.Number(float64(searched)), plots.Number(float64(grid)), fewer(searched, grid))
	if t.Trigger() {
		how += " Each search first runs the cell without any fault: a system unhealthy without a trigger is overloaded and needs no search."
	}
	out = append(out, how)
	axis := t.X
	if t.Trigger() {
		if s := regionSentence(g, t, ss, axis); s != "" {
			out = append(out, s)
		}
	}
	if s := boundarySentence(g, t, ss, axis); s != "" {
		out = append(out, s)
	}
	if s := ruleSentences(g, t, ss, axis); len(s) > 0 {
		out = append(out, s...)
	}
	if s := drainingSentence(t, ss); s != "" {
		out = append(out, s)
	}
	if s := chainSentence(g, ss, axis); s != "" {
		out = append(out, s)
	}
	for i := range ss {
		s := &ss[i]
		switch s.Status {
		case tipping.NonMonotone:
			out = append(out, fmt.Sprintf("**Non-monotone at %s**: %s. The estimate is the first change from recovering to tipping seen from the mild end; the figure colours that column point by point.", where(s), searchNote(s)))
		case tipping.Already:
			out = append(out, fmt.Sprintf("At %s %s: widen the range towards the mild end to find the boundary.", where(s), searchNote(s)))
		case tipping.Aborted:
			out = append(out, fmt.Sprintf("At %s %s; the search stopped there.", where(s), searchNote(s)))
		}
	}
	if !exact {
		out = append(out, "The interval of each estimate runs from the nearest point searched on its mild side whose Wilson 95% interval of the share that tips lies wholly below one half to the nearest on its severe side whose interval lies wholly above; more replicates narrow the Wilson intervals, so points nearer the boundary become certain and the interval narrows. Each end is a 95% statement about its own point: with few replicates a point near the boundary can look certain by chance.")
	}
	return out
}

// drainingSentence names the searches whose tipping point leaves a backlog
// that still drains when the run ends: not metastable, only slower than the
// run. Empty when there are none.
func drainingSentence(t *spec.Tipping, ss []tipping.Search) string {
	var parts []string
	stuck := 0
	for i := range ss {
		e := ss[i].End
		switch {
		case e == nil:
		case e.Draining:
			parts = append(parts, fmt.Sprintf("%s (%s calls waiting, %s fewer a second: healthy about %s s after the end)",
				where(&ss[i]), plots.Number(e.Queue), plots.Number(math.Round(e.Rate*10)/10), plots.Number(math.Round(e.Left))))
		default:
			stuck++
		}
	}
	d := ss[0].Cell.Plan.Run
	switch {
	case len(parts) > 0:
		return fmt.Sprintf("A point tips when the system is still unhealthy when the %v run ends. At %d of the tipping points found, the backlog still drains then: the outage is not metastable there, only slower to clear than the run is long, and a longer run would see it recover (yellow in the figure): %s. At the other %d, the backlog no longer shrinks when the run ends: stuck.",
			d, len(parts), strings.Join(parts, "; "), stuck)
	case stuck > 0:
		return fmt.Sprintf("A point tips when the system is still unhealthy when the %v run ends; at every tipping point found, the backlog no longer shrinks by then: stuck, so a longer run would not see it recover.", d)
	}
	return ""
}

// chainTips states when a point the markov engine solved tips, with the
// thresholds of the chain's verdict (model.MarkovPhase) and the run's
// duration, its horizon.
func chainTips(horizon model.Duration) string {
	return fmt.Sprintf("a point tips when the chain is not healthy: metastable, each mode (the high mode: more calls at the server than capacity × timeout) holding at least %g%% of the stationary probability and both the expected time from empty to a full queue and from full back to empty exceeding the run's %v, or overloaded, the high mode holding more than half",
		100*model.MetastableMass, horizon)
}

// chainSentence says, for a markov search, the chain's verdict at each
// tipping point found: where the server becomes metastable, and where it
// goes from healthy straight to overloaded. Empty for another engine.
func chainSentence(g *sweep.Grid, ss []tipping.Search, axis string) string {
	if len(ss) == 0 || !ss[0].Chain() {
		return ""
	}
	var found []int
	for i := range ss {
		if ss[i].Tips != nil {
			found = append(found, i)
		}
	}
	if len(found) == 0 {
		return ""
	}
	verdict := func(s *tipping.Search) string { return s.Tips.Phase.String() }
	var p string
	if axis == "" {
		p = verdict(&ss[found[0]])
	} else {
		p = strings.Join(byValue(g, ss, axis, found, verdict), ", ")
	}
	return "At the tipping point found, the severe end of the bracket, the chain is " + p + "."
}

// otherAxes names the searches' other values in words: "load", "policy and
// load", "cell" when there are none.
func otherAxes(ss []tipping.Search) string {
	if len(ss) == 0 || len(ss[0].Params) == 0 {
		return "cell"
	}
	var names []string
	for _, p := range ss[0].Params {
		names = append(names, p.Axis)
	}
	return strings.Join(names, " and ")
}

// byValue groups the searches by the text of a value computed for each,
// listing each group's values on axis as spans: "5s at load 30, 4s at load
// 35–40".
func byValue(g *sweep.Grid, ss []tipping.Search, axis string, idx []int, text func(s *tipping.Search) string) []string {
	type group struct {
		text string
		xs   []float64
	}
	var groups []group
	for _, i := range idx {
		v, _ := (&sweep.Cell{Params: ss[i].Params}).Get(axis)
		tx := text(&ss[i])
		if n := len(groups); n > 0 && groups[n-1].text == tx {
			groups[n-1].xs = append(groups[n-1].xs, v.Num)
			continue
		}
		groups = append(groups, group{tx, []float64{v.Num}})
	}
	var out []string
	for _, gr := range groups {
		out = append(out, fmt.Sprintf("%s at %s %s", gr.text, axis, plots.Spans(g, axis, gr.xs)))
	}
	return out
}

// panelsOf splits the searches by their values on the axes other than axis,
// in order: one group per panel of the figure.
func panelsOf(ss []tipping.Search, axis string) (labels []string, groups [][]int) {
	index := map[string]int{}
	for i := range ss {
		var others []sweep.Param
		for _, p := range ss[i].Params {
			if p.Axis != axis {
				others = append(others, p)
			}
		}
		k := ""
		if len(others) > 0 {
			k = where(&tipping.Search{Params: others})
		}
		j, ok := index[k]
		if !ok {
			j = len(labels)
			index[k] = j
			labels = append(labels, k)
			groups = append(groups, nil)
		}
		groups[j] = append(groups[j], i)
	}
	return labels, groups
}

// regionSentence says, per panel, where the system is stable, vulnerable
// and overloaded along axis.
func regionSentence(g *sweep.Grid, t *spec.Tipping, ss []tipping.Search, axis string) string {
	if axis == "" {
		return ""
	}
	labels, groups := panelsOf(ss, axis)
	var parts []string
	for j, idx := range groups {
		by := map[tipping.Region][]float64{}
		for _, i := range idx {
			v, _ := (&sweep.Cell{Params: ss[i].Params}).Get(axis)
			by[ss[i].Region] = append(by[ss[i].Region], v.Num)
		}
		var ps []string
		for _, r := range []tipping.Region{tipping.Stable, tipping.Vulnerable, tipping.Overload} {
			if xs := by[r]; len(xs) > 0 {
				sort.Float64s(xs)
				ps = append(ps, fmt.Sprintf("%s at %s %s", r, axis, plots.Spans(g, axis, xs)))
			}
		}
		p := strings.Join(ps, ", ")
		if labels[j] != "" {
			p = "**" + labels[j] + "**: " + p
		}
		parts = append(parts, p)
	}
	large := "large"
	if t.Duration {
		large = "long"
	}
	return fmt.Sprintf("Regions (stable: no %s up to %s tips it; vulnerable: a %s enough one does; overloaded: unhealthy without any fault). %s.",
		tipping.KeyLabel(t), keyValue(t, t.To), large, capitalize(strings.Join(parts, "; ")))
}

// boundarySentence gives, per panel, the critical value along axis.
func boundarySentence(g *sweep.Grid, t *spec.Tipping, ss []tipping.Search, axis string) string {
	labels, groups := panelsOf(ss, axis)
	var parts []string
	for j, idx := range groups {
		var found []int
		for _, i := range idx {
			if !math.IsNaN(ss[i].Critical) {
				found = append(found, i)
			}
		}
		if len(found) == 0 {
			continue
		}
		var p string
		if axis == "" {
			p = criticalText(t, &ss[found[0]])
		} else {
			p = strings.Join(byValue(g, ss, axis, found, func(s *tipping.Search) string { return criticalText(t, s) }), ", ")
		}
		if labels[j] != "" {
			p = "**" + labels[j] + "**: " + p
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	return capitalize(tipping.Mildest(t, ss[0].Exact())) + ": " + strings.Join(parts, "; ") + "."
}

// criticalText writes a search's estimate, with its interval for a
// stochastic engine: "5s", "1.23s (95% interval 1.1s–1.4s)".
func criticalText(t *spec.Tipping, s *tipping.Search) string {
	x := keyValue(t, roundTo(s.Critical, t))
	if s.Exact() {
		return x
	}
	lo, hi := "below the range", "beyond the range"
	if !math.IsNaN(s.Lo) {
		lo = keyValue(t, s.Lo)
	}
	if !math.IsNaN(s.Hi) {
		hi = keyValue(t, s.Hi)
	}
	return fmt.Sprintf("%s (95%% interval %s to %s)", x, lo, hi)
}

// roundTo rounds an interpolated estimate to a tenth of the tolerance.
func roundTo(x float64, t *spec.Tipping) float64 {
	step := t.Tolerance / 10
	if t.Duration {
		step = math.Max(step, 1e-3)
	}
	return math.Round(x/step) * step
}

// searchTable lists the searches: their values, region, estimate, bracket,
// interval, the rule of thumb and the evaluations.
func searchTable(b *strings.Builder, g *sweep.Grid, t *spec.Tipping, ss []tipping.Search) {
	if len(ss) == 0 {
		return
	}
	exact := ss[0].Exact()
	var head []string
	for _, p := range ss[0].Params {
		head = append(head, p.Axis)
	}
	if t.Trigger() {
		head = append(head, "region")
	}
	bracket := "bracket (recovers / tips)"
	switch {
	case ss[0].Chain():
		bracket = "bracket (healthy / not)"
	case !exact:
		bracket = "bracket (most recover / most tip)"
	}
	head = append(head, strings.TrimPrefix(tipping.Mildest(t, exact), "the "), bracket)
	if !exact {
		head = append(head, "95% interval")
	}
	head = append(head, "rule of thumb", "evaluations")
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|" + strings.Repeat("---|", len(head)) + "\n")
	for i := range ss {
		s := &ss[i]
		var row []string
		for _, p := range s.Params {
			row = append(row, plots.Escape(p.Text))
		}
		if t.Trigger() {
			row = append(row, string(s.Region))
		}
		crit := "—"
		switch {
		case !math.IsNaN(s.Critical):
			crit = keyValue(t, roundTo(s.Critical, t))
			if s.Status == tipping.NonMonotone {
				crit += " (non-monotone)"
			}
			if s.End != nil && s.End.Draining {
				crit += " (still draining at the end)"
			}
		case s.Status == tipping.Nothing:
			crit = "none up to " + keyValue(t, t.To)
		case s.Status != "":
			crit = string(s.Status)
		}
		row = append(row, crit)
		if s.Recovers != nil {
			row = append(row, keyValue(t, s.Recovers.Value)+" / "+keyValue(t, s.Tips.Value))
		} else {
			row = append(row, "—")
		}
		if !exact {
			ci := "—"
			if !math.IsNaN(s.Critical) {
				ci = orText(t, s.Lo, "…") + " to " + orText(t, s.Hi, "…")
			}
			row = append(row, ci)
		}
		if r, ok := s.RuleOfThumb(); ok {
			row = append(row, ruleValue(t, r))
		} else {
			row = append(row, "—")
		}
		row = append(row, fmt.Sprintf("%d of %d", s.Evaluations, s.GridPoints))
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	b.WriteString("\n")
}

func orText(t *spec.Tipping, x float64, none string) string {
	if math.IsNaN(x) {
		return none
	}
	return keyValue(t, x)
}
