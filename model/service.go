package model

import (
	"math"
	"sync"
)

// serviceLaw is the law of one call's service time at the dependency, in
// seconds: how long a call holds the server (a worker of a pool) once it
// starts. Each law is a file of its own (service_*.go) and an entry of
// serviceKinds. A law is given by its survival function and its inverse,
// so that the engine can draw one call's time by inversion and split a
// group of calls over ticks exactly (serviceSplit), far into a heavy tail
// without losing precision to 1 − F.
type serviceLaw interface {
	// survival is P(service time > x), x in seconds.
	survival(x float64) float64
	// upper is the time x with survival(x) = s, for s in (0, 1]: the
	// quantile 1 − s, computed from the top.
	upper(s float64) float64
	// mean is the law's mean, in seconds (+Inf for a tail without one).
	mean() float64
}

// serviceKind is one registered service-time law: its Kind and what makes
// it from its parameters (Params' type, or nil for a law that reads the
// dependency's latency) and the dependency's latency, in seconds.
type serviceKind struct {
	Kind
	make func(params any, latency float64) serviceLaw
}

func (k serviceKind) info() Kind { return k.Kind }

// serviceKinds is the registry of service-time laws.
var serviceKinds = sync.OnceValue(func() []serviceKind {
	return []serviceKind{
		constantServiceKind(),
		exponentialServiceKind(),
		lognormalServiceKind(),
		paretoServiceKind(),
		empiricalServiceKind(),
	}
})

// serviceTicks is a service-time law in ticks: the law, stretched by a
// fault's factor, with the survival at each tick's upper edge (half a tick
// past it) worked out once, as serviceSplit asks for it, and kept.
type serviceTicks struct {
	law    serviceLaw
	scale  float64   // ticks per second of the law: the run's rate / the factor
	factor float64   // the factor the table is for
	edge   []float64 // edge[j]: P(time ≥ j + ½ ticks)
}

// at is the survival at tick j's upper edge.
func (t *serviceTicks) at(j int64) float64 {
	for int64(len(t.edge)) <= j {
		t.edge = append(t.edge, t.law.survival((float64(len(t.edge))+0.5)/t.scale))
	}
	return t.edge[j]
}

// use points t at law stretched by factor, at tps ticks a second; its
// table is kept when they are what it was made for.
func (t *serviceTicks) use(law serviceLaw, tps, factor float64) *serviceTicks {
	if t.law != law || t.factor != factor {
		*t = serviceTicks{law: law, scale: tps * factor, factor: factor, edge: t.edge[:0]}
	}
	return t
}

// splitOneByOne is the most calls serviceSplit draws one by one: one
// uniform and one quantile each, where a binomial of so few calls at every
// tick they may end in costs a uniform per call and tick
// (BenchmarkStorm10kPool).
const splitOneByOne = 16

// serviceSplit spreads n calls starting service now over the ticks their
// service ends in, into dst (d = ticks from now), each call's time drawn
// from t's law, stretched by its factor and rounded to the nearest tick, at
// most capT ticks. Up to splitOneByOne calls are drawn one by one by
// inversion; a larger group takes sequential binomials over the ticks —
// the number ending in tick j among those not ended before it is binomial
// with the law's conditional probability — until splitOneByOne calls or
// fewer are left, which are drawn one by one from the law conditioned on
// lasting that long. Either way the counts are exactly the multinomial of
// n independent draws.
func serviceSplit(dst []split, r source, t *serviceTicks, capT int64, n int64) []split {
	law, scale := t.law, t.scale
	if a, ok := law.(atomic); ok {
		return append(dst, split{min(capT, int64(math.Round(a.at()*scale))), n})
	}
	start := len(dst)
	rest, s0 := n, 1.0 // calls left; P(time ≥ the tick's lower edge)
	for j := int64(0); rest > 0; j++ {
		if j >= capT {
			dst = append(dst, split{capT, rest})
			break
		}
		if rest <= splitOneByOne {
			start = len(dst) // the ticks before j are in order, each once; the draws end at j or later
			for range rest {
				// the survival at the draw is uniform on (0, s0]
				x := math.Round(law.upper(s0*(1-r.Float64())) * scale)
				dst = append(dst, split{int64(math.Min(x, float64(capT))), 1})
			}
			break
		}
		s1 := t.at(j)
		var m int64
		if s0 <= 0 || s1 <= 0 {
			m = rest
		} else {
			m = binomial(r, rest, 1-s1/s0)
		}
		if m > 0 {
			dst = append(dst, split{j, m})
		}
		rest -= m
		s0 = s1
	}
	tail := groupSplits(dst[start:]) // the draws one by one, in order
	return append(dst[:start], tail...)
}

// atomic is a law with all its mass at one time (the constant law), which
// serviceSplit places without drawing.
type atomic interface {
	at() float64 // the time, in seconds
}

// Service is the dependency's service-time law (dependency.service): its
// kind and, for a law with keys of its own, their values. A worker pool
// (dependency.workers > 0) holds a worker for each call's time drawn from
// it; a capacity server answers each call it serves that long after; the
// latency server takes only the constant law, dependency.latency.
type Service struct {
	Kind string `toml:"kind" doc:"constant (the default), or one of the service-time laws below"`
	// Params are the kind's keys: a value of its parameter struct; nil for
	// none (and, before Resolve, for a kind whose defaults stand).
	Params any `toml:"-"`
}

// serviceTable is the service-time laws as a Service picks one; no kind
// is the constant law.
func serviceTable() kindTable[serviceKind] {
	return kindTable[serviceKind]{kinds: serviceKinds, unset: "constant"}
}

// TableKind, SetTableKind, TableParams, SetTableParams and TableKinds make
// a service law a KindTable.
func (v *Service) TableKind() string { return v.Kind }
func (v *Service) SetTableKind(name string) error {
	return serviceTable().setKind(&v.Kind, &v.Params, name)
}
func (v *Service) TableParams() any     { return serviceTable().params(v.Kind, v.Params) }
func (v *Service) SetTableParams(p any) { v.Params = p }
func (v *Service) TableKinds() []Kind   { return serviceTable().infos() }

// law makes the law v names, latency being the dependency's (in seconds).
func (v *Service) law(latency float64) serviceLaw {
	k, _ := serviceTable().lookup(v.Kind)
	return k.make(v.TableParams(), latency)
}
