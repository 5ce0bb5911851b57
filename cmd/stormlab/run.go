package main

import (
	"context"
	"flag"
	"io"
	"os"
	"runtime"

	"github.com/stormlab/stormlab/cmd/stormlab/pipeline"
	"github.com/stormlab/stormlab/experiments/sweep"
)

const runUsage = `Usage: stormlab run [-out DIR] [-j N] [-figures=false] [-refine] [-max-memory SIZE] [-shard K/N|auto] [-set PATH=VALUE ...] FILE.toml ...

Runs every cell of each experiment and writes DIR/<name>/ (results.csv,
series.csv, report.md, the figures), then DIR/README.md. DIR is reports,
or out for a run that does not regenerate a report whole (-set, -shard,
-figures=false, -refine, or cells stopped at the memory cap). With -shard
K/N it runs only shard K of N and writes a shard folder for stormlab merge.

Examples:
  stormlab run experiments/blip-30s.toml
  stormlab run -j 1 -out /tmp/r experiments/blip-*.toml
  stormlab run -set scenario.dependency.capacity=110 -set 'grid.budget=[0, 0.1]' experiments/budget-headroom.toml
  stormlab run -set scenario.layer.0.timeout=2s experiments/blip-30s.toml
  stormlab run -set grid.blip=5s experiments/blip-phase.toml   # one blip length
  stormlab run -refine experiments/blip-30s.toml
  stormlab run -shard 0/2 experiments/blip-phase.toml          # writes out/blip-phase.shard-0-of-2
  stormlab run -shard 1/2 experiments/blip-phase.toml          # and out/blip-phase.shard-1-of-2

` + manualRef + `

Flags:
`

// runFlags are stormlab run's flags. stormlab merge builds them again from
// what its shards record, to write the command that regenerates the report.
type runFlags struct {
	out     *string
	workers *int
	figures *bool
	refine  *bool
	shard   *string
	mem     pipeline.MemoryFlag
	sets    setFlags
}

// newRunFlags defines stormlab run's flags.
func newRunFlags(stderr io.Writer) (*flag.FlagSet, *runFlags) {
	fs := newFlagSet(stderr, "run", runUsage)
	f := &runFlags{
		out:     fs.String("out", pipeline.DefaultOut, "write reports under `DIR` (without it, "+pipeline.ScratchOut+" for a run that does not regenerate a report whole: -set, -shard, -figures=false, -refine, or cells stopped at the memory cap)"),
		workers: fs.Int("j", runtime.NumCPU(), "simulate up to `N` cells at once (results never depend on it)"),
		figures: fs.Bool("figures", true, "render the figures (-figures=false writes only the CSVs and report.md, fastest)"),
		refine:  fs.Bool("refine", false, "run every cell again at half its tick and report the verdicts that change"),
		shard:   fs.String("shard", "", "run only shard `K/N` (K from 0) of the cells and write a shard folder for stormlab merge; auto: K and N from a Kubernetes Indexed Job or a Slurm job array"),
	}
	fs.Var(&f.mem, "max-memory", pipeline.MemoryUsage)
	fs.Var(&f.sets, "set", "override a key of the files: `PATH=VALUE` (repeatable), e.g. scenario.load=80, grid.blip=5s")
	return fs, f
}

// cmdRun is stormlab run: its flags, then the pipeline into report
// folders, or with -shard into shard folders.
func cmdRun(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs, f := newRunFlags(stderr)
	files, err := parse(fs, args, true)
	if err != nil {
		return err
	}
	if *f.workers < 1 {
		return &usageError{"-j must be at least 1"}
	}
	if *f.out == "" {
		return &usageError{"-out: give a folder (it is empty); without -out a run writes under " + pipeline.DefaultOut}
	}
	var shard *sweep.Shard
	if given(fs, "shard") {
		s, err := parseShardFlag(*f.shard, os.Getenv)
		if err != nil {
			return err
		}
		if given(fs, "figures") {
			return &usageError{"-figures: a shard writes no figures; give -figures=false to stormlab merge"}
		}
		shard = &s
	} else {
		noteEngine(stderr, os.Getenv)
	}
	exps, err := pipeline.Load(files, f.sets)
	if err != nil {
		return err
	}
	for _, e := range exps {
		e.Command = regenerate(fs, e.File)
	}
	jobs, err := pipeline.Jobs(exps, *f.refine)
	if err != nil {
		return err
	}
	to := pipeline.ChooseOut(stderr, *f.out, given(fs, "out"), scratchReason(fs, f))
	p := &pipeline.Pipeline{
		Stages: pipeline.Stages{Budget: pipeline.Budget{Total: f.mem.Total(), Workers: *f.workers}, Meter: pipeline.Bar(stderr)},
		Stdout: stdout, Stderr: stderr,
	}
	if shard == nil {
		return p.Run(ctx, jobs, &pipeline.Reports{Out: to, Figures: *f.figures, Stderr: stderr})
	}
	for _, j := range jobs {
		j.Narrow(*shard)
	}
	return p.Run(ctx, jobs, &pipeline.Shards{Dir: to.Dir, Sets: f.sets, Flags: shardFlags(fs), Version: pipeline.BuildVersion()})
}

// scratchReason says why a run with these flags does not regenerate its
// experiments' reports whole, as stormlab run FILE.toml does: it changes
// the files (-set), runs part of the cells (-shard), draws no figures
// (-figures=false) or adds columns (-refine). It is "" for a run that
// does; such a run can still fall short when cells reach the memory cap,
// which only the run itself tells (pipeline.OutPlan.ForExperiment).
func scratchReason(fs *flag.FlagSet, f *runFlags) string {
	switch {
	case len(f.sets) > 0:
		return "-set changes the experiment"
	case given(fs, "shard"):
		return "-shard runs a part of the cells"
	case !*f.figures:
		return "-figures=false draws no figures"
	case *f.refine:
		return "-refine adds columns to results.csv"
	}
	return ""
}
