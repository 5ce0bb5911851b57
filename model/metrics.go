package model

import "math"

// Metric is one measurement of a Result, named as its results.csv column.
// Reports and figures look metrics up here, so every renderer speaks of the
// same numbers with the same names.
type Metric struct {
	Name string // results.csv column
	Doc  string // what it means, with its unit
	Kind string // "bool", "verdict", "phase" (a MarkovPhase), "count", "ratio" or "seconds"
	// Value reads the metric from a result; NaN means "no value" (recovery
	// time of a run that never recovered). Booleans read as 0 or 1, a
	// verdict as its Verdict.
	Value func(r *Result) float64
	// SD reads the spread over replicates, nil when it has none.
	SD func(r *Result) float64
	// Replicated marks a summary of replicates: a column only when some
	// cell runs several.
	Replicated bool
	// Optional marks a detail of a policy: a column only when some cell has
	// a value other than 0.
	Optional bool
}

// MetricList lists every metric in results.csv order.
func MetricList() []Metric {
	pool := poolMeanColumns()
	b := func(x bool) float64 {
		if x {
			return 1
		}
		return 0
	}
	return []Metric{
		{"recovered", "healthy again after the fault and stayed healthy to the end (every replicate that was judged); without a fault, healthy at the end; empty when not judged", "bool",
			func(r *Result) float64 {
				if !r.Verdict.Judged() {
					return math.NaN()
				}
				return b(r.Recovered())
			}, nil, false, false},
		{"verdict", "recovered; draining (unhealthy at the end, the backlog still falling: a longer run would see it recover); stuck (unhealthy at the end, the backlog no longer falling, or no request succeeded after the fault); not judged (no request arrived after the fault's end, or after the first tick without a fault: nothing to judge)", "verdict",
			func(r *Result) float64 { return float64(r.Verdict) }, nil, false, false},
		{"recovery_s", "seconds from the end of the fault (the start, with an initial backlog) until healthy for good; empty when not recovered, not judged, or without a fault or backlog to recover from", "seconds",
			func(r *Result) float64 { return r.RecoveryS }, func(r *Result) float64 { return r.SD.RecoveryS }, false, false},
		{"drain_rate_per_s", "for a draining run: calls a second the backlog fell by over the end of the run (the calls waiting or in flight at the dependency; at a loss server, the requests waiting for an answer); empty otherwise", "ratio",
			func(r *Result) float64 { return r.DrainRate }, func(r *Result) float64 { return r.SD.DrainRate }, false, true},
		{"drain_left_s", "for a draining run: seconds after the run's end until the backlog is within the healthy limit, at that rate; empty otherwise, or without a limit", "seconds",
			func(r *Result) float64 { return r.DrainLeftS }, func(r *Result) float64 { return r.SD.DrainLeftS }, false, true},
		{"collapse_s", "seconds from the start until the system was first unhealthy, with or without a fault; empty when never", "seconds",
			func(r *Result) float64 { return r.CollapseS }, func(r *Result) float64 { return r.SD.CollapseS }, false, false},
		{"drain_s", "seconds from the end of the fault (the start without one) until the backlog was first within the healthy limit; empty when never, or when no limit applies", "seconds",
			func(r *Result) float64 { return r.DrainS }, func(r *Result) float64 { return r.SD.DrainS }, false, false},
		{"after_change_s", "seconds from the first [[scenario.change]] until healthy for good (0 when healthy from the change on); empty when never, or without a change", "seconds",
			func(r *Result) float64 { return r.AfterChangeS }, func(r *Result) float64 { return r.SD.AfterChangeS }, false, true},
		{"collapse_load", "under a load shape, the load offered (requests/s) when the system was first unhealthy; empty when never, or at a constant load", "ratio",
			func(r *Result) float64 { return r.CollapseLoad }, func(r *Result) float64 { return r.SD.CollapseLoad }, false, true},
		{"recovery_load", "under a load shape, the load offered (requests/s) when the system turned healthy for good after being unhealthy; empty when never, or at a constant load", "ratio",
			func(r *Result) float64 { return r.RecoveryLoad }, func(r *Result) float64 { return r.SD.RecoveryLoad }, false, true},
		{"requests", "user (top-level) requests that arrived", "count",
			func(r *Result) float64 { return r.Requests }, func(r *Result) float64 { return r.SD.Requests }, false, false},
		{"calls", "attempts that reached the dependency", "count",
			func(r *Result) float64 { return r.Calls }, func(r *Result) float64 { return r.SD.Calls }, false, false},
		{"calls_per_s", "mean calls per second at the dependency over the run", "ratio",
			func(r *Result) float64 { return r.CallsPerS }, func(r *Result) float64 { return r.SD.CallsPerS }, false, false},
		{"attempts_allowed", "attempts one request may put on the dependency: the product of the layers' attempts", "count",
			func(r *Result) float64 { return r.Allowed }, nil, false, false},
		{"amplification", "calls / requests", "ratio",
			func(r *Result) float64 { return r.Amplification() }, nil, false, false},
		{"peak_calls", "the most calls the dependency received in one tick", "count",
			func(r *Result) float64 { return r.PeakCalls }, func(r *Result) float64 { return r.SD.PeakCalls }, false, false},
		{"peak_load_x", "the most calls the dependency received in one second (a series bin: one tick when ticks are longer) / base arrival rate (closed loop: the rate requests started at before the fault; a burst: its requests in its first second)", "ratio",
			func(r *Result) float64 { return r.PeakLoadX }, func(r *Result) float64 { return r.SD.PeakLoadX }, false, false},
		{"window_calls_per_s", "mean calls per second at the dependency during the fault", "ratio",
			func(r *Result) float64 { return r.WindowCalls }, func(r *Result) float64 { return r.SD.WindowCalls }, false, false},
		{"window_calls_per_tick", "mean calls per tick at the dependency during the fault", "ratio",
			func(r *Result) float64 { return r.WindowPerTick }, func(r *Result) float64 { return r.SD.WindowPerTick }, false, false},
		{"window_rate_x", "window_calls_per_s / base arrival rate (closed loop: the rate requests started at before the fault)", "ratio",
			func(r *Result) float64 { return r.WindowRateX }, func(r *Result) float64 { return r.SD.WindowRateX }, false, false},
		{"peak_queue", "the most calls waiting at the dependency", "count",
			func(r *Result) float64 { return r.PeakQueue }, func(r *Result) float64 { return r.SD.PeakQueue }, false, false},
		{"successful", "user requests that got a success", "count",
			func(r *Result) float64 { return r.Successful }, func(r *Result) float64 { return r.SD.Successful }, false, false},
		{"failed", "user requests that got an error (attempts exhausted, budget, shed, deadline)", "count",
			func(r *Result) float64 { return r.Failed }, func(r *Result) float64 { return r.SD.Failed }, false, false},
		{"pending", "user requests still without an answer when the run ended", "count",
			func(r *Result) float64 { return r.Pending }, func(r *Result) float64 { return r.SD.Pending }, false, false},
		{"retries_refused", "tries and retries a policy refused: a budget, a breaker, a deadline, pushback or a concurrency limiter", "count",
			func(r *Result) float64 { return r.RetriesRefused }, func(r *Result) float64 { return r.SD.RetriesRefused }, false, false},
		{"refused_budget", "of those, refused by a retry budget", "count",
			func(r *Result) float64 { return r.RefusedBudget }, func(r *Result) float64 { return r.SD.RefusedBudget }, false, true},
		{"refused_breaker", "of those, failed at once by an open circuit breaker", "count",
			func(r *Result) float64 { return r.RefusedBreaker }, func(r *Result) float64 { return r.SD.RefusedBreaker }, false, true},
		{"refused_deadline", "of those, not started because the request's deadline had passed", "count",
			func(r *Result) float64 { return r.RefusedDeadline }, func(r *Result) float64 { return r.SD.RefusedDeadline }, false, true},
		{"refused_pushback", "of those, not retried because the dependency answered \"overloaded, don't retry\"", "count",
			func(r *Result) float64 { return r.RefusedPushback }, func(r *Result) float64 { return r.SD.RefusedPushback }, false, true},
		{"refused_limiter", "of those, tries a client-side concurrency limiter refused: at once, its queue full, or after queue_timeout waiting for a slot", "count",
			func(r *Result) float64 { return r.RefusedLimiter }, func(r *Result) float64 { return r.SD.RefusedLimiter }, false, true},
		{"not_retryable", "failed tries not retried because their error is not retryable (fatal_share)", "count",
			func(r *Result) float64 { return r.NotRetryable }, func(r *Result) float64 { return r.SD.NotRetryable }, false, true},
		{"hedges", "second copies of slow calls sent to the dependency (hedging)", "count",
			func(r *Result) float64 { return r.Hedges }, func(r *Result) float64 { return r.SD.Hedges }, false, true},
		{"latency_p50_s", latencyDoc("median", "success"), "seconds",
			func(r *Result) float64 { return r.LatencyP50 }, func(r *Result) float64 { return r.SD.LatencyP50 }, false, true},
		{"latency_p95_s", latencyDoc("95th-percentile", "success"), "seconds",
			func(r *Result) float64 { return r.LatencyP95 }, func(r *Result) float64 { return r.SD.LatencyP95 }, false, true},
		{"latency_p99_s", latencyDoc("99th-percentile", "success"), "seconds",
			func(r *Result) float64 { return r.LatencyP99 }, func(r *Result) float64 { return r.SD.LatencyP99 }, false, true},
		{"error_latency_p50_s", latencyDoc("median", "error"), "seconds",
			func(r *Result) float64 { return r.ErrorLatencyP50 }, func(r *Result) float64 { return r.SD.ErrorLatencyP50 }, false, true},
		{"error_latency_p99_s", latencyDoc("99th-percentile", "error"), "seconds",
			func(r *Result) float64 { return r.ErrorLatencyP99 }, func(r *Result) float64 { return r.SD.ErrorLatencyP99 }, false, true},
		{pool[0].Name, "a worker pool: " + pool[0].Doc + "; empty for other dependencies", pool[0].Kind,
			func(r *Result) float64 { return r.InSystemMean }, func(r *Result) float64 { return r.SD.InSystemMean }, false, true},
		{pool[1].Name, "a worker pool: " + pool[1].Doc + "; empty for other dependencies", pool[1].Kind,
			func(r *Result) float64 { return r.WaitMeanS }, func(r *Result) float64 { return r.SD.WaitMeanS }, false, true},
		{pool[2].Name, "a worker pool: " + pool[2].Doc + "; empty for other dependencies", pool[2].Kind,
			func(r *Result) float64 { return r.ServiceMeanS }, func(r *Result) float64 { return r.SD.ServiceMeanS }, false, true},
		{"shed", "calls the dependency's admission rule (dependency.admission) answered at once with an error instead of serving them, for having waited too long; empty without a rule", "count",
			func(r *Result) float64 { return r.Shed }, func(r *Result) float64 { return r.SD.Shed }, false, true},
		markovMetric("markov_verdict", "the markov engine's verdict: metastable (each mode holds at least 0.1% of the stationary probability and both markov_fill_s and markov_drain_s exceed the run's duration), overloaded (otherwise, the high mode holding more than half), healthy (otherwise)", "phase",
			func(m *MarkovMetrics) float64 { return float64(m.Phase) }),
		markovMetric("markov_states", "states of the markov engine's chain: (queue_limit + 1) × (markov.orbit + 1)", "count",
			func(m *MarkovMetrics) float64 { return m.States }),
		markovMetric("markov_queue_mean", "calls at the server (waiting or in service), the chain's stationary mean", "ratio",
			func(m *MarkovMetrics) float64 { return m.QueueMean }),
		markovMetric("markov_orbit_mean", "timed-out calls waiting to retry, the chain's stationary mean", "ratio",
			func(m *MarkovMetrics) float64 { return m.OrbitMean }),
		markovMetric("markov_high_p", "the chain's stationary probability of the high mode: more calls at the server than capacity × timeout", "ratio",
			func(m *MarkovMetrics) float64 { return m.HighP }),
		markovMetric("markov_mixing_s", "seconds the chain's slowest mode takes to decay to 1%: ln(100) / its spectral gap", "seconds",
			func(m *MarkovMetrics) float64 { return m.MixingS }),
		markovMetric("markov_fill_s", "the chain's expected seconds from empty (no call at the server or in the orbit) until the queue is first full", "seconds",
			func(m *MarkovMetrics) float64 { return m.FillS }),
		markovMetric("markov_drain_s", "the chain's expected seconds from full (queue and orbit) until first empty", "seconds",
			func(m *MarkovMetrics) float64 { return m.DrainS }),
		markovMetric("markov_tip_s", "the chain's expected seconds from empty until the high mode is first reached: the counterpart of a simulation's collapse_s", "seconds",
			func(m *MarkovMetrics) float64 { return m.TipS }),
		markovMetric("markov_recover_s", "the chain's expected seconds from full (queue and orbit) until the low mode is first reached: the counterpart of a simulation's drain_s from a full queue", "seconds",
			func(m *MarkovMetrics) float64 { return m.RecoverS }),
		{"wasted", "share (0..1) of the dependency's work spent on calls whose caller had given up", "ratio",
			func(r *Result) float64 { return r.Wasted() }, nil, false, false},
		{"replicates", "seeded runs behind the row", "count",
			func(r *Result) float64 { return float64(r.Replicates) }, nil, false, false},
		{"recovered_share", "share of the judged replicates that recovered; empty when none was judged", "ratio",
			func(r *Result) float64 { return r.RecoveredShare }, nil, false, false},
		{"recovered_share_lo", "lower end of the Wilson 95% interval of recovered_share", "ratio",
			func(r *Result) float64 { return r.Spread.ShareLo }, nil, true, false},
		{"recovered_share_hi", "upper end of the Wilson 95% interval of recovered_share", "ratio",
			func(r *Result) float64 { return r.Spread.ShareHi }, nil, true, false},
		{"recovery_s_p50", "median of recovery_s over the replicates that recovered", "seconds",
			func(r *Result) float64 { return r.Spread.RecoveryP50 }, nil, true, false},
		{"recovery_s_p90", "90th percentile of recovery_s over the replicates that recovered", "seconds",
			func(r *Result) float64 { return r.Spread.RecoveryP90 }, nil, true, false},
	}
}

// markovMetric is a column of the markov engine's: a detail shown only
// where some cell ran that engine, empty in the others' rows.
func markovMetric(name, doc, kind string, value func(m *MarkovMetrics) float64) Metric {
	return Metric{Name: name, Doc: doc + "; empty for the other engines", Kind: kind, Optional: true,
		Value: func(r *Result) float64 {
			if r.Markov.Phase == PhaseNone {
				return math.NaN()
			}
			return value(&r.Markov)
		}}
}

// latencyDoc says what a latency quantile column measures: the quantile of
// the seconds from a user request's arrival to its answer, over the
// requests answered with a success or an error. What comes before "; empty"
// is the figures' axis label.
func latencyDoc(quantile, answer string) string {
	return quantile + " time from a user request's arrival to its " + answer + " (s)" +
		"; empty without measure_latency (stochastic engine) or when no request got one. " +
		"Over the requests answered so, not those still waiting at the end; in whole ticks (0: answered in the tick it arrived), " +
		"exact to 2,047 ticks, at most 0.1% long above; over replicates, the mean of each one's quantile"
}

// LookupMetric finds a metric by its column name.
func LookupMetric(name string) (Metric, bool) {
	for _, m := range MetricList() {
		if m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}
