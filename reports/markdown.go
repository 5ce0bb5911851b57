package reports

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/plots"
)

// maxTableRows is the largest grid report.md lists cell by cell; larger
// grids get a summary per panel and the full table stays in results.csv.
const maxTableRows = 40

// WriteReport writes report.md: the question, the findings computed from the
// results, the figures, the scenario, the results.
// With refined results (each cell again at half its tick, in cell order) a
// section says which verdicts change; cells aborted at the memory cap are
// listed in the notes.
func WriteReport(w io.Writer, r *spec.Report, g *sweep.Grid, results, refined []model.Result, figs []plots.Figure) error {
	return writeReport(w, r, g, results, refined, figs, nil)
}

// writeReport is WriteReport with the experiment's tipping searches, if
// any: their answer opens the report.
func writeReport(w io.Writer, r *spec.Report, g *sweep.Grid, results, refined []model.Result, figs []plots.Figure, tip *tippingPart) error {
	var b strings.Builder
	title := r.Title
	if title == "" {
		title = r.Name
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	if r.Question != "" {
		fmt.Fprintf(&b, "%s\n\n", strings.TrimSpace(r.Question))
	}
	cells := g.Cells()
	markov := isMarkov(g)
	command := r.Command
	if command == "" {
		command = "stormlab run " + r.File
	}
	fmt.Fprintf(&b, "Experiment `%s` · engine `%s` · %d cell%s · seed %d · regenerate with `%s`\n\n",
		r.File, g.Base.Engine, len(cells), plural(len(cells)), g.Seed, command)
	if len(r.Overrides) > 0 {
		sets := make([]string, len(r.Overrides))
		for i, o := range r.Overrides {
			sets[i] = "`-set " + o + "`"
		}
		fmt.Fprintf(&b, "**Overrides.** This run changes the file with %s. The title and the question above are the file's words, written for its own values; the findings, figures, scenario and results below are this run's.\n\n",
			strings.Join(sets, ", "))
	}

	if len(r.Answer) > 0 {
		b.WriteString("## Answer\n\n")
		for _, f := range r.Answer {
			b.WriteString(renderFinding(g, f, results) + "\n\n")
		}
	}
	if tip != nil {
		tip.section(&b, g)
	}

	b.WriteString("## Findings\n\n")
	for _, p := range findings(r, g, results) {
		b.WriteString(p + "\n\n")
	}

	if len(figs) > 0 {
		b.WriteString("## Figures\n\n")
		for _, f := range figs {
			fmt.Fprintf(&b, "![%s](%s.png)\n\n*%s* ([SVG](%s.svg))\n\n", f.Title, f.Name, strings.TrimSpace(f.Caption), f.Name)
		}
	}

	b.WriteString("## Scenario\n\n")
	b.WriteString("Keys that differ from stormlab's defaults (every key, with its default and range: [experiments/README.md](../../experiments/README.md#scenario-keys)).\n\n")
	b.WriteString("| key | value | unit | meaning |\n|---|---|---|---|\n")
	for _, k := range sweep.Differs(g.Base, model.Default()) {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", k.Path, k.Value, k.Unit, plots.Escape(k.Doc))
	}
	b.WriteString("\n")
	if markov {
		markovHowJudged(&b)
	} else {
		healthSection(&b, g)
	}
	if ax, ok := g.Axis("policy"); ok && len(ax.Sets) > 0 {
		b.WriteString("### Policies\n\n| policy | sets |\n|---|---|\n")
		for _, p := range ax.Sets {
			var sets []string
			for _, o := range p.Overrides {
				sets = append(sets, fmt.Sprintf("`%s = %v`", strings.TrimPrefix(o.Key, keyPrefix(o.Key)), show(o.Value)))
			}
			fmt.Fprintf(&b, "| %s | %s |\n", plots.Escape(p.Name), strings.Join(sets, ", "))
		}
		b.WriteString("\n")
	}
	if len(g.Axes) > 0 {
		b.WriteString("### Grid\n\n| axis | sets | values |\n|---|---|---|\n")
		for _, a := range g.Axes {
			sets := "`" + a.Path + "`"
			if a.Path == "" {
				sets = "the policy"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", a.Name, sets, plots.Escape(summarizeValues(a.Values)))
		}
		b.WriteString("\n")
	}

	b.WriteString("## Results\n\n")
	if markov {
		markovTable(&b, g, results)
	} else if len(cells) <= maxTableRows {
		resultsTable(&b, g, results)
	} else {
		summaryTable(&b, g, results)
	}
	b.WriteString("\nEvery cell, every column: [results.csv](results.csv)")
	if hasSeries(results) {
		b.WriteString("; per-second time series: [series.csv](series.csv)")
	}
	b.WriteString(". Column meanings: [experiments/README.md](../../experiments/README.md#resultscsv).\n")

	if refined != nil {
		refinedSection(&b, g, results, refined)
	}

	var notes []string
	for i := range results {
		if a := abortReason(&results[i], refined, i); a != "" {
			notes = append(notes, fmt.Sprintf("- %s: aborted, %s", cells[i].Label(), a))
		}
		for _, w := range results[i].Warnings {
			notes = append(notes, fmt.Sprintf("- %s: %s", cells[i].Label(), w))
		}
	}
	for _, o := range r.Omitted {
		notes = append(notes, "- "+o)
	}
	if len(notes) > 0 {
		b.WriteString("\n## Notes\n\n" + strings.Join(notes, "\n") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// refinedSection says which verdicts change when every cell runs again at
// half its tick.
func refinedSection(b *strings.Builder, g *sweep.Grid, results, refined []model.Result) {
	cells := g.Cells()
	b.WriteString("\n## At half the tick\n\n")
	var flips []string
	for i := range results {
		if tickFlip(&results[i], &refined[i]) {
			flips = append(flips, fmt.Sprintf("- %s: %s at a tick of %v, %s at %v", cells[i].Label(),
				verdict(&results[i]), cells[i].Plan.Tick, verdict(&refined[i]), cells[i].Plan.Tick/2))
		}
	}
	if len(flips) == 0 {
		fmt.Fprintf(b, "Every cell ran again at half its tick (`-refine`); no verdict changed.\n")
		return
	}
	fmt.Fprintf(b, "Every cell ran again at half its tick (`-refine`). %d of %d verdict%s changed; a verdict that changes with the tick hangs on the tick rather than on the system: run such cells at a finer tick before trusting them.\n\n%s\n",
		len(flips), len(cells), plural(len(cells)), strings.Join(flips, "\n"))
}

// verdict is how a cell ended, in words.
func verdict(r *model.Result) string {
	switch {
	case r.Recovered() && !math.IsNaN(r.RecoveryS):
		return fmt.Sprintf("recovers (after %s s)", plots.Number(r.RecoveryS))
	case r.Recovered():
		return "healthy at the end"
	case r.Verdict == model.Draining:
		return "still draining at the end"
	}
	return r.Verdict.String()
}

// keyPrefix is the part of a policy override's file key before the scenario
// key ("policy.2.").
func keyPrefix(key string) string {
	parts := strings.SplitN(key, ".", 3)
	if len(parts) == 3 {
		return parts[0] + "." + parts[1] + "."
	}
	return ""
}

func show(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case []map[string]any, []any:
		return "[…]"
	}
	return fmt.Sprint(v)
}

// summarizeValues lists an axis's values, eliding the middle of long lists;
// values that hold commas themselves ("p95, cap 2%") are parted by
// semicolons, so that each reads as one.
func summarizeValues(vs []sweep.Value) string {
	texts := make([]string, len(vs))
	sep := ", "
	for i, v := range vs {
		texts[i] = v.Text
		if strings.Contains(v.Text, ",") {
			sep = "; "
		}
	}
	if len(texts) > 8 {
		return strings.Join([]string{texts[0], texts[1], texts[2], "…", fmt.Sprintf("%s (%d values)", texts[len(texts)-1], len(texts))}, sep)
	}
	return strings.Join(texts, sep)
}

// reportColumns are the metrics report.md tables show.
var reportColumns = []string{"recovery_s", "amplification", "peak_load_x", "window_rate_x", "peak_queue", "successful", "failed", "retries_refused", "wasted"}

func resultsTable(b *strings.Builder, g *sweep.Grid, results []model.Result) {
	cells := g.Cells()
	var head []string
	for _, a := range g.Axes {
		head = append(head, a.Name)
	}
	head = append(head, "recovered")
	head = append(head, reportColumns...)
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|" + strings.Repeat("---|", len(head)) + "\n")
	for i := range results {
		r := &results[i]
		var row []string
		for _, p := range cells[i].Params {
			row = append(row, plots.Escape(p.Text))
		}
		row = append(row, recoveredText(r))
		for _, c := range reportColumns {
			m, _ := model.LookupMetric(c)
			row = append(row, human(m, m.Value(r)))
		}
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
}

// summaryTable groups a large grid by its first axis (the policy, when there
// is one) and gives each group's share of recovered cells and its worst
// recovery.
func summaryTable(b *strings.Builder, g *sweep.Grid, results []model.Result) {
	cells := g.Cells()
	group := g.Axes[0].Name
	fmt.Fprintf(b, "| %s | cells | recovered | stuck | still draining | not judged | slowest recovery | highest peak load |\n|---|---|---|---|---|---|---|---|\n", group)
	for _, v := range g.Axes[0].Values {
		var n int
		var by [4]int
		slowest, peak := math.NaN(), 0.0
		for i := range results {
			if got, _ := cells[i].Get(group); got.Text != v.Text {
				continue
			}
			n++
			r := &results[i]
			if r.Aborted != "" {
				continue
			}
			by[r.Verdict]++
			if r.Recovered() && !math.IsNaN(r.RecoveryS) {
				if math.IsNaN(slowest) || r.RecoveryS > slowest {
					slowest = r.RecoveryS
				}
			}
			peak = math.Max(peak, r.PeakLoadX)
		}
		slow := "—"
		if !math.IsNaN(slowest) {
			slow = fmt.Sprintf("%s s", plots.Number(slowest))
		}
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %d | %s | %s× |\n", plots.Escape(v.Text), n, by[model.Recovered], by[model.Stuck], by[model.Draining], by[model.NotJudged], slow, num1(peak))
	}
}

func recoveredText(r *model.Result) string {
	if r.Aborted != "" {
		return "aborted"
	}
	switch {
	case !r.Verdict.Judged():
		return "not judged"
	case r.Replicates > 1:
		return fmt.Sprintf("%s of %d", pct(r.RecoveredShare), r.Replicates)
	case r.Recovered():
		return "yes"
	case r.Verdict == model.Draining:
		return "**no**, still draining"
	}
	return "**no**, stuck"
}

// human formats a metric for a Markdown table.
func human(m model.Metric, v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	switch {
	case m.Name == "wasted":
		return pct(v)
	case m.Kind == "count":
		return plots.Number(v)
	case m.Kind == "seconds":
		return plots.Number(v) + " s"
	case strings.HasSuffix(m.Name, "_x") || m.Name == "amplification":
		return plots.Ratio(v) + "×"
	}
	return plots.Ratio(v)
}

func pct(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }

func num1(x float64) string { return fmt.Sprintf("%.1f", x) }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
