package model

import "math"

// latencyServer is the congestive server (capacity = 0, latency_slope > 0):
// no capacity limit; each call takes latency + latency_slope × (calls in
// service, itself included), times a slowdown's factor. During an outage it
// completes nothing, so calls in service and calls arriving are answered
// after the outage ends.
type latencyServer struct {
	s        *stoch
	inflight int64
}

func (l *latencyServer) begin(int64, *Segment) {}

func (l *latencyServer) arrive(g *group, n int64) {
	s := l.s
	p := s.p
	l.inflight += n
	sg := &p.Faults[s.seg]
	lat := int64(math.Min(1e15, math.Round((p.Latency+p.Slope*float64(l.inflight))*sg.LatFactor*p.TPS)))
	at := s.now + lat
	if sg.HoldUntil > 0 {
		at = sg.HoldUntil + lat
	}
	if at < p.Ticks {
		s.schedule(at, phService, event{kind: evDone, g: g, n: n})
	}
}

func (l *latencyServer) work(_ int64, _ *Segment, done []event) {
	for i := range done {
		ev := &done[i]
		l.inflight -= ev.n
		l.s.complete(ev.g, ev.n, 0)
		l.s.gs.release(ev.g)
	}
}

func (l *latencyServer) end() {}

func (l *latencyServer) backlog() int64 { return l.inflight }

func (l *latencyServer) next(int64) int64 { return never }

func (l *latencyServer) idle(int64, int64) {}

func (l *latencyServer) withdraw(*group, int64) {}

func (l *latencyServer) entries() int64 { return 0 }

func (l *latencyServer) adopt(_, _ *Plan) {}
