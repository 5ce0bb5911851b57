package pipeline

import (
	"context"
	"fmt"
	"io"
	"time"
)

// Sink is the pipeline's last stage: where each outcome goes. Reports
// writes report folders (run, merge), Shards shard folders (run -shard),
// Baselines compares with committed ones (check).
type Sink interface {
	// Plan is called once, before anything runs, with every job: it checks
	// every folder the sink may write, so that nothing is simulated for a
	// run that could not be written, and sets Skip on the jobs it has
	// nothing to do for.
	Plan(jobs []*Job) error
	// Put writes or compares an outcome and returns the line that tells it
	// on stdout.
	Put(o *Outcome) (string, error)
	// Close ends the sink after the last outcome, or after Ctrl-C
	// (interrupted) with the outcomes put so far.
	Close(interrupted bool) error
}

// Pipeline takes jobs through the stages in one order: load (Load, before
// the jobs are made), simulate, refine, search, warn, and a Sink. run,
// run -shard, check and merge differ only in their jobs, their sink and
// their settings here; stormlab serve runs the Stages on their own.
type Pipeline struct {
	Stages
	Stdout io.Writer // a line per experiment
	Stderr io.Writer // notes and warnings
	// Quiet leaves out the warnings of cells and of claims (check prints
	// only its comparison).
	Quiet bool
}

// Run plans the sink, sets the process's memory limit to the budget's
// Total, then takes each job through the stages and puts its outcome into
// the sink. It returns the first error; an *AbortedError when cells or
// searches stopped at the memory cap, after every outcome is put. When ctx
// is cancelled the sink is closed with what was put, and the error is
// ctx's.
func (p *Pipeline) Run(ctx context.Context, jobs []*Job, sink Sink) error {
	if err := sink.Plan(jobs); err != nil {
		return err
	}
	defer limitMemory(p.Budget.Total)()
	aborted := 0
	for _, j := range jobs {
		if j.Skip != "" {
			fmt.Fprintln(p.Stdout, j.Skip)
			continue
		}
		o, err := p.compute(ctx, j)
		if err != nil {
			if ctx.Err() != nil {
				sink.Close(true) // keep what finished; the error is the interrupt
			}
			return err
		}
		if !p.Quiet {
			warn(p.Stderr, o)
		}
		line, err := sink.Put(o)
		if err != nil {
			return err
		}
		if o.abortedHere() > 0 {
			fmt.Fprintf(p.Stderr, "stormlab: %s: %s\n", j.Exp.Name, p.Budget.Text(len(j.Cells)))
		}
		aborted += o.Aborted()
		fmt.Fprintln(p.Stdout, line)
	}
	if err := sink.Close(false); err != nil {
		return err
	}
	if aborted > 0 {
		return &AbortedError{aborted}
	}
	return nil
}

// compute runs a job's stages: simulate its cells (unless its shards did),
// refine them at half the tick, and search a whole grid's boundaries. An
// error names the stage's label, unless it is ctx's.
func (p *Pipeline) compute(ctx context.Context, j *Job) (*Outcome, error) {
	o := &Outcome{Job: j, Start: time.Now()}
	label := j.label()
	named := func(name string, err error) error {
		if err != nil && ctx.Err() == nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return err
	}
	var err error
	if m := j.Merged; m != nil {
		o.Results, o.Half = m.Results, m.Half
	} else {
		if o.Results, err = p.Simulate(ctx, label, j.Cells); err != nil {
			return nil, named(label, err)
		}
		if j.Half != nil {
			half := label + " at half the tick"
			if o.Half, err = p.Simulate(ctx, half, j.Half); err != nil {
				return nil, named(half, err)
			}
		}
	}
	if j.Part == nil {
		search := j.Exp.Name + " tipping points"
		if o.Tipping, err = p.Search(ctx, search, j.Exp.Grid, j.Exp.Tipping); err != nil {
			return nil, named(search, err)
		}
	}
	return o, nil
}
