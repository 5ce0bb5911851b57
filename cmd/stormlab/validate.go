package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"

	"github.com/stormlab/stormlab/cmd/stormlab/pipeline"
	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/plots"
	"github.com/stormlab/stormlab/reports"
)

const validateUsage = `Usage: stormlab validate [-set PATH=VALUE ...] FILE.toml ...

Parses and validates each experiment (every key, every grid cell) without
running it, and estimates what running it takes: its cells, the ticks they
simulate and the live state of its worst cell, to hold against
-max-memory. It names every span shorter than a few ticks and every
jitter_step coarser than half its backoff base.

Example:
  stormlab validate experiments/*.toml

` + manualRef + `

Flags:
`

// newValidateFlags defines stormlab validate's flags.
func newValidateFlags(stderr io.Writer) (*flag.FlagSet, *setFlags) {
	fs := newFlagSet(stderr, "validate", validateUsage)
	var sets setFlags
	fs.Var(&sets, "set", "override a key: `PATH=VALUE` (repeatable)")
	return fs, &sets
}

// cmdValidate is stormlab validate: the load stage alone, and what running
// each experiment would take.
func cmdValidate(_ context.Context, stdout, stderr io.Writer, args []string) error {
	fs, sets := newValidateFlags(stderr)
	files, err := parse(fs, args, true)
	if err != nil {
		return err
	}
	exps, err := pipeline.Load(files, *sets)
	if err != nil {
		return err
	}
	budget := pipeline.Budget{Total: pipeline.DefaultMemory(), Workers: runtime.NumCPU()}
	for _, e := range exps {
		cells := e.Grid.Cells()
		capacity := budget.Pool(len(cells)).MaxMemory
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
				model.Bytes(capacity), model.Bytes(budget.Total), runtime.NumCPU())
		}
		for _, w := range warnings {
			fmt.Fprintf(stdout, "  tick: %s (%d of %d cells)\n", w, seen[w], len(cells))
		}
	}
	return nil
}

// cmdKeys is stormlab keys: the generated key reference.
func cmdKeys(_ context.Context, stdout, _ io.Writer, args []string) error {
	if len(args) > 0 {
		return &usageError{"keys takes no arguments"}
	}
	fmt.Fprint(stdout, reports.KeysMarkdown())
	return nil
}
