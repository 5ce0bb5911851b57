package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/cmd/stormlab/pipeline"
	"github.com/stormlab/stormlab/reports"
)

const mergeUsage = `Usage: stormlab merge [-out DIR] [-figures=false] [-j N] SHARD_DIR ...

Puts together the shards of one experiment that stormlab run -shard K/N
wrote, and writes DIR/<name>/ and DIR/README.md byte for byte as a single
stormlab run with the same file, -set values and flags writes them. DIR
defaults as for stormlab run. It first checks that the folders are every
shard of one run, each once; a problem is one line, exit 1, and nothing is
written. It runs the boundary searches of a [tipping] section itself.

Examples:
  stormlab merge out/blip-phase.shard-*-of-2
  stormlab merge -out /tmp/r -figures=false out/blip-phase.shard-*-of-2

` + manualRef + `

Flags:
`

// mergeFlags are stormlab merge's flags.
type mergeFlags struct {
	out     *string
	figures *bool
	workers *int
}

// newMergeFlags defines stormlab merge's flags.
func newMergeFlags(stderr io.Writer) (*flag.FlagSet, *mergeFlags) {
	fs := newFlagSet(stderr, "merge", mergeUsage)
	return fs, &mergeFlags{
		out:     fs.String("out", pipeline.DefaultOut, "write the report under `DIR` (without it, "+pipeline.ScratchOut+" when the report is not whole: shards run with -set or -refine, -figures=false, or cells stopped at the memory cap)"),
		figures: fs.Bool("figures", true, "render the figures (-figures=false writes only the CSVs and report.md)"),
		workers: fs.Int("j", runtime.NumCPU(), "run the experiment's tipping searches on up to `N` cells at once"),
	}
}

// cmdMerge is stormlab merge: it reads and checks the shard folders, then
// takes their results through the pipeline into the report folder a single
// run writes. Nothing is written unless every check passes.
func cmdMerge(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs, f := newMergeFlags(stderr)
	dirs, err := parse(fs, args, false)
	if err != nil {
		return err
	}
	if len(dirs) == 0 {
		fs.Usage()
		return &usageError{"merge needs the shard folders to merge"}
	}
	if *f.out == "" {
		return &usageError{"-out: give a folder (it is empty); without -out merge writes under " + pipeline.DefaultOut}
	}
	folders := make([]*reports.ShardFolder, len(dirs))
	for i, d := range dirs {
		if folders[i], err = reports.ReadShard(d); err != nil {
			return err
		}
	}
	if err := reports.CheckShards(folders); err != nil {
		return err
	}
	first := folders[0]
	if v := pipeline.BuildVersion(); first.Version != v {
		return fmt.Errorf("the shards were computed by %s, and this is %s: merge with the build that ran them", first.Version, v)
	}
	e, err := pipeline.Parse(first.File, first.Source, first.Sets)
	if err != nil {
		return err
	}
	// The command that regenerates the report is the single run's.
	rfs, rf := newRunFlags(io.Discard)
	for _, s := range first.Sets {
		rfs.Set("set", s)
	}
	for _, fl := range first.Flags {
		if err := rfs.Set(fl.Name, fl.Value); err != nil {
			return fmt.Errorf("%s: flag -%s=%s: %v", first.Path, fl.Name, fl.Value, err)
		}
	}
	if given(fs, "out") {
		rfs.Set("out", *f.out)
	}
	if given(fs, "figures") {
		rfs.Set("figures", strconv.FormatBool(*f.figures))
	}
	e.Command = regenerate(rfs, e.File)
	results, half, err := reports.Gather(folders, e.Grid, *rf.refine)
	if err != nil {
		return err
	}
	// Where the report goes is decided as for stormlab run with the
	// shards' flags, and at once: whether it is whole is known from the
	// shards, since the searches merge runs have no memory cap.
	to := pipeline.ChooseOut(stderr, *f.out, given(fs, "out"), scratchReason(rfs, rf))
	dir := to.ForExperiment(stderr, e.Name, reports.CountAborted(results)+reports.CountAborted(half))
	dst := filepath.Join(dir, e.Name)
	for _, sf := range folders {
		if within(sf.Path, dst) {
			return &usageError{fmt.Sprintf("-out %s: merging would replace %s, which holds the shard %s; choose another -out", dir, dst, sf.Path)}
		}
	}
	p := &pipeline.Pipeline{
		Stages: pipeline.Stages{Budget: pipeline.Budget{Workers: *f.workers}, Meter: pipeline.Bar(stderr)},
		Stdout: stdout, Stderr: stderr,
	}
	job := pipeline.MergedJob(e, &pipeline.Merged{Results: results, Half: half, Shards: len(folders)})
	return p.Run(ctx, []*pipeline.Job{job}, &pipeline.Reports{Out: pipeline.OutPlan{Dir: dir}, Figures: *f.figures, Stderr: stderr})
}

// within reports whether path is dir or lies inside it.
func within(path, dir string) bool {
	p, err1 := filepath.Abs(path)
	d, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
