package plots

import (
	"testing"

	"github.com/stormlab/stormlab/experiments/spec"
)

// TestLinesFindingsPanelsAndShares: a lines figure with a panel says what
// happens in each panel apart (the cells of two blips are never merged on
// one line), and of replicated cells it says where every run recovers,
// where some do (with their shares) and where none does, not the cell's
// verdict, which is stuck as soon as one replicate is.
func TestLinesFindingsPanelsAndShares(t *testing.T) {
	tb := &Table{Axes: []Axis{
		{Name: "server", Values: names("pool")},
		{Name: "load", Path: "load", Unit: "requests/s", Values: nums(50, 60, 70, 80)},
		{Name: "blip", Path: "fault.0.length", Unit: "s", Values: durs("1s", "2s")},
	}}
	shares := map[string][]float64{"1s": {1, 1, 1, 0.5}, "2s": {1, 0.75, 0.25, 0}}
	for _, load := range tb.Axes[1].Values {
		for _, blip := range tb.Axes[2].Values {
			share := shares[blip.Text][int(load.Num-50)/10]
			r := stuck()
			if share == 1 {
				r = recovered(1)
			}
			r.Replicates, r.RecoveredShare = 4, share
			tb.Rows = append(tb.Rows, Row{Params: []Param{{"server", tb.Axes[0].Values[0]}, {"load", load}, {"blip", blip}},
				Result: r, Facts: blipFacts(load.Num, 3, blip.Num)})
		}
	}
	f := spec.Figure{Kind: "lines", Name: "lines", X: "load", Line: "server", Panel: "blip", Metric: "recovered_share"}
	got := tb.Findings(&f)
	want := "Across load: at server pool, blip 1s it recovers in every run at load 50–70 and recovers in some runs at load 80 (50% of them); " +
		"at server pool, blip 2s it recovers in every run at load 50, recovers in some runs at load 60–70 (25%–75% of them) and recovers in none at load 80."
	if len(got) != 1 || got[0] != want {
		t.Errorf("findings:\n got %q\nwant %q", got, want)
	}
}

// TestLinesMarksWithoutAFault: where no cell has a fault, the crosses of
// cells unhealthy at the end say so; they are not "stuck, never
// recovers", which speaks of a recovery from a fault.
func TestLinesMarksWithoutAFault(t *testing.T) {
	tb, f := linesExample()
	lf, err := newLinesFigure(tb, &f)
	if err != nil {
		t.Fatal(err)
	}
	if got := lf.neverText(); got != "stuck, never recovers" {
		t.Errorf("with a blip: %q", got)
	}
	for i := range tb.Rows {
		tb.Rows[i].Facts.Faults = nil
	}
	if lf, err = newLinesFigure(tb, &f); err != nil {
		t.Fatal(err)
	}
	if got := lf.neverText(); got != "unhealthy at the end, with no fault" {
		t.Errorf("without a fault: %q", got)
	}
}
