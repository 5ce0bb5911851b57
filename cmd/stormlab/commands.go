package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/plots"
	"github.com/stormlab/stormlab/reports"
)

// setFlags collects repeated -set PATH=VALUE flags.
type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, " ") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

// parse parses flags that may come before, between or after the file
// arguments, and returns the files. -h returns flag.ErrHelp, which exits 0;
// with need set, no file is a usage error.
func parse(fs *flag.FlagSet, args []string, need bool) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &usageError{err.Error()}
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if need && len(files) == 0 {
		fs.Usage()
		return nil, &usageError{fs.Name() + " needs at least one experiment file"}
	}
	return files, nil
}

func newFlagSet(stderr io.Writer, name, text string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, text)
		fs.PrintDefaults()
	}
	return fs
}

const runUsage = `Usage: stormlab run [-out DIR] [-j N] [-figures=false] [-set PATH=VALUE ...] FILE.toml ...

Runs every cell of each experiment and writes DIR/<name>/: results.csv,
series.csv, report.md and the figures (PNG and SVG), then DIR/README.md.

Examples:
  stormlab run experiments/blip-30s.toml
  stormlab run -j 1 -out /tmp/r experiments/*.toml
  stormlab run -set scenario.dependency.capacity=110 -set 'grid.budget=[0, 0.1]' experiments/budget-headroom.toml
  stormlab run -set scenario.layer.0.timeout=2s experiments/blip-30s.toml
  stormlab run -set grid.blip=5s experiments/blip-phase.toml   # one blip length

Flags:
`

func cmdRun(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(stderr, "run", runUsage)
	out := fs.String("out", "reports", "write reports under `DIR`")
	workers := fs.Int("j", runtime.NumCPU(), "simulate up to `N` cells at once (results never depend on it)")
	figures := fs.Bool("figures", true, "render the figures (-figures=false writes only the CSVs and report.md, fastest)")
	var sets setFlags
	fs.Var(&sets, "set", "override a key of the files: `PATH=VALUE` (repeatable), e.g. scenario.load=80, grid.blip=5s")
	files, err := parse(fs, args, true)
	if err != nil {
		return err
	}
	if *workers < 1 {
		return &usageError{"-j must be at least 1"}
	}
	exps, err := loadAll(files, sets)
	if err != nil {
		return err
	}
	for _, e := range exps {
		start := time.Now()
		results, err := simulate(ctx, stderr, e, *workers)
		if err != nil {
			return err
		}
		warn(stderr, e, results)
		if err := reports.Write(*out, &e.Report, e.Grid, results, reports.Options{NoFigures: !*figures}); err != nil {
			return fmt.Errorf("%s: %w", e.Name, err)
		}
		fmt.Fprintf(stdout, "%s: %d cells in %.2fs → %s\n", e.Name, len(results), time.Since(start).Seconds(), filepath.Join(*out, e.Name))
	}
	return reports.WriteIndex(*out)
}

const checkUsage = `Usage: stormlab check [-j N] [-baseline DIR] [FILE.toml ...]

Regenerates each experiment (default: experiments/*.toml) and compares its
results.csv and series.csv with the committed baselines in DIR/<name>/:
numbers within the experiment's tolerance, booleans and text exactly. Prints
every deviation and exits 1 if there is any.

Examples:
  stormlab check
  stormlab check experiments/blip-30s.toml

Flags:
`

func cmdCheck(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(stderr, "check", checkUsage)
	base := fs.String("baseline", "reports", "compare with the baselines under `DIR`")
	workers := fs.Int("j", runtime.NumCPU(), "simulate up to `N` cells at once")
	files, err := parse(fs, args, false)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		if files, err = filepath.Glob("experiments/*.toml"); err != nil || len(files) == 0 {
			return &usageError{"no experiment files given and none in experiments/"}
		}
	}
	exps, err := loadAll(files, nil)
	if err != nil {
		return err
	}
	var devs []reports.Deviation
	for _, e := range exps {
		results, err := simulate(ctx, stderr, e, max(1, *workers))
		if err != nil {
			return err
		}
		d, err := reports.Compare(*base, &e.Report, e.Grid, results)
		if err != nil {
			return err
		}
		devs = append(devs, d...)
		status := "ok"
		if len(d) > 0 {
			status = fmt.Sprintf("%d deviations", len(d))
		}
		fmt.Fprintf(stdout, "%s: %d cells, %s\n", e.Name, len(results), status)
	}
	if len(devs) == 0 {
		return nil
	}
	fmt.Fprintln(stdout)
	if err := reports.PrintDeviations(stdout, devs); err != nil {
		return err
	}
	return errDeviation
}

const validateUsage = `Usage: stormlab validate [-set PATH=VALUE ...] FILE.toml ...

Parses and validates each experiment (every key, every grid cell) without
running it.

Example:
  stormlab validate experiments/*.toml
`

func cmdValidate(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(stderr, "validate", validateUsage)
	var sets setFlags
	fs.Var(&sets, "set", "override a key: `PATH=VALUE` (repeatable)")
	files, err := parse(fs, args, true)
	if err != nil {
		return err
	}
	exps, err := loadAll(files, sets)
	if err != nil {
		return err
	}
	for _, e := range exps {
		fmt.Fprintf(stdout, "%s: ok, %d cells\n", e.File, len(e.Grid.Cells()))
	}
	return nil
}

func cmdKeys(stdout, stderr io.Writer, args []string) error {
	if len(args) > 0 {
		return &usageError{"keys takes no arguments"}
	}
	fmt.Fprint(stdout, reports.KeysMarkdown())
	return nil
}

// loadAll loads every file before anything runs, so bad input stops the
// command before a single file is written.
func loadAll(files []string, sets []string) ([]*experiments.Experiment, error) {
	var exps []*experiments.Experiment
	names := map[string]string{}
	for _, f := range files {
		e, err := experiments.Load(f, sets)
		if err != nil {
			return nil, err
		}
		if err := e.CheckFigures(plots.Check); err != nil {
			return nil, err
		}
		if other, dup := names[e.Name]; dup {
			return nil, &experiments.Error{File: f, Key: "name", Msg: fmt.Sprintf("%q is also the name of %s; reports would overwrite each other", e.Name, other)}
		}
		names[e.Name] = f
		exps = append(exps, e)
	}
	return exps, nil
}

// simulate runs one experiment's cells with a progress bar on stderr.
func simulate(ctx context.Context, stderr io.Writer, e *experiments.Experiment, workers int) ([]model.Result, error) {
	p := startProgress(stderr, e.Name, len(e.Grid.Cells()))
	results, err := sweep.Run(ctx, e.Grid.Cells(), workers, p.done)
	p.stop()
	if err != nil && ctx.Err() == nil {
		return nil, fmt.Errorf("%s: %w", e.Name, err)
	}
	return results, err
}

// warn prints the warnings the cells carry; report.md lists them as notes.
func warn(stderr io.Writer, e *experiments.Experiment, results []model.Result) {
	cells := e.Grid.Cells()
	for i := range results {
		for _, w := range results[i].Warnings {
			fmt.Fprintf(stderr, "stormlab: warning: %s: cell %s: %s\n", e.Name, cells[i].Label(), w)
		}
	}
}
