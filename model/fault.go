package model

import "sync"

// Fault is a trigger over a window.
type Fault struct {
	Kind     string   `toml:"kind" doc:"outage (capacity 0), degradation (capacity reduced to capacity), slowdown (service slower by factor) or spike (arrivals × factor)"`
	Start    Duration `toml:"start" doc:"when it begins"`
	Length   Duration `toml:"length" doc:"how long it lasts"`
	Capacity float64  `toml:"capacity" doc:"degradation: capacity during the window"`
	Factor   float64  `toml:"factor" doc:"slowdown: latency multiplier; spike: arrival multiplier"`
	// InService is what an outage does to the calls a worker pool has on
	// its workers when it starts (Segment.Halt).
	InService string `toml:"in_service" oneof:",finish,fail,hang" engines:"stochastic" doc:"outage at a worker pool: what becomes of the calls on its workers when it starts: finish (they finish their service, and no call starts until it ends), fail (they fail at once, as when the process crashes) or hang (they stop until the outage ends, then take the rest of their service, as when the process freezes); empty = finish"`
	// Unforeseen faults are the live explorer's: see unforeseen.go.
	Unforeseen bool `toml:"unforeseen" doc:"the run takes the fault up at its start, as it takes up a [[scenario.change]], instead of planning for it from the beginning: a fault injected into a live run, which stormlab serve exports so; the same in distribution, not draw for draw"`
	// Service is the graph's service a fault hits (graph.go).
	Service string `toml:"service" engines:"stochastic" doc:"a service graph: the service whose server an outage, degradation or slowdown hits (a spike hits the arrivals and names none)"`
}

// bounds: a slowdown by a factor below 1/1000 would be a speed-up to a
// capacity no tick can count; a spike of factor 0 stops the arrivals.
func (f *Fault) bounds(dst []Bound) []Bound {
	return append(dst,
		Bound{"start", "", span(0, LongestRun), &f.Start},
		Bound{"length", "", span(0, LongestRun), &f.Length},
		Bound{"capacity", "degradation", Range{0, MaxRate, "calls/s"}, &f.Capacity},
		Bound{"factor", "slowdown", Range{0.001, 1e6, ""}, &f.Factor},
		Bound{"factor", "spike", Range{0, 1e6, ""}, &f.Factor},
	)
}

func (f *Fault) kind() string { return f.Kind }

// Halt is what an outage does to the calls on a worker pool's workers when
// it starts (fault.N.in_service).
type Halt uint8

const (
	HaltFinish Halt = iota // they finish their service
	HaltFail               // they fail at once
	HaltHang               // they stop until the outage ends, then finish
)

// halt is the Halt f's in_service names.
func (f *Fault) halt() Halt {
	switch f.InService {
	case "fail":
		return HaltFail
	case "hang":
		return HaltHang
	}
	return HaltFinish
}

// DefaultFault is what a [[scenario.fault]] entry holds before its keys apply.
func DefaultFault() Fault { return Fault{Kind: "outage", Factor: 1} }

// faultKinds is the registry of faults.
var faultKinds = sync.OnceValue(func() []Kind {
	return []Kind{
		{Name: "outage", Doc: "the dependency serves nothing", Engines: OnBoth, Reads: []string{"in_service"}},
		{Name: "degradation", Doc: "the dependency serves at most capacity calls a second", Engines: OnBoth, Reads: []string{"capacity"}},
		{Name: "slowdown", Doc: "the dependency is factor times slower: its capacity divided by it, its latency multiplied", Engines: OnBoth, Reads: []string{"factor"}},
		{Name: "spike", Doc: "the open loop's arrivals multiplied by factor", Engines: OnBoth, Reads: []string{"factor"}},
	}
})
