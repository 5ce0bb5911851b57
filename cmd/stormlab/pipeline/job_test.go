package pipeline

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
)

// With refine, every cell has a twin at half its tick; a cell that cannot
// be halved is bad input naming -refine and the cell.
func TestJobsRefine(t *testing.T) {
	exps := load(t, "a")
	plain := mustJobs(t, exps, false)
	if plain[0].Half != nil || len(plain[0].Cells) != 2 {
		t.Fatalf("without refine: %d cells, half %v", len(plain[0].Cells), plain[0].Half)
	}
	jobs := mustJobs(t, exps, true)
	j := jobs[0]
	if len(j.Half) != len(j.Cells) {
		t.Fatalf("%d cells, %d at half the tick", len(j.Cells), len(j.Half))
	}
	for i := range j.Cells {
		if got, want := j.Half[i].Plan.TickNs, j.Cells[i].Plan.TickNs/2; got != want {
			t.Errorf("cell %d: tick %d ns at half, want %d", i, got, want)
		}
	}
	long, err := Parse("long.toml", []byte(claimed), []string{"scenario.tick=1ms", "scenario.duration=20h"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Jobs([]*experiments.Experiment{long}, true)
	var le *experiments.Error
	if !errors.As(err, &le) || le.Key != "-refine" || !strings.Contains(err.Error(), "cell load=50") {
		t.Errorf("72,000,000 ticks refined: %v", err)
	}
}

// The shards of a job are its cells, each in exactly one shard, the twins
// at half the tick picked alike; a shard's label names it.
func TestNarrow(t *testing.T) {
	exps := load(t, "a")
	var seen []int
	for k := range 2 {
		j := mustJobs(t, exps, true)[0]
		all := j.Cells
		s := sweep.Shard{K: k, N: 2}
		j.Narrow(s)
		if j.Part == nil || j.Part.Shard != s || len(j.Cells) != len(j.Part.Pos) || len(j.Half) != len(j.Cells) {
			t.Fatalf("shard %s: %+v", s, j.Part)
		}
		for i, p := range j.Part.Pos {
			if j.Cells[i].Label() != all[p].Label() || j.Half[i].Label() != all[p].Label() {
				t.Errorf("shard %s: cell %d is %s, want %s", s, i, j.Cells[i].Label(), all[p].Label())
			}
		}
		seen = append(seen, j.Part.Pos...)
		if got := j.label(); got != "a shard "+s.String() {
			t.Errorf("label %q", got)
		}
	}
	slices.Sort(seen)
	if !slices.Equal(seen, []int{0, 1}) {
		t.Errorf("the shards hold cells %v, want each of 0 and 1 once", seen)
	}
}
