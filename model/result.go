package model

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Metrics are the measurements of one run. Counts are float64 so replicates
// can be averaged; a single run's counts are whole numbers.
type Metrics struct {
	// Verdict is the run's verdict (verdict.go); a cell's is its
	// replicates' together (cellVerdict).
	Verdict   Verdict
	RecoveryS float64 // seconds from the end of the fault (the start, with an initial backlog) until healthy for good; NaN when never, not judged, or without either
	// EndBacklog is the backlog when the run ends (endWatch: calls waiting
	// or in flight at the dependency; at a loss server, requests waiting
	// for an answer); DrainRate the calls a second it fell by over the end
	// of the run, and DrainLeftS the seconds it would still take at that
	// rate to reach the healthy limit, both NaN unless the verdict is
	// Draining (DrainLeftS also without a limit).
	EndBacklog, DrainRate, DrainLeftS float64
	CollapseS                         float64 // seconds from the start until first unhealthy, fault or not; NaN when never
	DrainS                            float64 // seconds from the end of the fault (the start without one) until the backlog is first within the healthy limit; NaN when never
	AfterChangeS                      float64 // seconds from the first change until healthy for good; NaN when never, or without a change
	CollapseLoad                      float64 // under a load shape, the load offered (requests/s) when first unhealthy; NaN otherwise
	RecoveryLoad                      float64 // under a load shape, the load offered (requests/s) when healthy for good; NaN otherwise
	Requests                          float64 // user (top-level) requests that arrived
	Calls                             float64 // attempts that reached the dependency
	PeakCalls                         float64 // the most calls the dependency received in one tick
	PeakLoadX                         float64 // the most calls the dependency received in one second (one series bin) / base arrival rate
	WindowRateX                       float64 // mean calls per second during the fault / base arrival rate
	WindowCalls                       float64 // mean calls per second at the dependency during the fault
	WindowPerTick                     float64 // mean calls per tick at the dependency during the fault
	CallsPerS                         float64 // mean calls per second at the dependency over the run
	Allowed                           float64 // attempts one request may put on the dependency: the product over the chain
	PeakQueue                         float64 // the most calls waiting at the dependency
	Successful                        float64 // user requests that got a success
	Failed                            float64 // user requests that got an error
	Pending                           float64 // user requests without an answer when the run ended
	RetriesRefused                    float64 // tries and retries a policy refused (budget, breaker, deadline, pushback)
	RefusedBudget                     float64 // of those, by a retry budget
	RefusedBreaker                    float64 // by an open circuit breaker
	RefusedDeadline                   float64 // because the request's deadline had passed
	RefusedPushback                   float64 // because the dependency said "overloaded, don't retry"
	RefusedLimiter                    float64 // by a concurrency limiter, at once or after waiting for a slot
	NotRetryable                      float64 // failed tries not retried because the error was not retryable
	Hedges                            float64 // second copies of slow calls sent to the dependency
	Served                            float64 // calls the dependency completed
	WastedServed                      float64 // of those, calls whose caller had given up
	// The latency of user requests, with measure_latency: seconds from a
	// request's arrival to its success (LatencyP*) or to its error
	// (ErrorLatencyP*), in whole ticks, at the 50th, 95th and 99th
	// percentiles (latencyHistogram); NaN without measure_latency, or when
	// no request got that answer.
	LatencyP50, LatencyP95, LatencyP99 float64
	ErrorLatencyP50, ErrorLatencyP99   float64
	// A worker pool's means over the run (poolMeans), NaN for other
	// dependencies: the calls it held, waiting or on a worker, at the ends
	// of the run's ticks (InSystemMean); the seconds from a call's arrival
	// to the tick a worker took it, over the calls taken for a caller still
	// waiting (WaitMeanS); the seconds a call held its worker, in whole
	// ticks, at least one, over every call taken (ServiceMeanS).
	InSystemMean, WaitMeanS, ServiceMeanS float64
	// Shed is the calls the dependency's admission rule answered with an
	// error instead of serving (dependency.admission); NaN without a rule.
	Shed float64
}

// Recovered reports whether the run (every judged replicate of a cell)
// recovered: healthy from some time after the fault to the end, or, without
// a fault, healthy at the end.
func (m *Metrics) Recovered() bool { return m.Verdict == Recovered }

// Amplification is calls per user request.
func (m *Metrics) Amplification() float64 { return ratio(m.Calls, m.Requests) }

// Wasted is the share of the dependency's work spent on calls whose caller
// had given up.
func (m *Metrics) Wasted() float64 { return ratio(m.WastedServed, m.Served) }

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// Result is what one grid cell produced: the metrics (means over the
// replicates), their spread, the time series when it was asked for, and
// warnings about the run.
type Result struct {
	Metrics
	Replicates     int     // seeded runs behind the numbers
	RecoveredShare float64 // share of replicates that recovered
	SD             Metrics // standard deviation over replicates (zero for one run); SD.RecoveryS over the recovered ones
	Spread         Spread  // quantiles and intervals over the replicates
	Series         *Series // per-second series of the first replicate, when asked for
	// Band is the series over every replicate (mean and 10th–90th
	// percentile band), when a series was asked for of several replicates.
	Band *SeriesBand
	// Windows are the windowed means asked for (Options.Windows), in
	// WindowMetrics order.
	Windows []WindowValue
	// Graph are a graph's columns (GraphMetrics), means over the
	// replicates and their spread; nil for a chain.
	Graph []WindowValue
	// Markov is what the markov engine reads from its chain; zero for the
	// other engines.
	Markov   MarkovMetrics
	Warnings []string
	// Aborted says why the cell was stopped before its end (its live state
	// outgrew the memory cap); its metrics are then NaN.
	Aborted string
}

// Spread summarises a cell's replicates beyond their mean and standard
// deviation.
type Spread struct {
	// RecoveryP50 and RecoveryP90 are the median and the 90th percentile of
	// RecoveryS over the replicates that recovered (the smallest value with
	// at least that share of them at or below it); NaN when none did.
	RecoveryP50, RecoveryP90 float64
	ShareLo, ShareHi         float64 // Wilson 95% interval of RecoveredShare
	// Collapsed is the share of replicates that were ever unhealthy (that
	// have a CollapseS); CollapseP10, CollapseP50 and CollapseP90 are
	// quantiles of CollapseS over them, NaN when none was.
	Collapsed                             float64
	CollapseP10, CollapseP50, CollapseP90 float64
}

// Series is a time series in bins of Step seconds.
type Series struct {
	Step float64     // bin width in seconds
	Rows []SeriesRow // one per bin, in time order
	// Services are a graph's services' own series, each a row per row of
	// Rows (graph_series.go); nil for a chain. A band over replicates and
	// windows summarise Rows only.
	Services []ServiceSeries
}

// ServiceSeries is one service's series in a graph's run.
type ServiceSeries struct {
	Name string
	Pool bool         // its server is a worker pool: its rows have the pool's waits (PoolServiceColumns)
	Rows []ServiceRow // one per row of the run's Series, in time order
}

// ServiceRow is one bin of a service's series: counts are totals over the
// bin, Queue the value at its end.
type ServiceRow struct {
	Calls     float64 // calls made to it (first tries, over every edge into it)
	Succeeded float64 // calls to it that succeeded
	Failed    float64 // calls to it that failed for good
	Tries     float64 // tries sent to it, first tries and retries
	Queue     float64 // calls its own server held (waiting or in flight); 0 without one
	Unhealthy bool    // its health (graph_health.go) failed in some tick of the bin
	// Taken is the calls its worker pool took for a caller still waiting,
	// and Waited their seconds in the pool's waiting room, summed (in
	// whole ticks, as the pool's wait_mean_s counts them); 0 without a pool.
	Taken, Waited float64
}

// SeriesRow is one bin of a Series. Counts are totals over the bin; Queue and
// InFlight are the values at its end; Capacity is the dependency's capacity
// per second during the bin.
type SeriesRow struct {
	T         float64 // start of the bin, seconds
	Requests  float64 // new user requests
	Calls     float64 // attempts that reached the dependency
	Retries   float64 // of those, retries
	Successes float64 // user requests answered with a success
	Failures  float64 // user requests answered with an error
	Timeouts  float64 // attempts a caller gave up on
	Refused   float64 // tries and retries a policy refused (budget, breaker, deadline, pushback)
	// Refused by reason, and the failed tries not retried as not retryable.
	RefusedBudget, RefusedBreaker, RefusedDeadline, RefusedPushback, NotRetryable float64
	RefusedLimiter                                                                float64 // tries a concurrency limiter refused
	Hedges                                                                        float64 // second copies of slow calls
	Served                                                                        float64 // calls the dependency completed
	Wasted                                                                        float64 // of those, calls nobody waited for any more
	Queue                                                                         float64 // calls waiting at the dependency
	InFlight                                                                      float64 // user requests without an answer yet
	Capacity                                                                      float64 // calls per second the dependency could serve
	InSystem                                                                      float64 // a worker pool: the calls it held (waiting or on a worker) at the ends of the bin's ticks, their mean; 0 for other dependencies
	Unhealthy                                                                     bool    // the health rule failed at the end of the bin
}

// engine runs one seeded replicate of a resolved scenario, as long as the
// guard lets it.
type engine func(p *Plan, seed uint64, series bool, g *guard) (Metrics, *Series, []string)

// Run simulates one grid cell: sc.Replicates runs seeded from seed, averaged.
// series asks for the per-second time series of the first replicate.
func Run(sc Scenario, seed uint64, series bool) (Result, error) {
	p, err := sc.Resolve()
	if err != nil {
		return Result{}, err
	}
	return RunPlan(context.Background(), p, seed, Options{Series: series})
}

// RunPlan is Run for a scenario already resolved. Cancelling ctx stops the
// run within a tick or a few thousand events, and RunPlan returns
// ctx.Err(). A replicate whose live state outgrows opt.MaxMemory stops, and
// the result says so in Aborted, with no metrics: a cell that cannot be
// simulated within the cap is a result, not an error.
func RunPlan(ctx context.Context, p *Plan, seed uint64, opt Options) (Result, error) {
	run := runQueue
	switch p.Engine {
	case EngineStochastic:
		run = runStochastic
	case EngineMarkov:
		return runMarkov(ctx, p)
	}
	runs := make([]Metrics, p.Replicates)
	var res Result
	var graphs [][]float64 // a graph's columns, by replicate
	if p.Engine == EngineStochastic && p.Graph != nil {
		run = func(p *Plan, seed uint64, series bool, g *guard) (Metrics, *Series, []string) {
			var v []float64
			m, s, w := runStochasticTo(p, seed, series, g, &v)
			graphs = append(graphs, v)
			return m, s, w
		}
	}
	// Every replicate records its series for a band or for windows.
	band := opt.Series && p.Replicates > 1
	var series []*Series
	var windows [][]float64
	for r := range runs {
		g := newGuard(ctx, opt.MaxMemory)
		m, s, w := run(p, ReplicateSeed(seed, r), opt.Series && r == 0 || band || len(opt.Windows) > 0, g)
		if err := g.err(); err != nil {
			return Result{}, err
		}
		if g.abort != "" {
			return aborted(p.Replicates, fmt.Sprintf("replicate %d %s", r+1, g.abort)), nil
		}
		m.WindowPerTick = m.WindowCalls * p.TickS
		m.CallsPerS = m.Calls / p.Run.Seconds()
		m.Allowed = float64(p.Written)
		runs[r] = m
		if r == 0 && opt.Series {
			res.Series = s
		}
		if band {
			series = append(series, s)
		}
		if len(opt.Windows) > 0 {
			windows = append(windows, windowMeans(s, opt.Windows, float64(p.Ticks)*p.TickS))
		}
		res.Warnings = append(res.Warnings, w...)
	}
	res.Band = newSeriesBand(series)
	res.Windows = aggregateWindows(opt.Windows, windows)
	res.Graph = aggregateGraph(p.Graph, graphs)
	res.Metrics, res.SD, res.RecoveredShare, res.Spread = aggregate(runs)
	res.Replicates = len(runs)
	res.Warnings = append(res.Warnings, horizonWarnings(p, &res)...)
	return res, nil
}

// aborted is the result of a cell stopped for memory: every metric NaN.
func aborted(replicates int, why string) Result {
	nan := math.NaN()
	m := Metrics{RecoveryS: nan, DrainRate: nan, DrainLeftS: nan, CollapseS: nan, DrainS: nan, AfterChangeS: nan, CollapseLoad: nan, RecoveryLoad: nan}
	m.noLatencies()
	for _, p := range counted(&m) {
		*p = nan
	}
	return Result{Metrics: m, SD: m, Replicates: replicates, RecoveredShare: nan,
		Spread: Spread{RecoveryP50: nan, RecoveryP90: nan, ShareLo: nan, ShareHi: nan,
			Collapsed: nan, CollapseP10: nan, CollapseP50: nan, CollapseP90: nan}, Aborted: why}
}

// ReplicateSeed derives the seed of replicate r from a cell's seed; replicate
// 0 uses the cell's seed itself.
func ReplicateSeed(seed uint64, r int) uint64 {
	if r == 0 {
		return seed
	}
	return SplitMix(seed ^ SplitMix(uint64(r)))
}

// SplitMix is the SplitMix64 finaliser: a cheap, well-mixed hash of x, used
// to derive independent seeds.
func SplitMix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// counted lists the metrics that are averaged over replicates.
func counted(m *Metrics) []*float64 {
	return []*float64{&m.Requests, &m.Calls, &m.EndBacklog, &m.PeakCalls, &m.PeakLoadX, &m.WindowRateX, &m.WindowCalls, &m.WindowPerTick, &m.CallsPerS, &m.Allowed, &m.PeakQueue,
		&m.Successful, &m.Failed, &m.Pending, &m.RetriesRefused, &m.Served, &m.WastedServed,
		&m.RefusedBudget, &m.RefusedBreaker, &m.RefusedDeadline, &m.RefusedPushback, &m.NotRetryable, &m.Hedges, &m.RefusedLimiter}
}

// latencies lists the metrics only some runs measure, which are averaged
// over the replicates that have them: the latency quantiles and a worker
// pool's means.
func latencies(m *Metrics) []*float64 {
	return []*float64{&m.LatencyP50, &m.LatencyP95, &m.LatencyP99, &m.ErrorLatencyP50, &m.ErrorLatencyP99, &m.InSystemMean, &m.WaitMeanS, &m.ServiceMeanS, &m.Shed}
}

// noLatencies marks the metrics only some runs measure (latencies) as not
// measured.
func (m *Metrics) noLatencies() {
	for _, p := range latencies(m) {
		*p = math.NaN()
	}
}

// aggregate summarises replicate metrics: means and standard deviations
// (gonum/stat), the cell's verdict (cellVerdict), RecoveryS and its
// quantiles over the replicates that recovered, the latency quantiles over
// the replicates that have them, and the share of the judged replicates
// that recovered with its Wilson interval (NaN when none was judged).
func aggregate(runs []Metrics) (mean, sd Metrics, share float64, sp Spread) {
	var rec []float64
	recovered, judged := 0, 0
	for i := range runs {
		if runs[i].Verdict.Judged() {
			judged++
		}
		if runs[i].Recovered() {
			recovered++
			if !math.IsNaN(runs[i].RecoveryS) {
				rec = append(rec, runs[i].RecoveryS)
			}
		}
	}
	share = math.NaN()
	if judged > 0 {
		share = float64(recovered) / float64(judged)
	}
	sp.ShareLo, sp.ShareHi = wilson(recovered, judged)
	sp.RecoveryP50, sp.RecoveryP90 = math.NaN(), math.NaN()
	if len(rec) > 0 {
		slices.Sort(rec)
		sp.RecoveryP50 = stat.Quantile(0.5, stat.Empirical, rec, nil)
		sp.RecoveryP90 = stat.Quantile(0.9, stat.Empirical, rec, nil)
	}
	sp.Collapsed, sp.CollapseP10, sp.CollapseP50, sp.CollapseP90 = collapseSpread(runs)
	if len(runs) == 1 {
		return runs[0], Metrics{}, share, sp
	}
	xs := make([]float64, len(runs))
	for j, p := range counted(&mean) {
		for i := range runs {
			xs[i] = *counted(&runs[i])[j]
		}
		*p, *counted(&sd)[j] = stat.MeanStdDev(xs, nil)
	}
	mean.Verdict = cellVerdict(runs)
	mean.RecoveryS, sd.RecoveryS = math.NaN(), math.NaN()
	switch len(rec) {
	case 0:
	case 1:
		mean.RecoveryS, sd.RecoveryS = rec[0], 0
	default:
		mean.RecoveryS, sd.RecoveryS = stat.MeanStdDev(rec, nil)
	}
	mean.DrainRate, sd.DrainRate, mean.DrainLeftS, sd.DrainLeftS = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	if mean.Verdict == Draining { // the rate of the replicates that drain
		mean.DrainRate, sd.DrainRate = meanDefined(runs, func(m *Metrics) float64 { return m.DrainRate })
		mean.DrainLeftS, sd.DrainLeftS = meanDefined(runs, func(m *Metrics) float64 { return m.DrainLeftS })
	}
	mean.CollapseS, sd.CollapseS = meanDefined(runs, func(m *Metrics) float64 { return m.CollapseS })
	mean.DrainS, sd.DrainS = meanDefined(runs, func(m *Metrics) float64 { return m.DrainS })
	mean.AfterChangeS, sd.AfterChangeS = meanDefined(runs, func(m *Metrics) float64 { return m.AfterChangeS })
	mean.CollapseLoad, sd.CollapseLoad = meanDefined(runs, func(m *Metrics) float64 { return m.CollapseLoad })
	mean.RecoveryLoad, sd.RecoveryLoad = meanDefined(runs, func(m *Metrics) float64 { return m.RecoveryLoad })
	for i, p := range latencies(&mean) {
		*p, *latencies(&sd)[i] = meanDefined(runs, func(m *Metrics) float64 { return *latencies(m)[i] })
	}
	return mean, sd, share, sp
}

// meanDefined is the mean and standard deviation of a metric over the
// replicates where it has a value (NaN: none has).
func meanDefined[T any](runs []T, get func(m *T) float64) (mean, sd float64) {
	var xs []float64
	for i := range runs {
		if x := get(&runs[i]); !math.IsNaN(x) {
			xs = append(xs, x)
		}
	}
	switch len(xs) {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		return xs[0], 0
	}
	return stat.MeanStdDev(xs, nil)
}

// wilson is the Wilson score interval at 95% for k successes in n trials.
func wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	z := distuv.UnitNormal.Quantile(0.975)
	nf, p := float64(n), float64(k)/float64(n)
	centre := (p + z*z/(2*nf)) / (1 + z*z/nf)
	half := z / (1 + z*z/nf) * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return math.Max(0, centre-half), math.Min(1, centre+half)
}

// String gives a one-line summary, for logs and test failures.
func (m Metrics) String() string {
	rec := m.Verdict.String()
	if m.Recovered() {
		rec = fmt.Sprintf("after %gs", m.RecoveryS)
	}
	return fmt.Sprintf("recovered %s, requests %g, calls %g (%.2fx), peak %gx, peak queue %g, ok %g, failed %g, pending %g, refused %g, wasted %.1f%%",
		rec, m.Requests, m.Calls, m.Amplification(), m.PeakLoadX, m.PeakQueue, m.Successful, m.Failed, m.Pending, m.RetriesRefused, 100*m.Wasted())
}

// horizonWarnings flags results the run's length makes doubtful: a fault
// that starts after the run, or a recovery so late that the run cannot
// show whether it lasts.
func horizonWarnings(p *Plan, r *Result) []string {
	var w []string
	for i, f := range p.FaultList {
		if f.Length > 0 && f.Start >= p.Run {
			w = append(w, fmt.Sprintf("fault %d starts at %v, after the %v run ends: it has no effect", i, f.Start, p.Run))
		}
	}
	if end := p.Fault.End; p.Fault.Has && end < p.Run && r.Recovered() && end.Seconds()+r.RecoveryS > 0.9*p.Run.Seconds() {
		w = append(w, fmt.Sprintf("healthy only for the last %.0f s of the run: a longer duration would show whether the recovery lasts",
			p.Run.Seconds()-end.Seconds()-r.RecoveryS))
	}
	return w
}

// metrics turns a run's counts into Metrics; base is the arrival rate the
// load ratios are measured against. The verdict (Recovered, RecoveryS) is
// the engine's to fill in.
func (c *counts) metrics(p *Plan, base float64) Metrics {
	m := Metrics{
		Requests:        float64(c.requests),
		Calls:           float64(c.calls),
		PeakCalls:       float64(c.peakCalls),
		PeakQueue:       float64(c.peakQueue),
		Successful:      float64(c.ok),
		Failed:          float64(c.failed),
		RetriesRefused:  float64(c.refused),
		RefusedBudget:   float64(c.refusedBy[byBudget]),
		RefusedBreaker:  float64(c.refusedBy[byBreaker]),
		RefusedDeadline: float64(c.refusedBy[byDeadline]),
		RefusedPushback: float64(c.refusedBy[byPushback]),
		RefusedLimiter:  float64(c.refusedBy[byLimiter]),
		NotRetryable:    float64(c.refusedBy[byFatal]),
		Hedges:          float64(c.hedges),
		Served:          float64(c.served),
		WastedServed:    float64(c.wasted),
	}
	m.Pending = m.Requests - m.Successful - m.Failed
	m.noLatencies()
	m.PeakLoadX = ratio(c.peakRate.perSecond(p.TickS), base)
	if p.Fault.To > p.Fault.From {
		m.WindowCalls = float64(c.windowCalls) / (float64(p.Fault.To-p.Fault.From) * p.TickS)
		m.WindowRateX = ratio(m.WindowCalls, base)
	}
	return m
}
