package sweep

import (
	"cmp"
	"container/heap"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/model"
)

// Shard is one part of a grid split for machines that run apart, as a
// Kubernetes Indexed Job, a Slurm job array or a CI matrix runs them:
// shard K (0-based) of N.
type Shard struct{ K, N int }

// MaxShards bounds N: more shards than this would be more folders to merge
// than any grid stormlab runs has cells.
const MaxShards = 1000000

// ParseShard reads a shard written "K/N", 0 ≤ K < N.
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("want K/N, shard K (from 0) of N, e.g. 0/4; got %q", s)
	}
	return NewShard(k, n)
}

// NewShard reads K and N given apart, as batch engines give them, and
// checks that 0 ≤ K < N ≤ MaxShards.
func NewShard(k, n string) (Shard, error) {
	ki, errK := strconv.Atoi(strings.TrimSpace(k))
	ni, errN := strconv.Atoi(strings.TrimSpace(n))
	switch {
	case errK != nil || errN != nil:
		return Shard{}, fmt.Errorf("want whole numbers K/N, e.g. 0/4; got %q/%q", k, n)
	case ni < 1 || ni > MaxShards:
		return Shard{}, fmt.Errorf("the number of shards must be from 1 to %d, got %d", MaxShards, ni)
	case ki < 0 || ki >= ni:
		return Shard{}, fmt.Errorf("shard %d of %d does not exist: shards are numbered 0 to %d", ki, ni, ni-1)
	}
	return Shard{K: ki, N: ni}, nil
}

// String writes the shard as ParseShard reads it.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// Split splits cells into n shards of about equal cost and returns the
// positions in cells of each shard's cells, ascending. The assignment is a
// function of the cells alone (their parameters and plans) and n, so every
// machine that expands the same grid computes the same one, whatever it
// runs on.
//
// The cost of a cell is the model's estimate, the ticks it simulates over
// all its replicates (model.Plan.Cost). Cells are dealt most expensive
// first, each to the shard with the least estimated work so far (the
// lowest-numbered on a tie). Cells of equal estimate are dealt in the order
// of a hash of their parameters rather than in grid order: neighbours in a
// grid tend to cost alike in ways no estimate sees (the cells past a
// tipping point never recover and cost many times the others), and the
// hash spreads such runs of cells evenly over the shards, whatever the
// shape of the grid. When every estimate is equal, the deal is round-robin
// over that hashed order, so shard sizes differ by at most one cell.
func Split(cells []Cell, n int) [][]int {
	type item struct {
		pos  int
		cost int64
		hash uint64
	}
	items := make([]item, len(cells))
	for i := range cells {
		c := &cells[i]
		var cost int64
		if c.Plan != nil {
			cost = c.Plan.Cost(c.Series).Ticks
		}
		h := fnv.New64a()
		h.Write([]byte(c.key()))
		items[i] = item{pos: i, cost: cost, hash: model.SplitMix(h.Sum64())}
	}
	slices.SortFunc(items, func(a, b item) int {
		return cmp.Or(cmp.Compare(b.cost, a.cost), cmp.Compare(a.hash, b.hash), cmp.Compare(a.pos, b.pos))
	})
	load := make(loads, n)
	for k := range load {
		load[k].shard = k
	}
	out := make([][]int, n)
	for _, it := range items {
		least := &load[0]
		out[least.shard] = append(out[least.shard], it.pos)
		least.work += it.cost
		least.cells++
		heap.Fix(&load, 0)
	}
	for k := range out {
		slices.Sort(out[k])
	}
	return out
}

// Pick returns the cells at positions pos of cells, in that order: a
// shard's cells from Split's positions.
func Pick(cells []Cell, pos []int) []Cell {
	out := make([]Cell, len(pos))
	for i, p := range pos {
		out[i] = cells[p]
	}
	return out
}

// loads is a min-heap of shards by the estimated work dealt to them so far,
// then by the cells dealt (so equal estimates go round-robin), then by
// shard number.
type loads []struct {
	shard int
	work  int64
	cells int
}

func (l loads) Len() int { return len(l) }
func (l loads) Less(i, j int) bool {
	return cmp.Or(cmp.Compare(l[i].work, l[j].work), cmp.Compare(l[i].cells, l[j].cells), cmp.Compare(l[i].shard, l[j].shard)) < 0
}
func (l loads) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l *loads) Push(any)     { panic("loads: the number of shards is fixed") }
func (l *loads) Pop() any     { panic("loads: the number of shards is fixed") }
