package reports

import (
	"fmt"
	"math"
	"strings"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/plots"
)

// markovColumns are the columns of a markov experiment's results table.
var markovColumns = []string{"markov_verdict", "markov_queue_mean", "markov_orbit_mean", "markov_high_p", "markov_mixing_s", "markov_fill_s", "markov_drain_s", "markov_tip_s", "markov_recover_s"}

// isMarkov reports whether every cell of the grid runs the markov engine,
// whose report reads the chain's columns instead of a simulation's.
func isMarkov(g *sweep.Grid) bool {
	cells := g.Cells()
	for i := range cells {
		if cells[i].Plan.Engine != model.EngineMarkov {
			return false
		}
	}
	return len(cells) > 0
}

// markovFindings says how many cells the chain judges healthy, metastable
// and overloaded, and, along the first axis, where the verdict first
// leaves healthy.
func markovFindings(g *sweep.Grid, results []model.Result) []string {
	var by [4]int
	for i := range results {
		by[results[i].Markov.Phase]++
	}
	out := []string{fmt.Sprintf("The chain judges %d of the %d cells healthy, %d metastable and %d overloaded. Metastable: each mode holds at least %s of the stationary probability (the high mode: more calls at the server than capacity × timeout) and both the expected time from empty to a full queue and the time from full back to empty exceed the run's duration (%s); otherwise overloaded when the high mode holds more than half the probability, healthy when it holds less.",
		by[model.PhaseHealthy], len(results), by[model.PhaseMetastable], by[model.PhaseOverloaded], fmt.Sprintf("%g%%", 100*model.MetastableMass), g.Base.Duration)}
	return out
}

// markovHowJudged replaces the simulation's health rules for a markov
// experiment.
func markovHowJudged(b *strings.Builder) {
	b.WriteString("### How the chain is read\n\n")
	b.WriteString("Each cell is one solve of the server's continuous-time Markov chain (markov engine: no seeds, no replicates, no time series; the simulation's columns are empty). " +
		"The chain's states are the calls at the server and the timed-out calls waiting to retry; its rates, and where they approximate a simulation, are in [experiments/README.md](../../experiments/README.md#the-markov-engine). " +
		"The stationary distribution, the spectral gap and the expected hitting times are exact solves of that chain (banded elimination without subtraction).\n\n")
}

// markovTable is the results table of a markov experiment: a row per cell
// up to maxTableRows, else per value of the first axis, the cells of each
// verdict and the highest probability of the high mode.
func markovTable(b *strings.Builder, g *sweep.Grid, results []model.Result) {
	cells := g.Cells()
	if len(cells) <= maxTableRows {
		var head []string
		for _, a := range g.Axes {
			head = append(head, a.Name)
		}
		head = append(head, markovColumns...)
		b.WriteString("| " + strings.Join(head, " | ") + " |\n|" + strings.Repeat("---|", len(head)) + "\n")
		for i := range results {
			var row []string
			for _, p := range cells[i].Params {
				row = append(row, plots.Escape(p.Text))
			}
			for _, c := range markovColumns {
				m, _ := model.LookupMetric(c)
				v := m.Value(&results[i])
				if m.Kind == "phase" {
					row = append(row, model.MarkovPhase(v).String())
					continue
				}
				row = append(row, human(m, v))
			}
			b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
		return
	}
	group := g.Axes[0].Name
	fmt.Fprintf(b, "| %s | cells | healthy | metastable | overloaded | highest markov_high_p |\n|---|---|---|---|---|---|\n", group)
	for _, v := range g.Axes[0].Values {
		var n int
		var by [4]int
		top := math.NaN()
		for i := range results {
			if got, _ := cells[i].Get(group); got.Text != v.Text {
				continue
			}
			n++
			by[results[i].Markov.Phase]++
			if p := results[i].Markov.HighP; math.IsNaN(top) || p > top {
				top = p
			}
		}
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %s |\n", plots.Escape(v.Text), n, by[model.PhaseHealthy], by[model.PhaseMetastable], by[model.PhaseOverloaded], plots.Ratio(top))
	}
}
