package model

import "math"

// gradient is Netflix concurrency-limits' Gradient2Limit: the limit follows
// the ratio of a long-term RTT (an exponential average over long_window
// samples, the first ten averaged plainly) to the short-term RTT, the one
// just measured:
//
//	gradient = max(0.5, min(1, rtt_tolerance × long / short))
//	limit'   = limit × (1 − smoothing) + (limit × gradient + queue_size) × smoothing
//
// kept within min_limit..max_limit. While short ≤ rtt_tolerance × long the
// limit grows by smoothing × queue_size a sample; as the RTT rises above
// it, the limit falls, by at most half of smoothing a sample. When long
// is more than twice short (the latency came back down after a long
// overload) long is cut by 5% a sample, so the limit recovers sooner; and
// while fewer than half the limit are in flight the limit stands (the
// library's "app limited"). Drops do not count: only latency moves it.
//
// Where ticks approximate it: the library takes one sample per try; here
// the tries that end in one tick are one sample (as the library's
// WindowedLimit would take them over a window of one tick): its RTT is
// their mean and its in-flight count their largest. An RTT is counted in
// whole ticks, a try answered in the tick it was sent taking one, so the
// ratio long / short resolves latency to the tick: the tick should be
// small against the tries' usual latency for the rule to see it move.
type gradient struct {
	est         float64 // the estimated limit
	least, most float64
	smoothing   float64
	tolerance   float64
	queue       float64
	long        expAverage

	// the tick's samples, applied as one when a later tick asks
	at          int64
	k, rttSum   int64
	inflightMax int64
}

// GradientParams are the keys of a gradient limiter, at the library's
// defaults.
type GradientParams struct {
	InitialLimit int     `toml:"initial_limit" doc:"the limit the run starts with"`
	MinLimit     int     `toml:"min_limit" doc:"the limit never falls below it"`
	MaxLimit     int     `toml:"max_limit" doc:"the limit never rises above it (the library's maxConcurrency)"`
	Smoothing    float64 `toml:"smoothing" doc:"how far one sample moves the limit toward its new estimate"`
	RTTTolerance float64 `toml:"rtt_tolerance" doc:"how much the short-term RTT may exceed the long-term one before the limit falls"`
	LongWindow   int     `toml:"long_window" doc:"samples the long-term RTT averages over (exponentially)"`
	QueueSize    int     `toml:"queue_size" doc:"how much the limit may grow beyond the estimate while latency stays low"`
}

func (p *GradientParams) bounds(dst []Bound) []Bound {
	return append(dst,
		Bound{"initial_limit", "", Range{1, 1e9, "tries"}, &p.InitialLimit},
		Bound{"min_limit", "", Range{1, 1e9, "tries"}, &p.MinLimit},
		Bound{"max_limit", "", Range{1, 1e9, "tries"}, &p.MaxLimit},
		Bound{"smoothing", "", Range{0.001, 1, ""}, &p.Smoothing},
		Bound{"rtt_tolerance", "", Range{1, 100, ""}, &p.RTTTolerance},
		Bound{"long_window", "", Range{1, 1e6, "samples"}, &p.LongWindow},
		Bound{"queue_size", "", Range{0, 1e6, "tries"}, &p.QueueSize},
	)
}

func gradientKind() limiterKind {
	return limiterKind{Kind: Kind{Name: "gradient", Doc: "Netflix concurrency-limits' Gradient2Limit: the limit scaled by max(0.5, min(1, rtt_tolerance × long-term RTT / short-term RTT)) plus queue_size, smoothed",
		Engines: OnStochastic, Params: GradientParams{InitialLimit: 20, MinLimit: 20, MaxLimit: 200, Smoothing: 0.2, RTTTolerance: 1.5, LongWindow: 600, QueueSize: 4},
		check: func(p any) *FieldError {
			q := p.(GradientParams)
			return limitsCheck(q.InitialLimit, q.MinLimit, q.MaxLimit)
		}},
		make: newGradient}
}

func newGradient(p *LimiterPlan) limitRule {
	q := p.Params.(GradientParams)
	return &gradient{est: float64(q.InitialLimit), least: float64(q.MinLimit), most: float64(q.MaxLimit), smoothing: q.Smoothing,
		tolerance: q.RTTTolerance, queue: float64(q.QueueSize), long: expAverage{window: q.LongWindow, warmup: 10}, at: -1}
}

func (g *gradient) adapts() {}

func (g *gradient) limit(now int64) int64 {
	if g.k > 0 && now > g.at {
		g.update()
	}
	return int64(g.est)
}

func (g *gradient) sample(now, k, rtt, inflight int64, _ bool) {
	if g.k > 0 && now > g.at {
		g.update()
	}
	g.at = now
	g.k += k
	g.rttSum += k * (rtt + 1)
	g.inflightMax = max(g.inflightMax, inflight)
}

// update applies the samples of tick g.at as one.
func (g *gradient) update() {
	short := float64(g.rttSum) / float64(g.k)
	inflight := g.inflightMax
	g.k, g.rttSum, g.inflightMax = 0, 0, 0
	long := g.long.add(short)
	if long/short > 2 {
		g.long.value *= 0.95
	}
	if float64(inflight) < g.est/2 {
		return // app limited: the limit stands
	}
	grad := math.Max(0.5, math.Min(1, g.tolerance*long/short))
	next := g.est*grad + g.queue
	next = g.est*(1-g.smoothing) + next*g.smoothing
	g.est = math.Max(g.least, math.Min(g.most, next))
}
