package model

// SharedBudgets are a plan's retry budgets, with its scope applied (one for
// the chain, one per layer, one per client, or one for the calls to the
// dependency), for callers outside the engines: the lab's real clients ask
// them one try at a time, so that a budget kind's rule lives in its file
// alone. They are not safe for concurrent use: the caller serialises.
type SharedBudgets struct{ b budgets }

// NewSharedBudgets returns the budgets of p for a chain of layers layers
// and clients clients, their random draws (a kind that draws) seeded by
// seed. With no budget in p every method lets everything through.
func NewSharedBudgets(p *Plan, seed uint64) *SharedBudgets {
	return &SharedBudgets{b: newBudgets(p, len(p.Chain), p.Clients, newPCG(seed))}
}

// On reports whether there is a budget at all.
func (s *SharedBudgets) On() bool { return s.b.on() }

// PerClient reports whether each client has a budget of its own, so that
// requests must be told apart by client.
func (s *SharedBudgets) PerClient() bool { return s.b.perClient() }

// Send asks whether a try of layer for client, about to be sent, may go
// (retry: it is a retry), and counts it.
func (s *SharedBudgets) Send(layer, client int, retry bool) bool {
	return s.b.send(int8(layer), int32(client), retry, 1) == 1
}

// Fail tells that a try failed (timeout: by timing out; last: with no
// attempt left) and answers whether it may be retried.
func (s *SharedBudgets) Fail(layer, client int, timeout, last bool) bool {
	return s.b.fail(int8(layer), int32(client), 1, timeout, last) == 1
}

// Succeed tells that a try succeeded (retry: it was a retry; afterTimeout:
// a retry sent after a timeout).
func (s *SharedBudgets) Succeed(layer, client int, retry, afterTimeout bool) {
	s.b.succeed(int8(layer), int32(client), 1, retry, afterTimeout)
}

// Hedge asks whether a hedge of a try of layer for client, about to be
// sent, may go, and charges it as the engine charges a hedge (a kind's own
// rule for hedges, or as a retry).
func (s *SharedBudgets) Hedge(layer, client int) bool {
	return s.b.hedge(int8(layer), int32(client), 1) == 1
}

// End tells that a try ended, whatever its outcome.
func (s *SharedBudgets) End(layer, client int, retry bool) {
	s.b.end(int8(layer), int32(client), retry, 1)
}

// Ticks reports whether the budgets follow time (Tick must then be called).
func (s *SharedBudgets) Ticks() bool { return s.b.ticks() }

// Tick starts tick t, in which arrivals[c] user requests arrived for client
// c (one entry when clients are not told apart).
func (s *SharedBudgets) Tick(t int64, arrivals []int64) { s.b.tick(t, arrivals) }
