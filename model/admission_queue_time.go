package model

import "time"

// QueueTimeParams are the keys of a queue-time limit.
type QueueTimeParams struct {
	MaxWait Duration `toml:"max_wait" doc:"the longest a call may wait; one that waited longer is shed when the server would take it"`
}

func (p *QueueTimeParams) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"max_wait", "", span(0, LongestWait), &p.MaxWait})
}

// queueTimeLimit sheds a call that waited more than a fixed time: a
// server's queue timeout, as gRPC servers and thread pools with a bounded
// wait apply it.
type queueTimeLimit struct{ max int64 }

func queueTimeAdmissionKind() admissionKind {
	return admissionKind{Kind: Kind{Name: "queue_time", Doc: "a queue timeout: a call that waited more than max_wait is shed (answered with an error) instead of served", Engines: OnStochastic,
		Params: QueueTimeParams{MaxWait: Duration(time.Second)}},
		make: func(params any, tickNs int64) admitter {
			return queueTimeLimit{spanTicks(params.(QueueTimeParams).MaxWait, tickNs)}
		}}
}

func (q queueTimeLimit) limit(int64, int64) int64 { return q.max }

func (q queueTimeLimit) newestFirst(_, _ int64, lifo bool) bool { return lifo }
