package plots

import (
	"strings"
	"testing"

	"github.com/stormlab/stormlab/model"
)

// Cells aborted at the memory cap have no metrics: a phase diagram shows
// them grey, apart from "never recovers", and the findings leave them out;
// a figure whose every cell was aborted is skipped.
func TestAbortedCells(t *testing.T) {
	e := parse(t, smallGrid)
	res := run(t, e, 2)
	res[0] = model.Result{Aborted: "stopped at 1.0 s", Replicates: 1}
	figs, err := Render(e.Grid, res, e.Figures[:1])
	if err != nil {
		t.Fatal(err)
	}
	if c := figs[0].Caption; !strings.Contains(c, "Grey: aborted at the memory cap, no value.") {
		t.Errorf("caption %q does not explain the grey cell", c)
	}
	if !strings.Contains(string(figs[0].SVG), "aborted at the memory cap") {
		t.Error("the legend lacks the aborted cells")
	}
	for i := range res {
		res[i] = model.Result{Aborted: "stopped", Replicates: 1}
	}
	if figs, err := Render(e.Grid, res, e.Figures); err != nil || len(figs) != 0 {
		t.Errorf("every cell aborted: %d figures, %v; want none and no error", len(figs), err)
	}
	if said := Findings(e.Grid, res, e.Figures); len(said) != 0 {
		t.Errorf("findings about aborted cells: %q", said)
	}
}
