// Package pipeline is the one way an experiment goes through stormlab's
// commands, in one order:
//
//	load      Load, Parse: every file read and checked before anything runs
//	jobs      Jobs, Job.Narrow, MergedJob: the cells to run, their -refine twins, a shard's share
//	plan      Sink.Plan: every folder the run may write checked, jobs with nothing to do skipped
//	simulate  Stages.Simulate: the cells on the worker pool, within the memory budget
//	refine    Stages.Simulate again, on the cells at half the tick (-refine)
//	search    Stages.Search: the boundary searches of [tipping], on a whole grid only
//	warn      aborted cells, the cells' warnings and failed claims, on stderr
//	sink      Sink.Put: Reports, Shards or Baselines, and a line on stdout
//
// Pipeline.Run drives it; the commands differ only in their jobs, their
// sink and a few settings:
//
//	stormlab run        Jobs → Reports (OutPlan: reports/ or out/)
//	stormlab run -shard Jobs, Narrow → Shards
//	stormlab check      Jobs → Baselines (Quiet)
//	stormlab merge      Parse (a shard's copy), MergedJob → Reports; only the search is run
//	stormlab serve      Load for its catalog; Stages for the phase diagram around a point and a chart
//
// Budget is -max-memory as the stages spend it, Meter how they count their
// work (a progress bar on a terminal, or the explorer's events), and an
// *AbortedError the end of a run in which cells stopped at the memory cap.
package pipeline
