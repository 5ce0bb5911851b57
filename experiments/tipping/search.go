package tipping

import (
	"math"
	"slices"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
)

// Search is the answer of one search: for one combination of values of the
// grid's other axes, where along the key's range the system tips.
type Search struct {
	Spec   *spec.Tipping
	Params []sweep.Param // the values of the grid's axes other than the key, in axis order
	Cell   *sweep.Cell   // the grid cell the search started from
	Status Status
	Region Region // "" unless the key is a fault's
	// Baseline is the run without any fault (a fault's key only; nil
	// otherwise): it tells an overloaded system from the others.
	Baseline *Eval
	Evals    []Eval // every point run, in line order
	// Brackets are the pairs of neighbouring points whose verdicts differ,
	// from the mild end: one for a monotone answer.
	Brackets [][2]Eval
	// Critical is the estimate, in the key's unit: the mildest value that
	// tips (deterministic engine), or where the share that tips crosses one
	// half (stochastic). NaN when the range holds none.
	Critical float64
	// Recovers and Tips are the bracket of the estimate: the nearest point
	// on the mild side that recovers and the one on the severe side that
	// tips. Nil when there is no such bracket.
	Recovers, Tips *Eval
	// Lo and Hi bound Critical for a stochastic engine: the nearest points
	// on either side whose verdicts are certain at 95%. NaN when no such
	// point lies on that side, and for a deterministic engine.
	Lo, Hi float64
	// Evaluations are the cells the search ran, the run without a fault
	// included; GridPoints those a uniform grid of the same resolution over
	// the same range runs (with the run without a fault, when that is not a
	// point of the range).
	Evaluations, GridPoints int
	// Changes counts the changes of verdict between neighbouring points run,
	// in line order.
	Changes int
	// End is the state the tipping point of a deterministic simulation's
	// search leaves the system in when the run ends (its cell's verdict);
	// nil otherwise (a markov search's tipping point has its chain's verdict,
	// Tips.Phase, instead).
	End *End
}

// Label is the search's combination of values, "load=70, policy=naive", or
// "base" when the grid has no other axis.
func (s *Search) Label() string { return (&sweep.Cell{Params: s.Params}).Label() }

// Monotone reports whether the answer is a single step: it recovers up to
// some point and tips from there on (or never tips, or always does), with
// no point certain to tip on the mild side of a point certain to recover.
func (s *Search) Monotone() bool { return s.Status != NonMonotone }

// Chain reports whether the markov engine solved the search's points: each
// verdict is its chain's (model.MarkovPhase), a point tipping unless the
// chain is healthy.
func (s *Search) Chain() bool {
	for i := range s.Evals {
		return s.Evals[i].Chain()
	}
	return false
}

// Exact reports whether the verdicts are certain: a deterministic engine
// (the queue engine, or the markov engine's solves).
func (s *Search) Exact() bool {
	for i := range s.Evals {
		return s.Evals[i].exact
	}
	return s.Baseline != nil && s.Baseline.exact
}

// summarise reads the answer from the points run: the changes of verdict,
// the status and the region, the estimate and its interval.
func (s *Search) summarise() {
	s.Critical, s.Lo, s.Hi = math.NaN(), math.NaN(), math.NaN()
	s.Status, s.Region, s.Changes, s.Brackets, s.Recovers, s.Tips = "", "", 0, nil, nil, nil
	slices.SortFunc(s.Evals, func(a, b Eval) int { return a.Index - b.Index })
	for i := range s.Evals {
		if s.Evals[i].Aborted != "" {
			s.Status = Aborted
			return
		}
	}
	up := -1 // the first bracket from recovering to tipping
	for i := 1; i < len(s.Evals); i++ {
		a, b := s.Evals[i-1], s.Evals[i]
		if a.Tips() == b.Tips() {
			continue
		}
		s.Changes++
		s.Brackets = append(s.Brackets, [2]Eval{a, b})
		if up < 0 && !a.Tips() {
			up = i
		}
	}
	// The points certain to recover and to tip: none of the first may lie
	// on the severe side of one of the second.
	lastSure, firstSure := -1, len(s.Evals)
	for i := range s.Evals {
		if s.Evals[i].SureRecovers() {
			lastSure = i
		}
		if s.Evals[len(s.Evals)-1-i].SureTips() {
			firstSure = len(s.Evals) - 1 - i
		}
	}
	inverted := lastSure > firstSure
	switch {
	case len(s.Evals) == 0:
		s.Status = Nothing
	case s.Changes == 0 && s.Evals[0].Tips():
		s.Status = Already
	case s.Changes == 0:
		s.Status = Nothing
	case inverted, up < 0, s.Exact() && s.Changes > 1:
		s.Status = NonMonotone
	default:
		s.Status = Found
	}
	if s.Spec.Trigger() {
		switch s.Status {
		case Nothing:
			s.Region = Stable
		default:
			s.Region = Vulnerable
		}
	}
	if up < 0 {
		return
	}
	// A stochastic answer may change back and forth near the boundary by
	// chance; its estimate is the first change within the certain points.
	if !s.Exact() && !inverted {
		for i := up; i < len(s.Evals); i++ {
			if !s.Evals[i-1].Tips() && s.Evals[i].Tips() && i-1 >= lastSure && i <= firstSure {
				up = i
				break
			}
		}
	}
	rec, tip := s.Evals[up-1], s.Evals[up]
	s.Recovers, s.Tips = &rec, &tip
	if s.Exact() {
		s.Critical = tip.Value
		return
	}
	pa, pb := rec.Share(), tip.Share()
	s.Critical = rec.Value + (0.5-pa)/(pb-pa)*(tip.Value-rec.Value)
	if lastSure >= 0 && lastSure < up {
		s.Lo = s.Evals[lastSure].Value
	}
	if firstSure < len(s.Evals) && firstSure >= up {
		s.Hi = s.Evals[firstSure].Value
	}
}

func nan() float64 { return math.NaN() }
