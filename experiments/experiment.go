// Package experiments reads experiment files: TOML with a base scenario,
// named policies, a grid of axes over any scenario key, single cells beside
// it, and what the report asks for (findings, figures, tolerances). Load
// reads and validates a file into a sweep.Grid, expanded and resolved cell
// by cell, and a spec.Report; bad input is one *Error naming the file, the
// line and column, and the key.
//
// Each section of a file is read by its own file of this package. The
// scenario keys (in [scenario], [[policy]] entries, named sets, grid axes and
// -set flags) are addressed by dotted path and assigned by sweep.Assign:
// the grid, the policies and -set write the same keys by path, so [scenario]
// goes the same way, and each key is checked, and its error worded, once.
// Every other section decodes into a tagged struct that refuses keys it
// does not know (decodeTable), with the file, line, column and the nearest
// key it does know.
package experiments

import (
	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
)

// DefaultMaxCells is the largest grid an experiment may expand to unless it
// raises max_cells.
const DefaultMaxCells = 20000

// Experiment is one loaded, validated experiment file: its report and its
// grid, every cell expanded and resolved.
type Experiment struct {
	spec.Report
	Grid     *sweep.Grid
	MaxCells int
	// Source is the file's content as it was read, before any -set; a
	// shard keeps it, so that its results can be merged where the file is
	// not.
	Source []byte

	pos  map[string]position // key path → where it is written
	sets map[string]bool     // key paths a -set flag gave
}
