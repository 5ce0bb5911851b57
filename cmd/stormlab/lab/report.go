package lab

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/plots"
	"github.com/stormlab/stormlab/reports"
)

// files are the lab folder's files: lab.csv (the model's result columns,
// measured on the real stack, a row per cell run, led by its grid index),
// series.csv (the lab's per-second series), the overlaid figures and
// report.md, the two side by side.
func (o *Outcome) files(s Settings) ([]reports.File, error) {
	g := o.Experiment.Grid
	pos := make([]int, len(o.Cells))
	labs := make([]model.Result, len(o.Cells))
	all := make([]model.Result, len(g.Cells()))
	for i := range o.Cells {
		pos[i] = o.Cells[i].Cell.Index
		labs[i] = o.Cells[i].Lab
		all[pos[i]] = o.Cells[i].Lab
	}
	files := []reports.File{
		{Name: "lab.csv", Write: func(w io.Writer) error { return reports.WriteShardRows(w, g, pos, labs, nil) }},
		{Name: "series.csv", Write: func(w io.Writer) error { return reports.WriteSeries(w, g, all) }},
	}
	var figs []plots.Figure
	if s.Figures {
		for i := range o.Cells {
			f, err := o.overlay(&o.Cells[i])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", o.Experiment.Name, err)
			}
			figs = append(figs, f)
			files = append(files, reports.File{Name: f.Name + ".png", Write: bytesOf(f.PNG)}, reports.File{Name: f.Name + ".svg", Write: bytesOf(f.SVG)})
		}
	}
	files = append(files, reports.File{Name: "report.md", Write: func(w io.Writer) error { return o.report(w, s, figs) }})
	return files, nil
}

func bytesOf(b []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	}
}

// overlay draws a cell's model and lab series over each other.
func (o *Outcome) overlay(c *Cell) (plots.Figure, error) {
	var faults [][2]float64
	for _, f := range c.Cell.Plan.FaultList {
		if f.Length > 0 {
			faults = append(faults, [2]float64{f.Start.Seconds(), (f.Start + f.Length).Seconds()})
		}
	}
	modelWhat := "model (its first run)"
	if c.Model.Replicates > 1 {
		modelWhat = fmt.Sprintf("model (the first of its %d runs)", c.Model.Replicates)
	}
	return plots.OverlayFigure(&plots.Overlay{
		Name:      fmt.Sprintf("cell-%d", c.Cell.Index),
		Title:     "Model and real gRPC: " + c.Cell.Label(),
		Subtitle:  fmt.Sprintf("%s; the lab at speed %v, one run", o.Experiment.Title, o.Speed),
		Model:     c.Model.Series,
		Lab:       c.Lab.Series,
		ModelWhat: modelWhat,
		LabWhat:   fmt.Sprintf("real gRPC on loopback at speed %v", o.Speed),
		Faults:    faults,
	})
}

// report writes report.md: per cell, each compared column with the model's
// value, the lab's, the tolerance and why, whether they agree, how well
// the machine kept up, and where the real libraries differ from the
// model's kinds; then the figures.
func (o *Outcome) report(w io.Writer, s Settings, figs []plots.Figure) error {
	e := o.Experiment
	var b strings.Builder
	fmt.Fprintf(&b, "# The lab: %s\n\n", e.Title)
	fmt.Fprintf(&b, "The cells below ran twice: in the model (`stormlab run`) and on a real stack on loopback — a gRPC service (grpc-go) per layer, the dependency as a gRPC server with the scenario's capacity, queue and faults, an open-loop load generator — at %v times the scenario's speed. Every lab number comes from counters in the real servers and clients; the verdicts come from the model's own health rule applied to them.\n\n", o.Speed)
	if s.Command != "" {
		fmt.Fprintf(&b, "Regenerate with `%s`. The lab's numbers vary from run to run (the real scheduler, loopback latency, the machine's load): the tolerances below say how far each column may.\n\n", s.Command)
	}
	dis := o.Disagreements()
	if dis == 0 {
		fmt.Fprintf(&b, "**Every compared column agrees** in the %d cells run.\n\n", len(o.Cells))
	} else {
		fmt.Fprintf(&b, "**%d compared columns disagree** beyond their tolerance; each is marked below.\n\n", dis)
	}
	b.WriteString("## Tolerances\n\n| column | tolerance | why |\n|---|---|---|\n")
	for _, c := range o.Columns {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.Name, toleranceText(c.Abs, c.Rel), plots.Escape(c.Why))
	}
	b.WriteString("\n")
	for i := range o.Cells {
		c := &o.Cells[i]
		fmt.Fprintf(&b, "## %s\n\n", c.Cell.Label())
		runs := "its run"
		if c.Model.Replicates > 1 {
			runs = fmt.Sprintf("the mean of its %d runs", c.Model.Replicates)
		}
		fmt.Fprintf(&b, "| column | model (%s) | lab (one run) | agrees |\n|---|---|---|---|\n", runs)
		for _, cmp := range c.Comparisons {
			mark := "yes"
			if !cmp.Agrees {
				mark = "**no**"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", cmp.Column.Name, valueText(cmp.Metric, cmp.Model), valueText(cmp.Metric, cmp.Lab), mark)
		}
		fmt.Fprintf(&b, "\nThe load generator kept up: its lag was %.3f s of the scenario's time at its 99th percentile (%.3f s at worst), and the lab used %.0f%% of the machine's CPU.",
			c.Keep.LagP99, c.Keep.LagMax, 100*c.Keep.CPU)
		if why := c.Keep.Behindness(); why != "" {
			b.WriteString(" " + why)
		} else {
			fmt.Fprintf(&b, " Each of the %d calls and answers crossed its hop in the tick the model has it in.", c.Keep.Crossings)
		}
		b.WriteString("\n\n")
		for _, f := range figs {
			if f.Name == fmt.Sprintf("cell-%d", c.Cell.Index) {
				fmt.Fprintf(&b, "![%s](%s.png)\n\n%s\n\n", plots.Escape(f.Title), f.Name, f.Caption)
			}
		}
	}
	notes := o.notes()
	if len(notes) > 0 {
		b.WriteString("## Where the real stack differs from the model\n\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "The lab took %.1f s of real time.\n", o.Took.Seconds())
	_, err := io.WriteString(w, b.String())
	return err
}

// notes are the cells' notes, each once, and what every lab run shares.
func (o *Outcome) notes() []string {
	out := []string{
		"The model's dependency answers a call in the tick it arrives in; the lab's answers at the end of that tick (a loss server, a flaky failure) or just after it (a waiting room served tick by tick), and the layers above pass answers up as they come, on loopback, in tens of microseconds to a few milliseconds. So a retry can be due a tick later than in the model, and a count that depends on the order of two events in one tick can differ by a call or two.",
		"Retries, their waits and circuit breakers are failsafe-go's (retrypolicy, circuitbreaker); a per-try timeout is a gRPC deadline on each try; each layer below the edge is a gRPC service whose handler calls the layer below, cancelling it when its caller gives up only where the scenario cancels abandoned work.",
	}
	for i := range o.Cells {
		for _, n := range o.Cells[i].Notes {
			out = appendOnce(out, n)
		}
	}
	return out
}

func toleranceText(abs, rel float64) string {
	switch {
	case abs == 0 && rel == 0:
		return "exact"
	case rel == 0:
		return fmt.Sprintf("± %v", abs)
	case abs == 0:
		return fmt.Sprintf("± %v%%", 100*rel)
	}
	return fmt.Sprintf("± %v or ± %v%%", abs, 100*rel)
}

func valueText(m model.Metric, v float64) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case m.Kind == "verdict":
		return model.Verdict(v).String()
	case m.Kind == "bool":
		if v == 1 {
			return "true"
		}
		return "false"
	}
	return plots.Number(v)
}
