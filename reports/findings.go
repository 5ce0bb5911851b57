package reports

import (
	"fmt"
	"math"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/plots"
)

// findings writes the report's findings from the results alone: the
// author's sentences, one line per cell for small grids, then what the
// figures say (where the system tips). No number in them is typed by hand.
func findings(r *spec.Report, g *sweep.Grid, results []model.Result) []string {
	cells := g.Cells()
	var out []string
	for _, f := range r.Findings {
		out = append(out, renderFinding(g, f, results))
	}
	if isMarkov(g) {
		return append(out, markovFindings(g, results)...)
	}
	out = append(out, tally(g, results))
	if len(cells) <= 8 {
		var lines []string
		for i := range results {
			lines = append(lines, "- "+cellSentence(&cells[i], &results[i]))
		}
		out = append(out, strings.Join(lines, "\n"))
	}
	return append(out, plots.Findings(g, results, r.Figures)...)
}

// cellSentence says what happened in one cell.
func cellSentence(c *sweep.Cell, r *model.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**: ", c.Label())
	if r.Aborted != "" {
		fmt.Fprintf(&b, "aborted, %s.", r.Aborted)
		return b.String()
	}
	switch {
	case r.Replicates > 1 && r.Verdict.Judged():
		fmt.Fprintf(&b, "%s of %d replicates %s", pct(r.RecoveredShare), r.Replicates, recoveredWord(c.Plan.Triggered()))
		if !math.IsNaN(r.RecoveryS) {
			fmt.Fprintf(&b, " (mean %s s after the fault)", plots.Number(r.RecoveryS))
		}
		if r.Verdict.Never() {
			fmt.Fprintf(&b, "; the cell as a whole is %s", r.Verdict)
		}
	default:
		b.WriteString(plots.Outcome(r, c.Plan.Triggered(), c.Plan.Run))
	}
	at, own := serversText(c.Plan)
	fmt.Fprintf(&b, "; calls at %s peaked at %s× %s in the busiest second", at, num1(r.PeakLoadX), baseText(c.Plan))
	if r.WindowRateX > 0 {
		fmt.Fprintf(&b, " (%s× on average during the fault)", num1(r.WindowRateX))
	}
	if r.PeakQueue > 0 {
		q := math.Round(r.PeakQueue)
		fmt.Fprintf(&b, ", %s queue at %s call%s", own, plots.Number(q), plural(int(q)))
	}
	switch {
	case r.Wasted() > 0:
		fmt.Fprintf(&b, ", and %s of %s work served callers who had already given up", pct(r.Wasted()), own)
	case r.PeakQueue > 0:
		fmt.Fprintf(&b, ", and none of %s work was wasted on callers who had given up", own)
	}
	fmt.Fprintf(&b, ". %s of %s requests succeeded, %s failed",
		plots.Number(math.Round(r.Successful)), plots.Number(math.Round(r.Requests)), plots.Number(math.Round(r.Failed)))
	if why := refusals(r); why != "" {
		fmt.Fprintf(&b, " (%s)", why)
	}
	if p := math.Round(r.Pending); p > 0 {
		verb := "were"
		if p == 1 {
			verb = "was"
		}
		fmt.Fprintf(&b, ", %s %s still waiting when the run ended", plots.Number(p), verb)
	}
	b.WriteString(".")
	if s := serviceVerdicts(c.Plan, r); s != "" {
		b.WriteString(" " + s)
	}
	return b.String()
}

// baseText names the arrival rate peak_load_x is measured against: "the
// base arrival rate (70 requests/s)", "the load at the start of its shape
// (20 requests/s)", "the burst (50 requests in its first second)".
func baseText(p *model.Plan) string {
	base := plots.Number(math.Round(p.BaseRate()*10) / 10)
	switch {
	case p.Arrivals == model.ArriveBurst:
		return fmt.Sprintf("the burst (%s requests in its first second)", base)
	case p.Arrivals == model.ArriveClosed && p.Load == 0:
		return "the rate requests started at before the fault"
	case len(p.Shape) > 0 && p.Fault.Has:
		return fmt.Sprintf("the load where the fault starts (%s requests/s)", base)
	case len(p.Shape) > 0:
		return fmt.Sprintf("the load at the start of its ramp (%s requests/s)", base)
	}
	return fmt.Sprintf("the base arrival rate (%s requests/s)", base)
}

// recoveredWord is what recovered means: after a fault (or an initial
// backlog), recovered; without either, healthy at the end.
func recoveredWord(triggered bool) string {
	if triggered {
		return "recovered"
	}
	return "were healthy at the end"
}

// tally counts the cells by verdict: "12 of 16 cells recovered within the
// 1h run; 3 are stuck, 1 still draining when it ended".
func tally(g *sweep.Grid, results []model.Result) string {
	cells := g.Cells()
	var n [4]int
	aborted, calm, triggered, chain := 0, 0, 0, 0 // calm: healthy at the end of a run without a fault
	never := 0                                    // stuck without a fault, unhealthy from the first health window on
	for i := range results {
		if results[i].Markov.Phase != model.PhaseNone {
			chain++ // solved, not simulated: the markov verdict tells
			continue
		}
		if cells[i].Plan.Triggered() {
			triggered++
		}
		switch {
		case results[i].Aborted != "":
			aborted++
		case results[i].Recovered() && !cells[i].Plan.Triggered():
			calm++
		default:
			n[results[i].Verdict]++
			if results[i].Verdict == model.Stuck && !cells[i].Plan.Triggered() && neverHealthy(cells[i].Plan, &results[i]) {
				never++
			}
		}
	}
	total := len(cells) - chain
	var s string
	switch {
	case n[model.NotJudged] == total:
		return fmt.Sprintf("No verdict: in none of the %d cells did a request arrive after the fault (or, without one, after the first tick), so there is no demand to judge recovery by; their outcome is in their successful and failed requests.", total)
	case triggered == 0:
		s = fmt.Sprintf("%s of %s cell%s, none with a fault, were healthy at the end of the %v run", count(calm), count(total), plural(total), g.Base.Duration)
	case calm > 0:
		s = fmt.Sprintf("%s of %s cells recovered within the %v run, and the %s without a fault were healthy at its end", count(n[model.Recovered]), count(total), g.Base.Duration, count(calm))
	default:
		s = fmt.Sprintf("%s of %s cell%s recovered within the %v run", count(n[model.Recovered]), count(total), plural(total), g.Base.Duration)
	}
	var rest []string
	switch {
	case n[model.Stuck] > 0 && triggered == 0:
		if k := n[model.Stuck] - never; k > 0 {
			rest = append(rest, fmt.Sprintf("%s unhealthy at the end, collapsed with no fault (the backlog no longer shrinking)", count(k)))
		}
		if never > 0 {
			rest = append(rest, fmt.Sprintf("%s never healthy: with no fault, below the health rule from their first window to the end", count(never)))
		}
	case n[model.Stuck] > 0:
		rest = append(rest, fmt.Sprintf("%s stuck (unhealthy at the end, the backlog no longer shrinking)", count(n[model.Stuck])))
	}
	if n[model.Draining] > 0 {
		rest = append(rest, fmt.Sprintf("%s still draining when it ended (unhealthy, the backlog still shrinking: a longer run would see them recover)", count(n[model.Draining])))
	}
	if n[model.NotJudged] > 0 {
		rest = append(rest, fmt.Sprintf("%s not judged (no request arrived after the fault, or after the first tick without one: their outcome is in their successful and failed requests)", count(n[model.NotJudged])))
	}
	if aborted > 0 {
		rest = append(rest, fmt.Sprintf("%d stopped at the memory cap (see the notes)", aborted))
	}
	if chain > 0 {
		rest = append(rest, fmt.Sprintf("%s solved on the markov engine, not simulated (their verdict is markov_verdict)", count(chain)))
	}
	if len(rest) > 0 {
		s += "; " + strings.Join(rest, ", ")
	}
	return s + "."
}

// neverHealthy reports whether every replicate of a cell was unhealthy
// from its first health window: its mean time to collapse is within that
// window (no replicate can collapse sooner).
func neverHealthy(p *model.Plan, r *model.Result) bool {
	window := float64(max(p.Health.WindowTicks, 1)*p.TickNs) / 1e9
	return r.Spread.Collapsed == 1 && r.CollapseS <= window
}

// count writes a count of cells with thousands separators: 11,224.
func count(n int) string { return plots.Number(float64(n)) }

// refusals says which policies refused tries, and how many each: the
// budget, a breaker, the deadline, pushback, and any a result does not
// attribute to one of them; and the failed tries whose error was not
// retryable. Empty when none.
func refusals(r *model.Result) string {
	var out []string
	rest := r.RetriesRefused - r.RefusedBudget - r.RefusedBreaker - r.RefusedDeadline - r.RefusedPushback
	for _, x := range []struct {
		n    float64
		what string
	}{
		{rest, "retries refused"},
		{r.RefusedBudget, "retries refused by the budget"},
		{r.RefusedBreaker, "tries failed at once by an open breaker"},
		{r.RefusedDeadline, "tries not started for want of time before the deadline"},
		{r.RefusedPushback, "retries not made after the dependency pushed back"},
		{r.NotRetryable, "failed tries not retried because their error was not retryable"},
	} {
		if n := math.Round(x.n); n > 0 {
			out = append(out, plots.Number(n)+" "+x.what)
		}
	}
	return strings.Join(out, ", ")
}

// missing is what a finding says in place of a value a cell does not have:
// for a recovery time, how the cell ended instead ("never: stuck", "not by
// the end of the run: still draining", "not judged"); for anything else,
// "never" (no collapse, no drain).
func missing(column string, r *model.Result) string {
	switch column {
	case "recovery_s", "after_change_s", "recovery_s_p50", "recovery_s_p90":
	default:
		return "never"
	}
	switch r.Verdict {
	case model.NotJudged:
		return "not judged (no demand after the fault)"
	case model.Draining:
		return "not by the end of the run, still draining: " + plots.Drain(r)
	case model.Stuck:
		return "never"
	}
	return "none (no fault to recover from)"
}

// renderFinding fills an author's finding with the numbers it refers to,
// and checks its claims: a claim that does not hold is said beside the
// sentence (ClaimFails), so that no report states it silently.
func renderFinding(g *sweep.Grid, f spec.Finding, results []model.Result) string {
	var b strings.Builder
	for _, p := range f.Parts {
		if p.Column == "" {
			b.WriteString(p.Text)
			continue
		}
		v, word := refValue(g, p, results)
		switch {
		case results[p.Cell].Aborted != "":
			b.WriteString("(aborted)")
		case math.IsNaN(v) && p.Column != "verdict":
			b.WriteString(missing(p.Column, &results[p.Cell]))
		case word != "":
			b.WriteString(word)
		case p.Format == "pct":
			b.WriteString(pct(v))
		case p.Format == "int":
			b.WriteString(plots.Number(math.Round(v)))
		case p.Format != "":
			fmt.Fprintf(&b, p.Format, v)
		case p.Column == spec.RuleOfThumb:
			b.WriteString(plots.Ratio(v) + " s")
		default:
			m, _ := g.Metric(p.Column)
			b.WriteString(human(m, v))
		}
	}
	if failed := failedClaims(g, f, results); len(failed) > 0 {
		fmt.Fprintf(&b, " %s %s.", ClaimFails, strings.Join(failed, "; "))
	}
	return b.String()
}
