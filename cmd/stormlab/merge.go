package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/plots"
	"github.com/stormlab/stormlab/reports"
)

const mergeUsage = `Usage: stormlab merge [-out DIR] [-figures=false] SHARD_DIR ...

Puts together the shards of one experiment that stormlab run -shard K/N
wrote, and writes DIR/<name>/ and DIR/README.md byte for byte as a single
stormlab run with the same file, -set values and flags writes them. DIR is
reports, or out when the report is not whole (shards run with -set or
-refine, -figures=false, cells stopped at the memory cap), as for
stormlab run.

It first checks that the folders are every shard of one run: the same
experiment and file content, -set values, flags and stormlab build (the
fingerprint each shard records), each shard exactly once. A problem is
one line naming it and the folders concerned, exit 1, and nothing is
written. The experiment file itself is not needed: each shard holds a copy.
The boundary searches of a [tipping] section are not sharded: merge runs
them, on -j cells at once.

Examples:
  stormlab merge out/blip-phase.shard-*-of-2
  stormlab merge -out /tmp/r -figures=false out/blip-phase.shard-*-of-2

Flags:
`

// cmdMerge is stormlab merge: it reads and checks the shard folders, then
// writes the experiment's folder and the index as stormlab run would.
// Nothing is written unless every check passes.
func cmdMerge(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(stderr, "merge", mergeUsage)
	out := fs.String("out", outDefault, "write the report under `DIR` (without it, "+scratchOut+" when the report is not whole: shards run with -set or -refine, -figures=false, or cells stopped at the memory cap)")
	figures := fs.Bool("figures", true, "render the figures (-figures=false writes only the CSVs and report.md)")
	workers := fs.Int("j", runtime.NumCPU(), "run the experiment's tipping searches on up to `N` cells at once")
	dirs, err := parse(fs, args, false)
	if err != nil {
		return err
	}
	if len(dirs) == 0 {
		fs.Usage()
		return &usageError{"merge needs the shard folders to merge"}
	}
	if *out == "" {
		return &usageError{"-out: give a folder (it is empty); without -out merge writes under " + outDefault}
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
	if v := buildVersion(); first.Version != v {
		return fmt.Errorf("the shards were computed by %s, and this is %s: merge with the build that ran them", first.Version, v)
	}
	e, err := experiments.Parse(first.File, first.Source, first.Sets)
	if err != nil {
		return err
	}
	if err := e.CheckFigures(plots.Check); err != nil {
		return err
	}
	// The command that regenerates the report is the single run's.
	rfs, rf := newRunFlags(io.Discard)
	for _, s := range first.Sets {
		rfs.Set("set", s)
	}
	for _, f := range first.Flags {
		if err := rfs.Set(f.Name, f.Value); err != nil {
			return fmt.Errorf("%s: flag -%s=%s: %v", first.Path, f.Name, f.Value, err)
		}
	}
	if given(fs, "out") {
		rfs.Set("out", *out)
	}
	if given(fs, "figures") {
		rfs.Set("figures", strconv.FormatBool(*figures))
	}
	e.Command = regenerate(rfs, e.File)
	results, half, err := reports.Gather(folders, e.Grid, *rf.refine)
	if err != nil {
		return err
	}
	// Where the report goes is decided as for stormlab run with the
	// shards' flags: a merge that is not the whole report (-set, -refine,
	// -figures=false, cells stopped at the memory cap) writes under out/.
	to := chooseOut(stderr, rfs, out, scratchReason(rfs, rf))
	warn(stderr, e.Name, e.Grid.Cells(), results)
	warnClaims(stderr, e, results)
	n := reports.CountAborted(results) + reports.CountAborted(half)
	*out = to.forExperiment(stderr, e.Name, n)
	dst := filepath.Join(*out, e.Name)
	for _, f := range folders {
		if within(f.Path, dst) {
			return &usageError{fmt.Sprintf("-out %s: merging would replace %s, which holds the shard %s; choose another -out", *out, dst, f.Path)}
		}
	}
	if err := (outPlan{dir: *out}).check([]string{e.Name}); err != nil {
		return err
	}
	// The boundary searches of [tipping] are not sharded: each is a few
	// hundred cells in a fixed order, so merge runs them itself.
	tip, err := searchTipping(ctx, stderr, e, sweep.Options{Workers: *workers})
	if err != nil {
		return err
	}
	if err := writeReport(*out, e, results, half, tip, *figures); err != nil {
		return err
	}
	if err := reports.WriteIndex(*out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d cells from %d shards%s%s → %s\n", e.Name, len(results), len(folders), flips(results, half), abortedText(n), dst)
	if n > 0 {
		return &abortedError{n}
	}
	return nil
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
