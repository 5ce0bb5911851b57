package model

// limiters holds a run's concurrency limiters (stochastic engine): for each
// layer that has one, one per client, or one for the whole layer, each
// made when its first try comes.
type limiters struct {
	byLayer [][]*limiter // by layer, then client (one entry for a layer-wide limit); nil for a layer without
	plans   []LimiterPlan
}

// newLimiters makes the limiters of a run of p; nil when no layer has one.
func newLimiters(p *Plan) *limiters {
	var ls *limiters
	for i, l := range p.Chain {
		if !l.Limiter.On() {
			continue
		}
		if ls == nil {
			ls = &limiters{byLayer: make([][]*limiter, len(p.Chain)), plans: make([]LimiterPlan, len(p.Chain))}
		}
		ls.plans[i] = l.Limiter
		n := int(p.Clients)
		if l.Limiter.PerLayer {
			n = 1
		}
		ls.byLayer[i] = make([]*limiter, n)
	}
	return ls
}

// of is the limiter on a layer's tries for a client, or nil.
func (ls *limiters) of(layer int8, client int32) *limiter {
	by := ls.byLayer[layer]
	if by == nil {
		return nil
	}
	if len(by) == 1 {
		client = 0
	}
	l := by[client]
	if l == nil {
		l = newLimiter(&ls.plans[layer])
		by[client] = l
	}
	return l
}

// perClient reports whether some layer's limit is per client, over several
// clients, so that arrivals must be told apart by client.
func (ls *limiters) perClient() bool {
	if ls == nil {
		return false
	}
	for _, by := range ls.byLayer {
		if len(by) > 1 {
			return true
		}
	}
	return false
}

// adapts reports whether some layer's limit is adaptive, so that its
// groups are stamped when they are sent.
func (ls *limiters) adapts() bool {
	if ls == nil {
		return false
	}
	for i, by := range ls.byLayer {
		if by != nil {
			if _, ok := ls.plans[i].rule().(adaptive); ok {
				return true
			}
		}
	}
	return false
}
