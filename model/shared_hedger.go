package model

// SharedHedger is a layer's hedger for callers outside the engines: the
// lab's real clients tell it each try they send and learn its hedge delay,
// ask it when a hedge is due whether the cap lets it go, and tell it each
// success's latency, so that the hedge kind's rule (hedger.go) lives in its
// file alone. It is not safe for concurrent use: the caller serialises.
type SharedHedger struct{ h *hedger }

// NewSharedHedger returns the hedger of layer of p, or nil when the layer
// does not hedge.
func NewSharedHedger(p *Plan, layer int) *SharedHedger {
	l := p.Chain[layer]
	if l.Hedge.Delay <= 0 {
		return nil
	}
	return &SharedHedger{newHedger(p, l.Hedge, l.Timeout)}
}

// Sent records a try sent at tick t and answers how many ticks it waits
// before its hedge.
func (s *SharedHedger) Sent(t int64) int64 {
	s.h.sent(t, 1)
	return s.h.after(t)
}

// Take answers whether a hedge due at tick t may be sent (the cap), and
// withdraws it from the cap.
func (s *SharedHedger) Take(t int64) bool { return s.h.take(t, 1) == 1 }

// Succeeded records a success at tick t of a try that took lat ticks.
func (s *SharedHedger) Succeeded(t, lat int64) { s.h.succeeded(t, lat, 1) }
