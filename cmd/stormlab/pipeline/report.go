package pipeline

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/stormlab/stormlab/reports"
)

// Reports is the sink of stormlab run and merge: each experiment's folder
// (results.csv, series.csv, tipping.csv, report.md, the figures) where Out
// puts it, then the index of every folder written into.
type Reports struct {
	Out OutPlan
	// Figures renders the figures; without, only the CSVs and report.md.
	Figures bool
	Stderr  io.Writer // where a report sent to Out.Scratch is noted

	written []string // the folders written into, for their indexes
}

// Plan checks every folder and index the run may write.
func (r *Reports) Plan(jobs []*Job) error {
	names := make([]string, len(jobs))
	for i, j := range jobs {
		names[i] = j.Exp.Name
	}
	return r.Out.Check(names)
}

// Put writes the experiment's folder.
func (r *Reports) Put(o *Outcome) (string, error) {
	e, n := o.Job.Exp, o.Aborted()
	dir := r.Out.ForExperiment(r.Stderr, e.Name, n)
	opt := reports.Options{NoFigures: !r.Figures, Refined: o.Half, Tipping: o.Tipping}
	if err := reports.Write(dir, &e.Report, e.Grid, o.Results, opt); err != nil {
		return "", fmt.Errorf("%s: %w", e.Name, err)
	}
	if !slices.Contains(r.written, dir) {
		r.written = append(r.written, dir)
	}
	to := filepath.Join(dir, e.Name)
	if m := o.Job.Merged; m != nil {
		return fmt.Sprintf("%s: %d cells from %d shards%s%s → %s", e.Name, len(o.Results), m.Shards, o.flips(), abortedText(n), to), nil
	}
	return fmt.Sprintf("%s: %d cells%s in %.2fs%s%s → %s", e.Name, len(o.Results), o.searched(), o.elapsed(), o.flips(), abortedText(n), to), nil
}

// Close writes the index of every folder written into: after an interrupt
// too, so that the experiments that finished are listed.
func (r *Reports) Close(bool) error {
	for _, dir := range r.written {
		if err := reports.WriteIndex(dir); err != nil {
			return err
		}
	}
	return nil
}
