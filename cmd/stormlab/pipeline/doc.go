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
// The flags shape the stages in one place each: -set goes to Load; -refine
// to Jobs; -shard to Job.Narrow and the Shards sink; -j and -max-memory
// to the Budget, which shares the cap among the cells running at once and
// sets the process's memory limit for the run; -out and the run's reason
// to be partial to the OutPlan of the Reports sink (reports/, or out/, at
// once or when cells turn out stopped at the cap); -figures to Reports;
// -baseline to Baselines. The progress bar is the Meter Bar gives; Ctrl-C
// is ctx, which stops the stages within a tick and closes the sink with
// what finished. Cells stopped at the memory cap are said on stderr with
// how the budget was shared, and end the run with an *AbortedError after
// every outcome is put.
package pipeline
