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
	rec, aborted := 0, 0
	for i := range results {
		switch {
		case results[i].Aborted != "":
			aborted++
		case results[i].Recovered:
			rec++
		}
	}
	for _, f := range r.Findings {
		out = append(out, renderFinding(g, f, results))
	}
	s := fmt.Sprintf("%d of %d cell%s recovered within the %v run; %d never did",
		rec, len(cells), plural(len(cells)), g.Base.Duration, len(cells)-rec-aborted)
	if aborted > 0 {
		s += fmt.Sprintf("; %d stopped at the memory cap (see the notes)", aborted)
	}
	out = append(out, s+".")
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
	_, _, fault := c.Scenario.FaultWindow()
	switch {
	case !fault && r.Recovered:
		b.WriteString("no fault, healthy at the end of the run")
	case !fault:
		b.WriteString("no fault, unhealthy at the end of the run")
	case r.Replicates > 1:
		fmt.Fprintf(&b, "%s of %d replicates recovered", pct(r.RecoveredShare), r.Replicates)
		if !math.IsNaN(r.RecoveryS) {
			fmt.Fprintf(&b, " (mean %s s after the fault)", plots.Number(r.RecoveryS))
		}
	case r.Recovered && r.RecoveryS == 0:
		b.WriteString("healthy as soon as the fault ended")
	case r.Recovered:
		fmt.Fprintf(&b, "recovered %s s after the fault ended", plots.Number(r.RecoveryS))
	default:
		fmt.Fprintf(&b, "never recovered within the %v run", c.Scenario.Duration)
	}
	fmt.Fprintf(&b, "; calls at the dependency peaked at %s× the base arrival rate", num1(r.PeakLoadX))
	if r.WindowRateX > 0 {
		fmt.Fprintf(&b, " (%s× on average during the fault)", num1(r.WindowRateX))
	}
	if r.PeakQueue > 0 {
		fmt.Fprintf(&b, ", the queue at %s calls", plots.Number(math.Round(r.PeakQueue)))
	}
	switch {
	case r.Wasted() > 0:
		fmt.Fprintf(&b, ", and %s of the dependency's work served callers who had already given up", pct(r.Wasted()))
	case r.PeakQueue > 0:
		b.WriteString(", and none of the dependency's work was wasted on callers who had given up")
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
	return b.String()
}

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

// renderFinding fills an author's finding with the numbers it refers to.
func renderFinding(g *sweep.Grid, f spec.Finding, results []model.Result) string {
	var b strings.Builder
	for _, p := range f.Parts {
		if p.Column == "" {
			b.WriteString(p.Text)
			continue
		}
		m, _ := g.Metric(p.Column)
		v := m.Value(&results[p.Cell])
		if p.SD {
			v = m.SD(&results[p.Cell])
		}
		switch {
		case results[p.Cell].Aborted != "":
			b.WriteString("(aborted)")
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
