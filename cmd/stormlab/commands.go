package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/experiments/tipping"
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

const runUsage = `Usage: stormlab run [-out DIR] [-j N] [-figures=false] [-refine] [-max-memory SIZE] [-shard K/N|auto] [-set PATH=VALUE ...] FILE.toml ...

Runs every cell of each experiment and writes DIR/<name>/: results.csv,
series.csv, report.md and the figures (PNG and SVG), then DIR/README.md.
DIR is reports, or out for a run that does not regenerate a report whole
(-set, -shard, -figures=false, -refine, or cells stopped at the memory
cap), which says so on stderr. stormlab replaces only folders it wrote
(they hold a .stormlab file) and an index it wrote (its first line is
stormlab's marker).

With -shard K/N it runs only shard K (from 0) of N of each experiment's
cells, split by estimated cost, and writes DIR/<name>.shard-K-of-N/ (DIR
is out unless -out says otherwise) for stormlab merge, which writes what a
single run writes. -shard auto takes K and N from a Kubernetes Indexed Job
(JOB_COMPLETION_INDEX, with STORMLAB_SHARD_COUNT set to the Job's
completions) or a Slurm job array (SLURM_ARRAY_TASK_ID and
SLURM_ARRAY_TASK_COUNT). A shard already complete in DIR with the same
fingerprint is skipped.

Examples:
  stormlab run experiments/blip-30s.toml
  stormlab run -j 1 -out /tmp/r experiments/*.toml
  stormlab run -set scenario.dependency.capacity=110 -set 'grid.budget=[0, 0.1]' experiments/budget-headroom.toml
  stormlab run -set scenario.layer.0.timeout=2s experiments/blip-30s.toml
  stormlab run -set grid.blip=5s experiments/blip-phase.toml   # one blip length
  stormlab run -refine experiments/blip-30s.toml
  stormlab run -shard 0/2 experiments/blip-phase.toml          # writes out/blip-phase.shard-0-of-2
  stormlab run -shard 1/2 experiments/blip-phase.toml          # and out/blip-phase.shard-1-of-2

Flags:
`

// outDefault and scratchOut are where run writes: the committed reports, or
// a folder git ignores when -set changes the files or -shard writes shards.
const (
	outDefault = "reports"
	scratchOut = "out"
)

// runFlags are stormlab run's flags. stormlab merge builds them again from
// what its shards record, to write the command that regenerates the report.
type runFlags struct {
	out     *string
	workers *int
	figures *bool
	refine  *bool
	shard   *string
	mem     memoryFlag
	sets    setFlags
}

// newRunFlags defines stormlab run's flags.
func newRunFlags(stderr io.Writer) (*flag.FlagSet, *runFlags) {
	fs := newFlagSet(stderr, "run", runUsage)
	f := &runFlags{
		out:     fs.String("out", outDefault, "write reports under `DIR` (without it, "+scratchOut+" for a run that does not regenerate a report whole: -set, -shard, -figures=false, -refine, or cells stopped at the memory cap)"),
		workers: fs.Int("j", runtime.NumCPU(), "simulate up to `N` cells at once (results never depend on it)"),
		figures: fs.Bool("figures", true, "render the figures (-figures=false writes only the CSVs and report.md, fastest)"),
		refine:  fs.Bool("refine", false, "run every cell again at half its tick and report the verdicts that change"),
		shard:   fs.String("shard", "", "run only shard `K/N` (K from 0) of the cells and write a shard folder for stormlab merge; auto: K and N from a Kubernetes Indexed Job or a Slurm job array"),
	}
	fs.Var(&f.mem, "max-memory", memoryUsage)
	fs.Var(&f.sets, "set", "override a key of the files: `PATH=VALUE` (repeatable), e.g. scenario.load=80, grid.blip=5s")
	return fs, f
}

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
		return &usageError{"-out: give a folder (it is empty); without -out a run writes under " + outDefault}
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
	exps, err := loadAll(files, f.sets)
	if err != nil {
		return err
	}
	refined := make([][]sweep.Cell, len(exps))
	for i, e := range exps {
		e.Command = regenerate(fs, e.File)
		if *f.refine {
			if refined[i], err = halfTick(e); err != nil {
				return err
			}
		}
	}
	to := chooseOut(stderr, fs, f.out, scratchReason(fs, f))
	mem := memoryBudget{total: f.mem.total(), workers: *f.workers}
	if shard != nil {
		return runShard(ctx, stdout, stderr, fs, f, *shard, exps, refined, mem)
	}
	names := make([]string, len(exps))
	for i, e := range exps {
		names[i] = e.Name
	}
	if err := to.check(names); err != nil {
		return err
	}
	defer limitMemory(mem.total)()
	aborted := 0
	var written []string // the folders written into, for their indexes
	index := func() error {
		for _, dir := range written {
			if err := reports.WriteIndex(dir); err != nil {
				return err
			}
		}
		return nil
	}
	for i, e := range exps {
		start := time.Now()
		results, err := simulate(ctx, stderr, e.Name, e.Grid.Cells(), mem)
		var half []model.Result
		if err == nil && *f.refine {
			half, err = simulate(ctx, stderr, e.Name+" at half the tick", refined[i], mem)
		}
		var tip *tipping.Outcome
		if err == nil {
			tip, err = searchTipping(ctx, stderr, e, mem.pool(*f.workers))
		}
		if err != nil {
			if ctx.Err() != nil {
				index() // the experiments finished so far
			}
			return err
		}
		warn(stderr, e.Name, e.Grid.Cells(), results)
		warnClaims(stderr, e, results)
		n := reports.CountAborted(results) + reports.CountAborted(half) + abortedSearches(tip)
		dir := to.forExperiment(stderr, e.Name, n)
		if err := writeReport(dir, e, results, half, tip, *f.figures); err != nil {
			return err
		}
		if !slices.Contains(written, dir) {
			written = append(written, dir)
		}
		if n > 0 {
			fmt.Fprintf(stderr, "stormlab: %s: %s\n", e.Name, mem.text(len(e.Grid.Cells())))
		}
		aborted += n
		fmt.Fprintf(stdout, "%s: %d cells%s in %.2fs%s%s → %s\n", e.Name, len(results), searchedText(tip), time.Since(start).Seconds(),
			flips(results, half), abortedText(n), filepath.Join(dir, e.Name))
	}
	if err := index(); err != nil {
		return err
	}
	if aborted > 0 {
		return &abortedError{aborted}
	}
	return nil
}

// given reports whether the flag was set on the command line.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// regenerate is the command line that writes the same report again: the
// flags that change what it holds or where it goes, then the file.
func regenerate(fs *flag.FlagSet, file string) string {
	parts := []string{"stormlab", "run"}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "j", "shard":
		case "set":
			for _, s := range *f.Value.(*setFlags) {
				parts = append(parts, "-set", shellQuote(s))
			}
		case "refine", "figures":
			if f.Value.String() == "true" {
				parts = append(parts, "-"+f.Name)
			} else {
				parts = append(parts, "-"+f.Name+"=false")
			}
		default:
			parts = append(parts, "-"+f.Name, shellQuote(f.Value.String()))
		}
	})
	return strings.Join(append(parts, shellQuote(file)), " ")
}

// shellQuote quotes s for sh when it holds anything but plain characters.
func shellQuote(s string) string {
	plain := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// halfTick builds every cell of the experiment again at half its tick, for
// -refine; a cell that cannot be refined is bad input.
func halfTick(e *experiments.Experiment) ([]sweep.Cell, error) {
	cells := e.Grid.Cells()
	out := make([]sweep.Cell, len(cells))
	for i := range cells {
		c, err := cells[i].Refined()
		if err != nil {
			return nil, &experiments.Error{File: e.File, Key: "-refine", Msg: fmt.Sprintf("cell %s: %v", cells[i].Label(), err)}
		}
		out[i] = c
	}
	return out, nil
}

// flips says, for a run with -refine, how many verdicts change at half the
// tick.
func flips(results, half []model.Result) string {
	if half == nil {
		return ""
	}
	return fmt.Sprintf(", %d of %d verdicts change at half the tick", reports.TickFlips(results, half), len(results))
}

// abortedText says how many cells were stopped at the memory cap.
func abortedText(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d stopped at the memory cap", n)
}

// abortedError is a run in which cells were stopped at the memory cap: the
// reports are written, with those cells' rows marked, and the exit code is 1.
type abortedError struct{ cells int }

func (e *abortedError) Error() string {
	return fmt.Sprintf("%d cell run%s stopped at the memory cap (the aborted column of results.csv says where); raise -max-memory or make the cells smaller", e.cells, plural(e.cells))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

const checkUsage = `Usage: stormlab check [-j N] [-max-memory SIZE] [-baseline DIR] [FILE.toml ...]

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
	base := fs.String("baseline", outDefault, "compare with the baselines under `DIR`")
	workers := fs.Int("j", runtime.NumCPU(), "simulate up to `N` cells at once")
	var mem memoryFlag
	fs.Var(&mem, "max-memory", memoryUsage)
	files, err := parse(fs, args, false)
	if err != nil {
		return err
	}
	if files, err = orAllExperiments(files); err != nil {
		return err
	}
	if info, err := os.Stat(*base); err != nil || !info.IsDir() {
		return &usageError{fmt.Sprintf("-baseline %s: no such folder", *base)}
	}
	exps, err := loadAll(files, nil)
	if err != nil {
		return err
	}
	budget := memoryBudget{total: mem.total(), workers: max(1, *workers)}
	defer limitMemory(budget.total)()
	var devs []reports.Deviation
	missing, aborted := 0, 0
	for _, e := range exps {
		if _, err := os.Stat(filepath.Join(*base, e.Name)); err != nil {
			missing++
			fmt.Fprintf(stdout, "%s: no baseline in %s; create one with `%s` and commit %s\n",
				e.Name, filepath.Join(*base, e.Name), createCommand(*base, e.File), filepath.Join(*base, e.Name))
			continue
		}
		results, err := simulate(ctx, stderr, e.Name, e.Grid.Cells(), budget)
		if err != nil {
			return err
		}
		d, err := reports.Compare(*base, &e.Report, e.Grid, results)
		if err != nil {
			return err
		}
		tip, err := searchTipping(ctx, stderr, e, budget.pool(budget.workers))
		if err != nil {
			return err
		}
		dt, err := reports.CompareTipping(*base, &e.Report, e.Grid, tip)
		if err != nil {
			return err
		}
		d = append(d, dt...)
		devs = append(devs, d...)
		n := reports.CountAborted(results) + abortedSearches(tip)
		if n > 0 {
			fmt.Fprintf(stderr, "stormlab: %s: %s\n", e.Name, budget.text(len(e.Grid.Cells())))
		}
		aborted += n
		status := "ok"
		if len(d) > 0 {
			status = fmt.Sprintf("%d deviations", len(d))
		}
		fmt.Fprintf(stdout, "%s: %d cells%s, %s\n", e.Name, len(results), abortedText(n), status)
	}
	if len(devs) > 0 {
		fmt.Fprintln(stdout)
		if err := reports.PrintDeviations(stdout, devs); err != nil {
			return err
		}
	}
	switch {
	case aborted > 0:
		return &abortedError{aborted}
	case len(devs) > 0:
		return errDeviation
	case missing > 0:
		return fmt.Errorf("%d experiment%s without a baseline", missing, plural(missing))
	}
	return nil
}

// createCommand is the command that writes an experiment's first baseline
// under dir.
func createCommand(dir, file string) string {
	if filepath.Clean(dir) == outDefault {
		return "stormlab run " + shellQuote(file)
	}
	return "stormlab run -out " + shellQuote(dir) + " " + shellQuote(file)
}

const validateUsage = `Usage: stormlab validate [-set PATH=VALUE ...] FILE.toml ...

Parses and validates each experiment (every key, every grid cell) without
running it, and estimates what running it takes: its cells, the ticks they
simulate, and the live state of its worst cell at the height of a storm (an
estimate from above, to hold against -max-memory). It names every span
shorter than a few ticks, where a verdict may hang on the tick (stormlab
run -refine shows whether it does), and every jitter_step coarser than
half its backoff base, beyond which that approximation is untested.

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
	budget := memoryBudget{total: defaultMemory(), workers: runtime.NumCPU()}
	for _, e := range exps {
		cells := e.Grid.Cells()
		capacity := budget.pool(len(cells)).MaxMemory
		var ticks, worst int64
		worstCell := ""
		var warnings []string
		seen := map[string]int{}
		for i := range cells {
			c := &cells[i]
			cost := c.Plan.Cost(c.Series)
			ticks += cost.Ticks
			if cost.State > worst {
				worst, worstCell = cost.State, c.Label()
			}
			for _, w := range c.Plan.Warnings() {
				if seen[w] == 0 {
					warnings = append(warnings, w)
				}
				seen[w]++
			}
		}
		fmt.Fprintf(stdout, "%s: ok, %d cells, %s ticks to simulate, the worst cell's live state up to %s (%s)\n",
			e.File, len(cells), plots.Number(float64(ticks)), model.Bytes(worst), worstCell)
		if worst > capacity {
			fmt.Fprintf(stdout, "  memory: more than the %s of state a cell may hold under the default -max-memory (%s) at -j %d: such cells may be stopped; pass a larger -max-memory or a smaller -j to run them\n",
				model.Bytes(capacity), model.Bytes(budget.total), runtime.NumCPU())
		}
		for _, w := range warnings {
			fmt.Fprintf(stdout, "  tick: %s (%d of %d cells)\n", w, seen[w], len(cells))
		}
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

// simulate runs cells with a progress bar named name on stderr, sharing
// the memory budget among the cells that run at once.
func simulate(ctx context.Context, stderr io.Writer, name string, cells []sweep.Cell, mem memoryBudget) ([]model.Result, error) {
	p := startProgress(stderr, name, len(cells))
	opt := mem.pool(len(cells))
	opt.Done = p.done
	results, err := sweep.Run(ctx, cells, opt)
	p.stop()
	if err != nil && ctx.Err() == nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return results, err
}

// writeReport writes an experiment's folder under out; half holds the
// results at half the tick with -refine.
func writeReport(out string, e *experiments.Experiment, results, half []model.Result, tip *tipping.Outcome, figures bool) error {
	if err := reports.Write(out, &e.Report, e.Grid, results, reports.Options{NoFigures: !figures, Refined: half, Tipping: tip}); err != nil {
		return fmt.Errorf("%s: %w", e.Name, err)
	}
	return nil
}

// warn prints the warnings the cells of experiment name carry (results[i]
// is cells[i]'s) and the cells stopped at the memory cap; report.md lists
// them as notes.
func warn(stderr io.Writer, name string, cells []sweep.Cell, results []model.Result) {
	for i := range results {
		if a := results[i].Aborted; a != "" {
			fmt.Fprintf(stderr, "stormlab: %s: cell %s: aborted, %s\n", name, cells[i].Label(), a)
		}
		for _, w := range results[i].Warnings {
			fmt.Fprintf(stderr, "stormlab: warning: %s: cell %s: %s\n", name, cells[i].Label(), w)
		}
	}
}

// warnClaims prints the claims of an experiment's findings that do not
// hold on its results; report.md says the same beside each sentence.
func warnClaims(stderr io.Writer, e *experiments.Experiment, results []model.Result) {
	for _, f := range reports.FailedClaims(&e.Report, e.Grid, results) {
		fmt.Fprintf(stderr, "stormlab: warning: %s: %s\n", e.Name, f)
	}
}

// orAllExperiments is files, or every experiments/*.toml when none are
// given (check and serve default to them).
func orAllExperiments(files []string) ([]string, error) {
	if len(files) > 0 {
		return files, nil
	}
	all, err := filepath.Glob("experiments/*.toml")
	if err != nil || len(all) == 0 {
		return nil, &usageError{"no experiment files given and none in experiments/"}
	}
	return all, nil
}
