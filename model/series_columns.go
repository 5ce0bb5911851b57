package model

// SeriesColumn is one quantity of a series row, named as its series.csv
// column: what reports write, what a band summarises over replicates and
// what a window averages.
type SeriesColumn struct {
	Name string
	Doc  string // what it is, for a windowed column's description
	Get  func(r *SeriesRow) float64
	// Level marks a value that is not a count over the bin: a value at the
	// bin's end (queue, in_flight), a rate (capacity_per_s) or a 0/1
	// (healthy). A window averages it over time; it sums a count and divides
	// by the window's length, giving a rate per second.
	Level bool
	// Optional marks a policy's detail: series.csv has it only when some
	// row has a value other than 0.
	Optional bool
	// Suffix follows the name in a windowed column: "_per_s" for a count
	// (a window gives its rate), "_share" for healthy, "" otherwise.
	Suffix string
}

// SeriesColumns lists the quantities of a series row in series.csv order
// (after its time column, t_s).
func SeriesColumns() []SeriesColumn {
	count := func(name, doc string, get func(r *SeriesRow) float64) SeriesColumn {
		return SeriesColumn{Name: name, Doc: doc, Get: get, Suffix: "_per_s"}
	}
	detail := func(name, doc string, get func(r *SeriesRow) float64) SeriesColumn {
		c := count(name, doc, get)
		c.Optional = true
		return c
	}
	level := func(name, doc string, get func(r *SeriesRow) float64) SeriesColumn {
		return SeriesColumn{Name: name, Doc: doc, Get: get, Level: true}
	}
	healthy := level("healthy", "share of the time the system was healthy", func(r *SeriesRow) float64 {
		if r.Unhealthy {
			return 0
		}
		return 1
	})
	healthy.Suffix = "_share"
	inSystem := level("in_system", "calls a worker pool held, waiting or on a worker, at the ends of its ticks: their mean (0 for other dependencies)", func(r *SeriesRow) float64 { return r.InSystem })
	inSystem.Optional = true
	return []SeriesColumn{
		count("requests", "new user requests per second", func(r *SeriesRow) float64 { return r.Requests }),
		count("calls", "calls per second reaching the dependency", func(r *SeriesRow) float64 { return r.Calls }),
		count("retries", "retries per second reaching the dependency", func(r *SeriesRow) float64 { return r.Retries }),
		count("successes", "user requests answered with a success per second (goodput)", func(r *SeriesRow) float64 { return r.Successes }),
		count("failures", "user requests answered with an error per second", func(r *SeriesRow) float64 { return r.Failures }),
		count("timeouts", "attempts given up on per second", func(r *SeriesRow) float64 { return r.Timeouts }),
		count("refused", "tries and retries refused by a policy per second", func(r *SeriesRow) float64 { return r.Refused }),
		detail("refused_budget", "retries refused by a budget per second", func(r *SeriesRow) float64 { return r.RefusedBudget }),
		detail("refused_breaker", "tries failed at once by an open breaker per second", func(r *SeriesRow) float64 { return r.RefusedBreaker }),
		detail("refused_deadline", "tries not started for want of time per second", func(r *SeriesRow) float64 { return r.RefusedDeadline }),
		detail("refused_pushback", "retries not made after pushback per second", func(r *SeriesRow) float64 { return r.RefusedPushback }),
		detail("refused_limiter", "tries refused by a concurrency limiter per second", func(r *SeriesRow) float64 { return r.RefusedLimiter }),
		detail("not_retryable", "failed tries not retried as not retryable per second", func(r *SeriesRow) float64 { return r.NotRetryable }),
		detail("hedges", "hedges sent per second", func(r *SeriesRow) float64 { return r.Hedges }),
		count("served", "calls the dependency completed per second", func(r *SeriesRow) float64 { return r.Served }),
		count("wasted", "calls completed for callers who had given up, per second", func(r *SeriesRow) float64 { return r.Wasted }),
		level("queue", "calls waiting at the dependency", func(r *SeriesRow) float64 { return r.Queue }),
		level("in_flight", "user requests without an answer yet", func(r *SeriesRow) float64 { return r.InFlight }),
		level("capacity_per_s", "the dependency's capacity in calls per second", func(r *SeriesRow) float64 { return r.Capacity }),
		inSystem,
		healthy,
	}
}

// LookupSeriesColumn finds a series quantity by its series.csv name.
func LookupSeriesColumn(name string) (SeriesColumn, int, bool) {
	for i, c := range SeriesColumns() {
		if c.Name == name {
			return c, i, true
		}
	}
	return SeriesColumn{}, -1, false
}

// SeriesColumnNames lists the series quantities' names, for messages.
func SeriesColumnNames() []string {
	cols := SeriesColumns()
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}
