package model

import (
	"math"
	"strings"
)

// GraphMetrics lists the result columns of a graph: failed_share, the
// share of the requests answered that failed, which a fan-out raises
// above any one call's failure rate; then its services', named
// <service>.<column>: the tries of the calls made to it (first tries and
// retries, over every edge into it), their retries, the calls to it that
// failed for good (their last try failed, or a budget, breaker, limiter
// or deadline refused one), and for a service with a server the calls
// that reached it; then its edges' tries, retries and failed, named
// <from>.<to>.<column> (but the entry point's, its service's). A chain's
// plan has none.
func GraphMetrics(gp *GraphPlan) []Metric {
	if gp == nil {
		return nil
	}
	out := []Metric{graphMetric("failed_share", "share of the user requests answered (successful + failed) that failed; empty when none was")}
	for i, name := range gp.Services {
		out = append(out,
			graphMetric(name+".tries", "tries of the calls made to "+name+", first tries and retries, over every edge into it"),
			graphMetric(name+".retries", "the retries among "+name+".tries"),
			graphMetric(name+".failed", "calls made to "+name+" that failed for good: their last try failed, or a budget, breaker, limiter or deadline refused one"))
		if gp.Servers[i] != nil {
			out = append(out, graphMetric(name+".calls", "calls that reached "+name+"'s server"))
		}
	}
	for _, e := range gp.edgeNames() {
		if e != "" {
			out = append(out,
				graphMetric(e+".tries", "tries of the calls of the edge "+e+" (from.to), first tries and retries"),
				graphMetric(e+".retries", "the retries among "+e+".tries"),
				graphMetric(e+".failed", "calls of the edge "+e+" that failed for good"))
		}
	}
	return out
}

// edgeNames names each edge from.to for its columns; "" for the entry
// point, whose calls are its service's.
func (gp *GraphPlan) edgeNames() []string {
	out := make([]string, len(gp.Edges))
	for i, e := range gp.Edges {
		if from, to, _ := strings.Cut(e, "→"); from != "" {
			out[i] = from + "." + to
		}
	}
	return out
}

// graphMetric is the column name of a graph, read from Result.Graph by
// its name (cells of a grid may differ in their services).
func graphMetric(name, doc string) Metric {
	at := func(r *Result) *WindowValue {
		for i := range r.Graph {
			if r.Graph[i].Column == name {
				return &r.Graph[i]
			}
		}
		return nil
	}
	value := func(r *Result) float64 {
		if v := at(r); v != nil {
			return v.Mean
		}
		return math.NaN()
	}
	sd := func(r *Result) float64 {
		if v := at(r); v != nil {
			return v.SD
		}
		return math.NaN()
	}
	return Metric{Name: name, Doc: doc, Kind: "count", Value: value, SD: sd}
}

// values is the value of each of GraphMetrics' columns, in order, in a
// run whose user requests got ok successes and failed errors.
func (gr *graphRun) values(gp *GraphPlan, ok, failed int64) []float64 {
	out := []float64{math.NaN()}
	if ok+failed > 0 {
		out[0] = float64(failed) / float64(ok+failed)
	}
	for i := range gp.Services {
		var tries, retries, failed int64
		for n, nd := range gp.Nodes {
			if nd.Service == i {
				tries, retries, failed = tries+gr.tries[n], retries+gr.retries[n], failed+gr.failed[n]
			}
		}
		out = append(out, float64(tries), float64(retries), float64(failed))
		if gp.Servers[i] != nil {
			out = append(out, float64(gr.servers.calls[i]))
		}
	}
	for e, name := range gp.edgeNames() {
		if name == "" {
			continue
		}
		var tries, retries, failed int64
		for n, nd := range gp.Nodes {
			if nd.Edge == e {
				tries, retries, failed = tries+gr.tries[n], retries+gr.retries[n], failed+gr.failed[n]
			}
		}
		out = append(out, float64(tries), float64(retries), float64(failed))
	}
	return out
}
