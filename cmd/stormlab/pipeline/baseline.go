package pipeline

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/stormlab/stormlab/reports"
)

// ErrDeviation means check found differences, already printed: exit 1.
var ErrDeviation = errors.New("regenerated results deviate from the baselines")

// Baselines is the sink of stormlab check: each outcome compared with the
// committed results.csv, series.csv and tipping.csv in Dir/<name>/,
// numbers within the experiment's tolerance, the rest exactly.
type Baselines struct {
	Dir    string
	Stdout io.Writer // the table of deviations

	devs    []reports.Deviation
	missing int
}

// Plan skips each experiment without a baseline folder, saying how to
// create one.
func (b *Baselines) Plan(jobs []*Job) error {
	for _, j := range jobs {
		dir := filepath.Join(b.Dir, j.Exp.Name)
		if _, err := os.Stat(dir); err != nil {
			b.missing++
			j.Skip = fmt.Sprintf("%s: no baseline in %s; create one with `%s` and commit %s", j.Exp.Name, dir, createCommand(b.Dir, j.Exp.File), dir)
		}
	}
	return nil
}

// Put compares the outcome with its baseline.
func (b *Baselines) Put(o *Outcome) (string, error) {
	e := o.Job.Exp
	d, err := reports.Compare(b.Dir, &e.Report, e.Grid, o.Results)
	if err != nil {
		return "", err
	}
	dt, err := reports.CompareTipping(b.Dir, &e.Report, e.Grid, o.Tipping)
	if err != nil {
		return "", err
	}
	d = append(d, dt...)
	b.devs = append(b.devs, d...)
	status := "ok"
	if len(d) > 0 {
		status = fmt.Sprintf("%d deviations", len(d))
	}
	return fmt.Sprintf("%s: %d cells%s, %s", e.Name, len(o.Results), abortedText(o.Aborted()), status), nil
}

// Close prints every deviation found, after the last comparison.
func (b *Baselines) Close(interrupted bool) error {
	if interrupted || len(b.devs) == 0 {
		return nil
	}
	fmt.Fprintln(b.Stdout)
	return reports.PrintDeviations(b.Stdout, b.devs)
}

// Verdict is check's answer once the pipeline has run: ErrDeviation for
// any deviation, an error for experiments without a baseline, else nil.
func (b *Baselines) Verdict() error {
	switch {
	case len(b.devs) > 0:
		return ErrDeviation
	case b.missing > 0:
		return fmt.Errorf("%d experiment%s without a baseline", b.missing, plural(b.missing))
	}
	return nil
}
