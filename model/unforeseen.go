package model

import (
	"math"
	"slices"
)

// Unforeseen faults.
//
// A run plans for its faults from its first tick: its ticks are cut into
// segments of constant fault effects, and the parts that look ahead stop
// at the next cut (the arrivals draw the gap to the next request up to
// it, and draw again from it). So a run with a fault at second 25 draws
// differently before second 25 from a run without it — the same in
// distribution, not draw for draw — though nothing it records before
// second 25 differs.
//
// A fault injected into a live run (stormlab serve) cannot be planned for:
// the live engine learns of it the moment the reader asks for it, and
// takes it up then as it takes up a [[scenario.change]]: the plan in
// force is resolved again with the fault, and the run goes on under it. A
// fault marked unforeseen is run that way by every engine, from any file:
// the run's plan leaves it out until its first tick, and switches then to
// a plan that has it. The file the live explorer exports therefore runs
// exactly as the live run ran.

// hasUnforeseen reports whether any fault is unforeseen.
func (s *Scenario) hasUnforeseen() bool {
	return slices.ContainsFunc(s.Fault, func(f Fault) bool { return f.Unforeseen })
}

// faultTick is the first tick of fault f, at ticks of tickNs.
func faultTick(f *Fault, tickNs int64) int64 { return (int64(f.Start) + tickNs - 1) / tickNs }

// knownFaults are the faults a plan in force from tick at knows of: the
// foreseen ones, and the unforeseen ones that have started by then.
func (s *Scenario) knownFaults(tickNs, at int64) []Fault {
	if !s.hasUnforeseen() {
		return s.Fault
	}
	var out []Fault
	for i := range s.Fault {
		if f := &s.Fault[i]; !f.Unforeseen || faultTick(f, tickNs) <= at {
			out = append(out, *f)
		}
	}
	return out
}

// planFrom resolves sc (the run's scenario, or a change's) as the plan the
// run follows from tick at: without changes, with the faults known then
// planned for. Its fault list and window are the run's own, every fault
// in them, which the measures over the fault window read.
func (p *Plan) planFrom(sc *Scenario, at int64) (*Plan, error) {
	then := *sc
	then.Change = nil
	if sc.hasUnforeseen() {
		then.Fault = nil
		for _, f := range sc.knownFaults(p.TickNs, at) {
			f.Unforeseen = false
			then.Fault = append(then.Fault, f)
		}
	}
	np, err := then.Resolve()
	if err != nil {
		return nil, err
	}
	np.FaultList, np.Fault = p.FaultList, p.Fault
	return np, nil
}

// unforeseenStarts is the first ticks of the unforeseen faults that start
// within a run of p after its first tick, in time order, each once.
func (s *Scenario) unforeseenStarts(p *Plan) []int64 {
	var starts []int64
	for i := range s.Fault {
		if f := &s.Fault[i]; f.Unforeseen && f.Length > 0 {
			if t := faultTick(f, p.TickNs); t > 0 && t < p.Ticks {
				starts = append(starts, t)
			}
		}
	}
	slices.Sort(starts)
	return slices.Compact(starts)
}

// resolveSwitches lays out, when some fault is unforeseen, every plan the
// run switches to in time order: the changes', which know of the
// unforeseen faults started by their tick, and at the first tick of each
// unforeseen fault that no change shares, the plan in force then with
// that fault. Without unforeseen faults the run switches at its changes
// alone.
func (p *Plan) resolveSwitches(s *Scenario) error {
	if !s.hasUnforeseen() {
		return nil
	}
	starts := s.unforeseenStarts(p)
	p.switches = []PlanChange{}
	c := 0 // the changes before the next start are in
	for _, t := range starts {
		for ; c < len(p.Changes) && p.Changes[c].At <= t; c++ {
			p.switches = append(p.switches, p.Changes[c])
		}
		if c > 0 && p.Changes[c-1].At == t {
			continue // the change at this tick knows of the fault
		}
		sc := s
		if c > 0 {
			sc = s.Change[c-1].Then
		}
		np, err := p.planFrom(sc, t)
		if err != nil {
			return err
		}
		p.switches = append(p.switches, PlanChange{At: t, Plan: np})
	}
	p.switches = append(p.switches, p.Changes[c:]...)
	return nil
}

// resolveGraphSwitches resolves a service graph (other than a chain)
// with changes or unforeseen faults: the plan the run starts on is the
// graph without its changes, knowing the faults that start at tick 0; at
// each change the run switches to the graph resolved from the change's
// scenario, and at the first tick of each other unforeseen fault to the
// graph resolved with the faults started by then, as a chain's run does
// (resolveChanges, resolveSwitches), its servers' plans with them (each
// server takes up its own: serverSet.adopt). Every plan's fault list and
// window are the run's own, every fault in them, as planFrom's are. The
// file without changes and with every fault foreseen is resolved first:
// its errors name the keys as written.
func (s *Scenario) resolveGraphSwitches() (*Plan, error) {
	tickNs := int64(s.Tick)
	known := func(at int64) (*Plan, error) {
		then := *s
		then.Change, then.Fault = nil, nil
		for _, f := range s.knownFaults(tickNs, at) {
			f.Unforeseen = false
			then.Fault = append(then.Fault, f)
		}
		return then.resolveGraph()
	}
	all, err := known(math.MaxInt64)
	if err != nil {
		return nil, err
	}
	p, err := known(0)
	if err != nil {
		return nil, err
	}
	p.FaultList, p.Fault, p.Notes = all.FaultList, all.Fault, all.Notes
	if err := p.resolveChanges(s); err != nil {
		return nil, err
	}
	return p, nil
}

// timeline is every plan switch of the run in time order: its changes,
// and with unforeseen faults the starts of those too.
func (p *Plan) timeline() []PlanChange {
	if p.switches != nil {
		return p.switches
	}
	return p.Changes
}
