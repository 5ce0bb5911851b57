package model

import "time"

// QueueTimeoutParams are the keys of a queue timeout.
type QueueTimeoutParams struct {
	MaxWait Duration `toml:"max_wait" doc:"the longest a call may wait and still be served"`
}

func (p *QueueTimeoutParams) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"max_wait", "", span(0, LongestWait), &p.MaxWait})
}

// queueTimeout sheds every call that waited longer than max_wait, the
// server-side queue timeout most RPC servers offer.
type queueTimeout struct{ max int64 }

func queueTimeoutKind() admissionKind {
	return admissionKind{Kind: Kind{Name: "queue_timeout", Doc: "a call that waited longer than max_wait is answered at once with an error instead of being served", Engines: OnStochastic,
		Params: QueueTimeoutParams{MaxWait: Duration(100 * time.Millisecond)}},
		make: func(params any, tps float64) admission {
			return &queueTimeout{max: waitTicks(params.(QueueTimeoutParams).MaxWait.Seconds(), tps)}
		}}
}

func (a *queueTimeout) cutoff(_, _ int64) int64     { return a.max }
func (a *queueTimeout) newestFirst(_, _ int64) bool { return false }
