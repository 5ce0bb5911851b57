package model

// Judge applies a plan's health rule and verdict to ticks measured outside
// the engines — the lab's counters from real servers — so that a run on a
// real stack is judged by the same rule, in the same place, as a simulated
// one. Tell it every tick of the run in order, then ask for the verdict.
type Judge struct {
	p *Plan
	h health
}

// NewJudge returns a judge for runs of p.
func NewJudge(p *Plan) *Judge { return &Judge{p: p, h: newHealth(p)} }

// Observe judges tick t, in which ok user requests succeeded and arrivals
// arrived, with backlog calls waiting at the dependency at its end and work
// held for the end watch (the calls waiting or in service; at a loss
// server, the user requests without an answer yet). It reports whether the
// tick was unhealthy.
func (j *Judge) Observe(t, ok, arrivals, backlog, work int64) (unhealthy bool) {
	return j.h.observe(t, ok, arrivals, backlog, work)
}

// Verdict fills in m's verdict, recovery, collapse and drain from the ticks
// observed.
func (j *Judge) Verdict(m *Metrics) { j.h.verdict(m, j.p) }
