// Package tipping finds tipping points: for each combination of values of
// a grid's other axes, the value of one scenario key (an outage's length, a
// degradation's depth, a spike's factor, the load) at which the system stops
// recovering, by bracketing and bisection rather than a uniform grid.
//
// A search moves its key along a line of values from the range's mild end
// to its severe end, one tolerance apart (spec.Tipping). It first runs the
// cell without any fault, when the key is a fault's: a system unhealthy
// without a trigger is overloaded and needs no search. It then runs a few
// points evenly over the line (the scan), bisects every stretch between two
// of them whose verdicts differ down to neighbouring points, and reports
// what it found: the bracket, the estimate, the evaluations it used beside
// the points of a uniform grid of the same resolution, and whether the
// answer is monotone. More than one change of verdict along the line, or a
// change the wrong way, is reported, never smoothed over.
//
// The verdict of a point is what its cell's result says. The queue engine is
// deterministic: a point tips or it does not, and the critical value is
// exact to the tolerance (one tick for a duration, by default). The
// stochastic engine runs each point's replicates: a point tips when at least
// half of them do not recover, the estimate interpolates the share that
// tips to one half between the bracket's ends, and the interval runs from
// the nearest point below it whose Wilson 95% interval of that share lies
// wholly below one half to the nearest point above whose interval lies
// wholly above. More replicates narrow the Wilson intervals, so points
// nearer the boundary become certain and the interval narrows. The markov
// engine solves each point's chain rather than running it: a point tips
// when the chain is not healthy (metastable or overloaded, by its
// thresholds in model.MarkovPhase), and, as for the queue engine, the
// critical value is exact to the tolerance.
//
// Every point's cell is built by the grid, with the key as one more axis,
// so it has the seed that cell would have in a uniform grid, and the search
// of one combination runs its points in a fixed order: the same seed gives
// the same boundary whatever the number of workers.
package tipping
