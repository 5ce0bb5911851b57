package tipping

import (
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/model"
)

// RuleOfThumb is the rule of thumb for naive retries at the search's other
// values, in the key's unit: the outage that tips the system is the one
// that builds the backlog of a healthy dependency, capacity × timeout /
// load (model.Plan.RuleOfThumb). For a search over an outage's length it is
// that length at the cell's load; for a search over the load, the load at
// which the cell's outage builds that backlog. ok is false when the rule
// does not apply: another key, a fault that is not an outage, a load that
// is not constant, retries that are not naive, or no healthy backlog.
func (s *Search) RuleOfThumb() (float64, bool) {
	p := s.Cell.Plan
	faults := p.FaultList
	if p.Arrivals != model.ArriveConstant && p.Arrivals != model.ArrivePoisson || len(p.Shape) > 0 || !Naive(p) {
		return 0, false
	}
	if j, ok := faultLength(s.Spec.Path); ok {
		if j >= len(faults) || faults[j].Kind != "outage" || len(faults) > 1 {
			return 0, false
		}
		return p.RuleOfThumb(p.Load)
	}
	if s.Spec.Path == "load" && len(faults) == 1 && faults[0].Kind == "outage" {
		return p.RuleOfThumb(faults[0].Length.Seconds())
	}
	return 0, false
}

// faultLength reports whether path is a fault's length, and which fault's.
func faultLength(path string) (int, bool) {
	segs := strings.Split(path, ".")
	if len(segs) != 3 || segs[0] != "fault" || segs[2] != "length" {
		return 0, false
	}
	j, err := strconv.Atoi(segs[1])
	return j, err == nil
}

// Naive reports whether a plan retries as the rule of thumb assumes: more
// than one attempt per request, at once (no backoff), with nothing to stop
// a retry (no budget, breaker, deadline or pushback), and the work of
// callers that gave up still served.
func Naive(p *model.Plan) bool {
	if p.Allowed < 2 || p.Budget.Kind != "none" || p.Deadline >= 0 || p.Pushback > 0 || p.DropExpired || p.Cancel || p.Breakers {
		return false
	}
	for _, l := range p.Chain {
		if l.Backoff.Kind != model.BackoffNone {
			return false
		}
	}
	return true
}
