package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/stormlab/stormlab/cmd/stormlab/pipeline"
)

const checkUsage = `Usage: stormlab check [-j N] [-max-memory SIZE] [-baseline DIR] [FILE.toml ...]

Regenerates each experiment (default: experiments/*.toml) and compares its
results.csv, series.csv and tipping.csv with the baselines in DIR/<name>/:
numbers within the experiment's tolerance, booleans and text exactly.
Prints every deviation and exits 1 if there is any.

Examples:
  stormlab check
  stormlab check experiments/blip-30s.toml

` + manualRef + `

Flags:
`

// checkFlags are stormlab check's flags.
type checkFlags struct {
	baseline *string
	workers  *int
	mem      pipeline.MemoryFlag
}

// newCheckFlags defines stormlab check's flags.
func newCheckFlags(stderr io.Writer) (*flag.FlagSet, *checkFlags) {
	fs := newFlagSet(stderr, "check", checkUsage)
	f := &checkFlags{
		baseline: fs.String("baseline", pipeline.DefaultOut, "compare with the baselines under `DIR`"),
		workers:  fs.Int("j", runtime.NumCPU(), "simulate up to `N` cells at once"),
	}
	fs.Var(&f.mem, "max-memory", pipeline.MemoryUsage)
	return fs, f
}

// cmdCheck is stormlab check: its flags, then the pipeline into a
// comparison with the baselines, then its verdict.
func cmdCheck(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs, f := newCheckFlags(stderr)
	files, err := parse(fs, args, false)
	if err != nil {
		return err
	}
	if files, err = orAllExperiments(files); err != nil {
		return err
	}
	if info, err := os.Stat(*f.baseline); err != nil || !info.IsDir() {
		return &usageError{fmt.Sprintf("-baseline %s: no such folder", *f.baseline)}
	}
	exps, err := pipeline.Load(files, nil)
	if err != nil {
		return err
	}
	jobs, err := pipeline.Jobs(exps, false)
	if err != nil {
		return err
	}
	p := &pipeline.Pipeline{
		Stages: pipeline.Stages{Budget: pipeline.Budget{Total: f.mem.Total(), Workers: max(1, *f.workers)}, Meter: pipeline.Bar(stderr)},
		Stdout: stdout, Stderr: stderr, Quiet: true,
	}
	sink := &pipeline.Baselines{Dir: *f.baseline, Stdout: stdout}
	if err := p.Run(ctx, jobs, sink); err != nil {
		return err
	}
	return sink.Verdict()
}
