package lab

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/reports"
)

// Settings are what stormlab lab was asked, beside the experiments.
type Settings struct {
	Out     string  // write DIR/<name>/lab/ under it
	Speed   float64 // 0: the experiment's [lab] speed
	Figures bool
	Command string // the command line, for report.md
}

// Cell is one cell the lab ran: the model's result of it, the lab's, and
// their comparison column by column.
type Cell struct {
	Cell         sweep.Cell
	Model, Lab   model.Result
	Keep         Keep
	Notes        []string
	Comparisons  []comparison
	Disagreement int // columns that do not agree
}

// Outcome is an experiment run in the lab.
type Outcome struct {
	Experiment *experiments.Experiment
	Speed      float64
	Columns    []spec.LabColumn
	Cells      []Cell
	Took       time.Duration
}

// Disagreements counts the cells' columns that do not agree.
func (o *Outcome) Disagreements() int {
	n := 0
	for i := range o.Cells {
		n += o.Cells[i].Disagreement
	}
	return n
}

// UnsupportedError is an experiment whose cells the lab cannot run:
// exit code 2, nothing run or written.
type UnsupportedError struct {
	File, Cell string
	Err        error
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%s: cell %s: %v", e.File, e.Cell, e.Err)
}

// DistortedError is a lab run the machine could not keep up with: it is
// not reported (exit code 1).
type DistortedError struct {
	File, Cell, Why string
}

func (e *DistortedError) Error() string {
	return fmt.Sprintf("%s: cell %s: %s; nothing was written: run at a lower -speed, or on a quieter machine", e.File, e.Cell, e.Why)
}

// Cells are the cells of e the lab runs: those its [lab] only selects, or
// every cell.
func Cells(e *experiments.Experiment) []sweep.Cell {
	var out []sweep.Cell
	for _, c := range e.Grid.Cells() {
		if e.Lab == nil || len(e.Lab.Only) == 0 || slices.ContainsFunc(e.Lab.Only, func(only map[string][]string) bool {
			return (&sweep.Selector{Only: only}).Holds(&c)
		}) {
			out = append(out, c)
		}
	}
	return out
}

// Check says whether the lab can run e's cells: an *UnsupportedError for
// the first it cannot.
func Check(e *experiments.Experiment) error {
	for _, c := range Cells(e) {
		if why := unsupported(c.Plan); len(why) > 0 {
			return &UnsupportedError{File: e.File, Cell: c.Label(), Err: &supportError{why}}
		}
	}
	return nil
}

// RunSweepCell runs cell c of an experiment on the real stack, with its
// windows, the load seeded as the model's first replicate of c seeds it.
func RunSweepCell(ctx context.Context, c sweep.Cell, opt Options) (*Run, error) {
	opt.Windows = c.Windows
	return RunCell(ctx, c.Plan, model.ReplicateSeed(c.Seed, 0), opt)
}

// Experiment runs e's lab cells on the real stack beside the model and
// compares them; progress goes to log, a line per cell.
func Experiment(ctx context.Context, e *experiments.Experiment, s Settings, log io.Writer) (*Outcome, error) {
	if err := Check(e); err != nil {
		return nil, err
	}
	start := time.Now()
	o := &Outcome{Experiment: e, Speed: s.Speed, Columns: defaultColumns()}
	if e.Lab != nil {
		o.Columns = e.Lab.Columns
		if o.Speed == 0 {
			o.Speed = e.Lab.Speed
		}
	}
	if o.Speed == 0 {
		o.Speed = 1
	}
	for _, c := range Cells(e) {
		mr, err := model.RunPlan(ctx, c.Plan, c.Seed, model.Options{Series: true, Windows: c.Windows})
		if err != nil {
			return nil, err
		}
		run, err := RunSweepCell(ctx, c, Options{Speed: o.Speed})
		if err != nil {
			return nil, fmt.Errorf("%s: cell %s: %w", e.File, c.Label(), err)
		}
		if why := run.Keep.Distorted(); why != "" {
			return nil, &DistortedError{File: e.File, Cell: c.Label(), Why: why}
		}
		lc := Cell{Cell: c, Model: mr, Lab: run.Result, Keep: run.Keep, Notes: run.Notes}
		for _, col := range o.Columns {
			m, ok := e.Grid.Metric(col.Name)
			if !ok {
				return nil, fmt.Errorf("%s: [lab] column %s is not a column of its results", e.File, col.Name)
			}
			cmp := compare(col, m, &mr, &run.Result)
			if !cmp.Agrees {
				lc.Disagreement++
			}
			lc.Comparisons = append(lc.Comparisons, cmp)
		}
		o.Cells = append(o.Cells, lc)
		fmt.Fprintf(log, "lab %s: %s: %d of %d columns agree (lag p99 %.3f s, CPU %.0f%%, %d of %d crossings behind the model's ticks)\n", e.Name, c.Label(), len(lc.Comparisons)-lc.Disagreement, len(lc.Comparisons), run.Keep.LagP99, 100*run.Keep.CPU, run.Keep.Behind, run.Keep.Crossings)
	}
	o.Took = time.Since(start)
	return o, nil
}

// Write writes the outcome into s.Out/<name>/lab/: lab.csv, series.csv,
// report.md and the overlaid figures.
func Write(o *Outcome, s Settings) error {
	files, err := o.files(s)
	if err != nil {
		return err
	}
	return reports.WriteLab(s.Out, o.Experiment.Name, files)
}
