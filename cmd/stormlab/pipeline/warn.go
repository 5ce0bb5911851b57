package pipeline

import (
	"fmt"
	"io"

	"github.com/stormlab/stormlab/reports"
)

// warn prints on stderr the cells of an outcome stopped at the memory cap,
// the warnings its cells carry and, for a whole grid, the claims of its
// findings that its results do not bear out; report.md says the same in
// its notes and beside each sentence.
func warn(stderr io.Writer, o *Outcome) {
	e, cells := o.Job.Exp, o.Job.Cells
	for i := range o.Results {
		if a := o.Results[i].Aborted; a != "" {
			fmt.Fprintf(stderr, "stormlab: %s: cell %s: aborted, %s\n", e.Name, cells[i].Label(), a)
		}
		for _, w := range o.Results[i].Warnings {
			fmt.Fprintf(stderr, "stormlab: warning: %s: cell %s: %s\n", e.Name, cells[i].Label(), w)
		}
	}
	if o.Job.Part != nil {
		return // a claim is about the whole grid
	}
	for _, f := range reports.FailedClaims(&e.Report, e.Grid, o.Results) {
		fmt.Fprintf(stderr, "stormlab: warning: %s: %s\n", e.Name, f)
	}
}
