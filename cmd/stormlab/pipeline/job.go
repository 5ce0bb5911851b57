package pipeline

import (
	"fmt"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// Job is one experiment on its way through the pipeline: the cells to
// simulate and, with -refine, the same cells at half the tick; or, for
// merge, the results its shards computed.
type Job struct {
	Exp *experiments.Experiment
	// Cells are the cells to run: the grid's, or a shard's share of them
	// (Part); for a merged job, the grid's, which are not run again.
	Cells []sweep.Cell
	// Half are Cells at half the tick, with -refine; nil otherwise.
	Half []sweep.Cell
	// Part is the shard Cells are the share of; nil for the whole grid.
	// Only a whole grid is searched ([tipping]) and has its claims checked.
	Part *Part
	// Merged holds the results when shards computed them; nil otherwise.
	Merged *Merged
	// Skip, set by a sink's Plan, is the line said in place of running the
	// job (a shard already complete, an experiment without a baseline);
	// "" runs it.
	Skip string
}

// Part is a shard's share of an experiment's cells.
type Part struct {
	Shard sweep.Shard
	// Pos are the grid indexes of the shard's cells, in grid order.
	Pos []int
}

// Merged are an experiment's results gathered from its shards.
type Merged struct {
	Results []model.Result // every cell's, in grid order
	Half    []model.Result // at half the tick, when the shards ran -refine
	Shards  int            // the shard folders they came from
}

// Jobs makes a job of each experiment over its whole grid; with refine,
// every cell is built again at half its tick, so that a cell that cannot
// be refined is bad input before anything runs.
func Jobs(exps []*experiments.Experiment, refine bool) ([]*Job, error) {
	jobs := make([]*Job, len(exps))
	for i, e := range exps {
		jobs[i] = &Job{Exp: e, Cells: e.Grid.Cells()}
		if refine {
			half, err := halfTick(e)
			if err != nil {
				return nil, err
			}
			jobs[i].Half = half
		}
	}
	return jobs, nil
}

// MergedJob is the job of an experiment whose results its shards
// computed: nothing is simulated again, and its searches run here.
func MergedJob(e *experiments.Experiment, m *Merged) *Job {
	return &Job{Exp: e, Cells: e.Grid.Cells(), Merged: m}
}

// Narrow makes the job shard s of the whole grid it was: the cells
// sweep.Split deals to shard s, which every machine computes alike.
func (j *Job) Narrow(s sweep.Shard) {
	pos := sweep.Split(j.Cells, s.N)[s.K]
	j.Part = &Part{Shard: s, Pos: pos}
	j.Cells = sweep.Pick(j.Cells, pos)
	if j.Half != nil {
		j.Half = sweep.Pick(j.Half, pos)
	}
}

// label names the job on its meter and in its errors: the experiment, and
// the shard for a part.
func (j *Job) label() string {
	if j.Part != nil {
		return fmt.Sprintf("%s shard %s", j.Exp.Name, j.Part.Shard)
	}
	return j.Exp.Name
}

// halfTick builds every cell of the experiment again at half its tick, for
// -refine; a cell that cannot be refined is bad input.
func halfTick(e *experiments.Experiment) ([]sweep.Cell, error) {
	cells := e.Grid.Cells()
	out := make([]sweep.Cell, len(cells))
	for i := range cells {
		c, err := cells[i].Refined()
		if err != nil {
			return nil, &experiments.Error{File: e.File, Key: "-refine", Msg: fmt.Sprintf("cell %s: %v", cells[i].Label(), err)}
		}
		out[i] = c
	}
	return out, nil
}
