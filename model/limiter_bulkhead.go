package model

// bulkhead is a fixed concurrency limit: at most max tries in flight, the
// rule of Resilience4j's Bulkhead (maxConcurrentCalls, and maxWaitDuration
// as queue_timeout) and of Hystrix's semaphore isolation
// (maxConcurrentRequests). Its limit never moves, so it keeps no samples.
type bulkhead struct{ max int64 }

// BulkheadParams are the keys of a bulkhead.
type BulkheadParams struct {
	Max int `toml:"max" doc:"tries in flight at most"`
}

func (p *BulkheadParams) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"max", "", Range{1, 1e9, "tries"}, &p.Max})
}

func bulkheadKind() limiterKind {
	return limiterKind{Kind: Kind{Name: "bulkhead", Doc: "a fixed limit: at most max tries in flight (Resilience4j's Bulkhead, Hystrix's semaphore isolation)",
		Engines: OnStochastic, Params: BulkheadParams{Max: 25}}, make: newBulkhead}
}

func newBulkhead(p *LimiterPlan) limitRule {
	return bulkhead{max: int64(p.Params.(BulkheadParams).Max)}
}

func (b bulkhead) limit(int64) int64               { return b.max }
func (b bulkhead) sample(_, _, _, _ int64, _ bool) {}
