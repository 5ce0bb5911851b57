package pipeline

import (
	"fmt"
	"path/filepath"

	"github.com/stormlab/stormlab/reports"
)

// Shards is the sink of stormlab run -shard: each job's shard folder under
// Dir, for stormlab merge. Its jobs are narrowed to their shard
// (Job.Narrow).
type Shards struct {
	Dir     string
	Sets    []string       // the -set values, in order
	Flags   []reports.Flag // the other flags that shape the results
	Version string         // the build that computes them (BuildVersion)

	origins map[*Job]*reports.Origin
}

// Plan skips each shard already complete in Dir with the same fingerprint
// (a rerun after a preemption redoes only what was lost), and checks the
// folders of the others.
func (s *Shards) Plan(jobs []*Job) error {
	s.origins = map[*Job]*reports.Origin{}
	var names []string
	for _, j := range jobs {
		if j.Part == nil {
			return fmt.Errorf("%s: a shard sink needs jobs narrowed to a shard", j.Exp.Name)
		}
		e := j.Exp
		origin := &reports.Origin{Experiment: e.Name, File: e.File, Source: e.Source, Sets: s.Sets, Flags: s.Flags, Version: s.Version}
		dir := reports.ShardDir(e.Name, j.Part.Shard)
		if done, err := reports.ReadShard(filepath.Join(s.Dir, dir)); err == nil && done.Complete(origin, j.Part.Shard, j.Part.Pos) {
			j.Skip = fmt.Sprintf("%s: shard %s already complete in %s (same fingerprint); skipped", e.Name, j.Part.Shard, filepath.Join(s.Dir, dir))
			continue
		}
		s.origins[j] = origin
		names = append(names, dir)
	}
	return reports.CheckOut(s.Dir, names)
}

// Put writes the shard's folder.
func (s *Shards) Put(o *Outcome) (string, error) {
	j := o.Job
	e, part := j.Exp, j.Part
	if err := reports.WriteShard(s.Dir, s.origins[j], part.Shard, e.Grid, part.Pos, o.Results, o.Half); err != nil {
		return "", fmt.Errorf("%s: %w", e.Name, err)
	}
	return fmt.Sprintf("%s: shard %s, %d of %d cells in %.2fs%s → %s", e.Name, part.Shard, len(j.Cells), len(e.Grid.Cells()),
		o.elapsed(), abortedText(o.Aborted()), filepath.Join(s.Dir, reports.ShardDir(e.Name, part.Shard))), nil
}

// Close has nothing to finish: each shard folder is whole when written.
func (s *Shards) Close(bool) error { return nil }
