package sweep_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

func TestParseShard(t *testing.T) {
	for in, want := range map[string]sweep.Shard{"0/1": {0, 1}, "3/4": {3, 4}, " 2 / 7 ": {2, 7}} {
		s, err := sweep.ParseShard(in)
		if err != nil || s != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", in, s, err, want)
		}
		if back, _ := sweep.ParseShard(s.String()); back != s {
			t.Errorf("%v does not read back from %q", s, s.String())
		}
	}
	for in, want := range map[string]string{
		"4/4": "shard 4 of 4 does not exist", "-1/4": "does not exist", "1/0": "from 1 to",
		"1": "want K/N", "a/4": "whole numbers", "1/2000000": "from 1 to",
	} {
		if _, err := sweep.ParseShard(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseShard(%q): %v, want an error with %q", in, err, want)
		}
	}
}

// grid expands a grid over a base scenario with the given axes.
func grid(t *testing.T, base model.Scenario, axes ...sweep.Axis) *sweep.Grid {
	t.Helper()
	g := &sweep.Grid{Base: base, Seed: 5, Axes: axes}
	if err := g.Expand(); err != nil {
		t.Fatal(err)
	}
	return g
}

// checkPartition fails unless shards hold every position below n exactly
// once, each shard in ascending order.
func checkPartition(t *testing.T, shards [][]int, n int) {
	t.Helper()
	seen := make([]int, n)
	for k, s := range shards {
		if !slices.IsSorted(s) {
			t.Errorf("shard %d is not in grid order", k)
		}
		for _, p := range s {
			seen[p]++
		}
	}
	for p, c := range seen {
		if c != 1 {
			t.Fatalf("cell %d is in %d shards", p, c)
		}
	}
}

// Cells of equal estimated cost are dealt round-robin over a hashed order:
// every cell in exactly one shard, shard sizes within one cell, the same
// split every time, and no shard made of one value of an axis whose length
// is the number of shards (a round-robin over grid order would give each
// shard one policy).
func TestSplitEqualCosts(t *testing.T) {
	loads := make([]any, 30)
	for i := range loads {
		loads[i] = int64(50 + i)
	}
	g := grid(t, model.Default(), axis(t, "load", "load", loads...),
		axis(t, "attempts", "layer.*.attempts", int64(1), int64(3), int64(9), int64(27)))
	cells := g.Cells()
	for _, n := range []int{1, 3, 4, 7, 200} {
		shards := sweep.Split(cells, n)
		if len(shards) != n {
			t.Fatalf("%d shards for n = %d", len(shards), n)
		}
		checkPartition(t, shards, len(cells))
		lo, hi := len(cells), 0
		for _, s := range shards {
			lo, hi = min(lo, len(s)), max(hi, len(s))
		}
		if hi-lo > 1 {
			t.Errorf("n = %d: shard sizes from %d to %d", n, lo, hi)
		}
		again := grid(t, model.Default(), g.Axes...)
		if !slices.EqualFunc(shards, sweep.Split(again.Cells(), n), slices.Equal) {
			t.Errorf("n = %d: the split changed when the grid was expanded again", n)
		}
	}
	for k, s := range sweep.Split(cells, 4) {
		attempts := map[string]bool{}
		for _, p := range s {
			v, _ := cells[p].Get("attempts")
			attempts[v.Text] = true
		}
		if len(attempts) < 4 {
			t.Errorf("shard %d holds cells of %d of the 4 attempt counts", k, len(attempts))
		}
	}
}

// A run of neighbouring cells, such as the cells past a tipping point,
// spreads over every shard in about equal parts.
func TestSplitSpreadsNeighbours(t *testing.T) {
	var blips []any
	for i := range 100 {
		blips = append(blips, int64(i))
	}
	base := model.Default()
	base.Fault = []model.Fault{{Kind: "outage", Start: model.Seconds(60), Length: model.Seconds(30), Factor: 1}}
	base.Duration = model.Seconds(600)
	g := grid(t, base, axis(t, "blip", "fault.0.length", blips...))
	shards := sweep.Split(g.Cells(), 4)
	for k, s := range shards {
		tail := 0 // cells of the last 40 blips
		for _, p := range s {
			if p >= 60 {
				tail++
			}
		}
		if tail < 5 || tail > 15 {
			t.Errorf("shard %d holds %d of the 40 neighbouring cells; want about 10", k, tail)
		}
	}
}

// Cells of different estimated cost (here: replicates and durations) are
// dealt most expensive first to the least loaded shard, so the shards'
// estimated work differs by at most the cost of one cell.
func TestSplitBalancesEstimatedCost(t *testing.T) {
	base := model.Default()
	base.Engine = "stochastic"
	g := grid(t, base,
		axis(t, "replicates", "replicates", int64(1), int64(2), int64(5), int64(20)),
		axis(t, "duration", "duration", "1m", "5m", "1h"),
		axis(t, "load", "load", int64(10), int64(20), int64(30)))
	cells := g.Cells()
	cost := func(p int) int64 { return cells[p].Plan.Cost(cells[p].Series).Ticks }
	var most int64
	for p := range cells {
		most = max(most, cost(p))
	}
	for _, n := range []int{2, 3, 5} {
		shards := sweep.Split(cells, n)
		checkPartition(t, shards, len(cells))
		lo, hi := int64(1<<62), int64(0)
		for _, s := range shards {
			var w int64
			for _, p := range s {
				w += cost(p)
			}
			lo, hi = min(lo, w), max(hi, w)
		}
		if hi-lo > most {
			t.Errorf("n = %d: estimated work from %d to %d ticks, more apart than the costliest cell (%d)", n, lo, hi, most)
		}
	}
}
