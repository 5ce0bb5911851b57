package model

import (
	"math"
	"time"
)

// aimd is the additive-increase, multiplicative-decrease limit of Netflix's
// concurrency-limits library (AIMDLimit). Each try that ends is a sample:
// a drop — an error answer, a timeout, or an answer later than rtt_timeout
// — multiplies the limit by backoff_ratio and truncates it; a success that
// was sent while at least half the limit was in use (inflight × 2 ≥ limit)
// adds one; the limit stays within min_limit..max_limit. Samples of a
// group of identical tries apply one after another, as the library's would
// for tries that end together; the library feeds no sample for a try the
// limiter itself turned away, nor here.
type aimd struct {
	lim         int64
	least, most int64
	ratio       float64
	slow        int64 // rtt_timeout in ticks: a later answer is a drop
}

// AIMDParams are the keys of an AIMD limiter, at the library's defaults.
type AIMDParams struct {
	InitialLimit int      `toml:"initial_limit" doc:"the limit the run starts with"`
	MinLimit     int      `toml:"min_limit" doc:"the limit never falls below it"`
	MaxLimit     int      `toml:"max_limit" doc:"the limit never rises above it"`
	BackoffRatio float64  `toml:"backoff_ratio" doc:"a drop multiplies the limit by it"`
	RTTTimeout   Duration `toml:"rtt_timeout" doc:"a try answered later than this counts as a drop"`
}

func (p *AIMDParams) bounds(dst []Bound) []Bound {
	return append(dst,
		Bound{"initial_limit", "", Range{1, 1e9, "tries"}, &p.InitialLimit},
		Bound{"min_limit", "", Range{1, 1e9, "tries"}, &p.MinLimit},
		Bound{"max_limit", "", Range{1, 1e9, "tries"}, &p.MaxLimit},
		Bound{"backoff_ratio", "", Range{0.5, 0.999, ""}, &p.BackoffRatio},
		Bound{"rtt_timeout", "", span(Duration(time.Microsecond), LongestWait), &p.RTTTimeout},
	)
}

func aimdKind() limiterKind {
	return limiterKind{Kind: Kind{Name: "aimd", Doc: "Netflix concurrency-limits' AIMDLimit: +1 on a success sent with at least half the limit in use, × backoff_ratio on a drop (an error, a timeout, an answer after rtt_timeout)",
		Engines: OnStochastic, Params: AIMDParams{InitialLimit: 20, MinLimit: 20, MaxLimit: 200, BackoffRatio: 0.9, RTTTimeout: Duration(5 * time.Second)},
		check: func(p any) *FieldError {
			q := p.(AIMDParams)
			return limitsCheck(q.InitialLimit, q.MinLimit, q.MaxLimit)
		}},
		make: newAIMD}
}

func newAIMD(p *LimiterPlan) limitRule {
	q := p.Params.(AIMDParams)
	return &aimd{lim: int64(q.InitialLimit), least: int64(q.MinLimit), most: int64(q.MaxLimit), ratio: q.BackoffRatio,
		slow: int64(q.RTTTimeout) / p.TickNs}
}

func (a *aimd) adapts() {}

func (a *aimd) limit(int64) int64 { return a.lim }

// sample applies k samples in a row: k decreases, each truncating, until
// the limit stops moving at min_limit; or k increases while the
// in-flight condition holds, which stops once the limit passes
// 2 × inflight (or reaches max_limit).
func (a *aimd) sample(_, k, rtt, inflight int64, drop bool) {
	if drop || rtt > a.slow {
		for ; k > 0; k-- {
			next := max(a.least, min(a.most, int64(math.Floor(float64(a.lim)*a.ratio))))
			if next == a.lim {
				break
			}
			a.lim = next
		}
		return
	}
	if steps := min(k, 2*inflight-a.lim+1); steps > 0 {
		a.lim += steps
	}
	a.lim = max(a.least, min(a.most, a.lim))
}
