package tipping

import (
	"math"

	"github.com/stormlab/stormlab/model"
)

// Eval is one point a search ran: its cell's verdict, counted over the
// cell's replicates.
type Eval struct {
	Index  int     // position on the line, 0 at the mild end; −1 for the run without a fault
	Value  float64 // the key's value, in its unit (seconds for a duration)
	Text   string  // as the grid writes it: "2s", "70"
	Runs   int     // replicates
	Tipped int     // replicates that did not recover
	// Lo and Hi bound the share of replicates that tip: the Wilson 95%
	// interval of the cell's result.
	Lo, Hi    float64
	CollapseS float64 // mean seconds from the start until first unhealthy; NaN when never
	Aborted   string  // the cell was stopped at the memory cap: why
	// NotJudged: no request arrived after the trigger, so the point has no
	// verdict; it counts as recovering.
	NotJudged bool
	// Phase is the chain's verdict when the markov engine solved the point
	// (model.PhaseNone otherwise): the point tips unless it is healthy.
	Phase model.MarkovPhase
	exact bool // the engine is deterministic: the verdict is certain
	end   End  // how the run ended (the cell's verdict)
}

// newEval reads a point's verdict from its cell's result, which engine ran
// it. A simulated point tips when at least half of its replicates never
// recover. A point the markov engine solved has no run to recover in: it
// tips when the chain is not healthy, that is metastable or overloaded
// (model.MarkovPhase: each mode holding at least model.MetastableMass of
// the stationary probability and both the expected times to fill from
// empty and to drain from full beyond the run's duration, or the high
// mode holding more than half).
func newEval(index int, value float64, text string, r *model.Result, engine model.EngineKind) Eval {
	e := Eval{Index: index, Value: value, Text: text, Runs: r.Replicates, exact: engine != model.EngineStochastic,
		CollapseS: r.CollapseS, Aborted: r.Aborted}
	if engine == model.EngineMarkov {
		e.Phase = r.Markov.Phase
		if e.Phase != model.PhaseHealthy {
			e.Tipped = e.Runs
		}
		e.Lo, e.Hi = e.Share(), e.Share()
		return e
	}
	if r.Aborted != "" || !r.Verdict.Judged() {
		e.Lo, e.Hi, e.NotJudged = math.NaN(), math.NaN(), r.Aborted == ""
		return e
	}
	e.end = endOf(r)
	recovered := int(math.Round(r.RecoveredShare * float64(r.Replicates)))
	e.Tipped = r.Replicates - recovered
	e.Lo, e.Hi = 1-r.Spread.ShareHi, 1-r.Spread.ShareLo
	return e
}

// judgedBy is the result a search judges a point by: the run's, or with a
// service named, the run's with that service's verdict, recovered share
// and its interval, and collapse in their place, read from the graph's
// columns (model.GraphMetrics); the backlog at the end is the run's, so a
// service's draining point says no drain rate.
func judgedBy(r *model.Result, service string) *model.Result {
	if service == "" {
		return r
	}
	col := func(name string) float64 {
		for _, v := range r.Graph {
			if v.Column == service+"."+name {
				return v.Mean
			}
		}
		return math.NaN()
	}
	j := *r
	j.Verdict = model.Verdict(col("verdict"))
	j.RecoveredShare, j.CollapseS = col("recovered_share"), col("collapse_s")
	j.Spread.ShareLo, j.Spread.ShareHi = col("recovered_share_lo"), col("recovered_share_hi")
	j.DrainRate, j.DrainLeftS = math.NaN(), math.NaN()
	return &j
}

// Chain reports whether the markov engine solved the point: its verdict is
// the chain's (Phase), not a run's.
func (e *Eval) Chain() bool { return e.Phase != model.PhaseNone }

// Share is the share of replicates that tip.
func (e *Eval) Share() float64 { return float64(e.Tipped) / float64(e.Runs) }

// Tips is the point's verdict: at least half of its replicates do not
// recover.
func (e *Eval) Tips() bool { return 2*e.Tipped >= e.Runs }

// SureTips reports whether the point tips beyond doubt: always for a
// deterministic engine, else when the Wilson interval of the share that
// tips lies wholly above one half.
func (e *Eval) SureTips() bool {
	if e.exact {
		return e.Tips()
	}
	return e.Lo > 0.5
}

// SureRecovers reports whether the point recovers beyond doubt: always for
// a deterministic engine, else when the Wilson interval of the share that
// tips lies wholly below one half.
func (e *Eval) SureRecovers() bool {
	if e.exact {
		return !e.Tips()
	}
	return e.Hi < 0.5
}
