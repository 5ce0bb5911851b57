package pipeline

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/stormlab/stormlab/reports"
)

// DefaultOut and ScratchOut are where reports go: the committed reports,
// or a folder git ignores, for a run that does not regenerate a report
// whole.
const (
	DefaultOut = "reports"
	ScratchOut = "out"
)

// OutPlan is where a run writes: the folder -out names, or without -out
// the committed reports, unless the run is not a whole regeneration of an
// experiment's report; that one is written under out/ instead, and the run
// says so on stderr. A run never replaces a committed report with less
// than stormlab run FILE.toml writes.
type OutPlan struct {
	Dir string
	// Scratch is where an experiment goes when the run turns out to be
	// partial (cells stopped at the memory cap); "" when Dir is kept
	// whatever happens (-out given, or Dir is already out/).
	Scratch string
}

// ChooseOut decides where a run writes, from -out (out, and whether it was
// given) and the reason, if any, the run is partial before it starts
// ("" for none), which it says on stderr.
func ChooseOut(stderr io.Writer, out string, given bool, reason string) OutPlan {
	if given {
		return OutPlan{Dir: out}
	}
	if reason != "" {
		fmt.Fprintf(stderr, "stormlab: note: %s, so this run writes under %s/, never over %s/ (-out DIR writes elsewhere)\n", reason, ScratchOut, DefaultOut)
		return OutPlan{Dir: ScratchOut}
	}
	return OutPlan{Dir: out, Scratch: ScratchOut}
}

// Check checks, before anything runs, every folder and index the run may
// write: under Dir and, for a run that may turn out partial, under
// Scratch.
func (o OutPlan) Check(names []string) error {
	for _, dir := range []string{o.Dir, o.Scratch} {
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

// ForExperiment is the folder experiment name's report goes into, now that
// its run is over: aborted counts its cell runs and searches stopped at
// the memory cap, which make it partial.
func (o OutPlan) ForExperiment(stderr io.Writer, name string, aborted int) string {
	if aborted == 0 || o.Scratch == "" {
		return o.Dir
	}
	fmt.Fprintf(stderr, "stormlab: note: %s: %d cell run%s stopped at the memory cap, so its report is written under %s, never over %s (-out DIR writes elsewhere)\n",
		name, aborted, plural(aborted), filepath.Join(o.Scratch, name), filepath.Join(o.Dir, name))
	return o.Scratch
}
