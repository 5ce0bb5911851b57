package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/stormlab/stormlab/reports"
)

// scratchReason says why a run with these flags does not regenerate its
// experiments' reports whole, as stormlab run FILE.toml does: it changes
// the files (-set), runs part of the cells (-shard), draws no figures
// (-figures=false) or adds columns (-refine). It is "" for a run that
// does; such a run can still fall short when cells reach the memory cap,
// which only the run itself tells (outPlan.forExperiment).
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

// outPlan is where a run writes: the folder -out names, or without -out
// the committed reports, unless the run is not a whole regeneration of an
// experiment's report; that one is written under out/ instead, and the run
// says so on stderr. A run never replaces a committed report with less
// than stormlab run FILE.toml writes.
type outPlan struct {
	dir string
	// scratch is where an experiment goes when the run turns out to be
	// partial (cells stopped at the memory cap); "" when dir is kept
	// whatever happens (-out given, or dir is already out/).
	scratch string
}

// chooseOut decides where a run writes, from -out (out, given or not) and
// the reason, if any, the run is partial before it starts.
func chooseOut(stderr io.Writer, fs *flag.FlagSet, out *string, reason string) outPlan {
	if given(fs, "out") {
		return outPlan{dir: *out}
	}
	if reason != "" {
		fmt.Fprintf(stderr, "stormlab: note: %s, so this run writes under %s/, never over %s/ (-out DIR writes elsewhere)\n", reason, scratchOut, outDefault)
		*out = scratchOut
		return outPlan{dir: scratchOut}
	}
	return outPlan{dir: *out, scratch: scratchOut}
}

// check checks, before anything runs, every folder and index the run may
// write: under dir and, for a run that may turn out partial, under
// scratch.
func (o outPlan) check(names []string) error {
	for _, dir := range []string{o.dir, o.scratch} {
		if dir == "" {
			continue
		}
		if err := reports.CheckOut(dir, names); err != nil {
			return err
		}
		if err := reports.CheckIndex(dir); err != nil {
			return err
		}
	}
	return nil
}

// forExperiment is the folder experiment name's report goes into, now that
// its run is over: aborted counts its cell runs and searches stopped at
// the memory cap, which make it partial.
func (o outPlan) forExperiment(stderr io.Writer, name string, aborted int) string {
	if aborted == 0 || o.scratch == "" {
		return o.dir
	}
	fmt.Fprintf(stderr, "stormlab: note: %s: %d cell run%s stopped at the memory cap, so its report is written under %s, never over %s (-out DIR writes elsewhere)\n",
		name, aborted, plural(aborted), filepath.Join(o.scratch, name), filepath.Join(o.dir, name))
	return o.scratch
}
