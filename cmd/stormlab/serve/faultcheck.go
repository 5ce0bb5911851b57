package serve

import (
	"errors"
	"math"
	"strconv"

	"github.com/stormlab/stormlab/model"
)

// checkFaultLocked refuses a fault added now that the run cannot mean,
// naming its field and the values that would be taken: a fault lasts more
// than 0 s and at most what is left of the run; a degradation leaves the
// server less than its capacity in force (in a graph, the server of the
// service it names); a slowdown and a spike multiply
// by more than 1. Their upper bounds are the model's (and a spike's, the
// calls a live run may make: spikeCap).
func (r *run) checkFaultLocked(f *model.Fault) error {
	limit := r.tl.at(r.capRows())
	left := limit - r.tl.at(len(r.sent))
	if f.Length <= 0 || f.Length > left {
		return badField("length", "give more than 0 s and at most the %v left of the run (a live run lasts %v), got %v", left, limit, f.Length)
	}
	switch f.Kind {
	case "degradation":
		now, err := r.nowLocked()
		if err != nil {
			return err
		}
		c := now.sc.Dependency.Capacity
		if g := r.tl.graphNow(&now.sc); g != nil {
			var ok bool
			if c, ok = g.serverCapacity(f.Service); !ok {
				return nil
			}
		}
		if c <= 0 {
			return badField("capacity", "this server has no fixed capacity to degrade (its latency grows with its load); a slowdown slows it")
		}
		if !(f.Capacity >= 0 && f.Capacity < c) {
			return badField("capacity", "a degradation leaves the server less than its %s calls/s: give from 0 up to below %s, got %s", num(c), num(c), num(f.Capacity))
		}
	case "slowdown", "spike":
		if !(f.Factor > 1) {
			what := map[string]string{"slowdown": "a slowdown makes the server slower", "spike": "a spike multiplies the arrivals"}[f.Kind]
			return badField("factor", "%s: give a factor above 1, got %s", what, num(f.Factor))
		}
	}
	return nil
}

// spikeCap turns a spike refused for the calls it would make into the
// largest factor the run takes (to two significant digits), found by
// bisection on the run's file; err as it is otherwise.
func (r *run) spikeCap(steps []intervention, err error) error {
	var ie *inputError
	last := steps[len(steps)-1]
	if !errors.As(err, &ie) || !ie.tooMany || last.Fault == nil || last.Fault.Kind != "spike" {
		return err
	}
	f := *last.Fault
	takes := func(x float64) bool {
		g := f
		g.Factor = x
		steps[len(steps)-1].Fault = &g
		_, err := r.srv.planOf(r.tl, steps)
		return err == nil
	}
	defer func() { steps[len(steps)-1] = last }()
	lo, hi := 1.0, f.Factor
	if !takes(lo) {
		return err
	}
	for hi-lo > 0.005*lo {
		if mid := (lo + hi) / 2; takes(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	p := math.Pow(10, math.Floor(math.Log10(lo))-1)
	return badField("factor", "at most ×%s on this run: ×%s could make more calls than the %.3g a live run may make", num(math.Floor(lo/p)*p), num(f.Factor), r.srv.opt.MaxCalls)
}

// num writes a number as the page's fields take it: 60, 0.5, 1e+06.
func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
