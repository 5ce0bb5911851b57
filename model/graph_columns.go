package model

import (
	"math"
	"slices"
	"strings"
)

// GraphMetrics lists the result columns of a graph: failed_share, the
// share of the requests answered that failed, which a fan-out raises
// above any one call's failure rate; with several entry points, the user
// requests that came in through each, named <service>.requests after the
// service it calls; then its services', named
// <service>.<column>: the tries of the calls made to it (first tries and
// retries, over every edge into it), their retries, the calls to it that
// failed for good (their last try failed, or a budget, breaker, limiter
// or deadline refused one), for a service with a server the calls
// that reached it, for one whose server is a worker pool the pool's means
// as a chain's columns give them (poolMeanColumns: the calls it held, the
// wait for a worker, the service time; over replicates, averaged over
// those that have them), and its health judged as the run's is (graph_health.go):
// its verdict, recovery_s and collapse_s, and over replicates the share
// that recovered with its Wilson interval; then its edges' tries, retries
// and failed, named <from>.<to>.<column> (but the entry point's, its
// service's). A chain's plan has none.
func GraphMetrics(gp *GraphPlan) []Metric {
	if gp == nil {
		return nil
	}
	out := []Metric{graphMetric("failed_share", "share of the user requests answered (successful + failed) that failed; empty when none was", "ratio")}
	for _, n := range gp.several() {
		name := gp.Services[gp.Nodes[n].Service]
		out = append(out, graphMetric(name+".requests", "user requests that came in through the entry point into "+name, "count"))
	}
	for i, name := range gp.Services {
		out = append(out,
			graphMetric(name+".tries", "tries of the calls made to "+name+", first tries and retries, over every edge into it", "count"),
			graphMetric(name+".retries", "the retries among "+name+".tries", "count"),
			graphMetric(name+".failed", "calls made to "+name+" that failed for good: their last try failed, or a budget, breaker, limiter or deadline refused one", "count"))
		if gp.Servers[i] != nil {
			out = append(out, graphMetric(name+".calls", "calls that reached "+name+"'s server", "count"))
		}
		if gp.Pool(i) {
			out = append(out, poolMetrics(name)...)
		}
		out = append(out,
			graphMetric(name+".verdict", "how "+name+" ended, judged as the run is but on the calls made to it (one per call, however many tries): healthy while, over the health window, the calls to it that succeeded are at least goodput × the calls made to it (every call made should have been answered); recovered, draining (the backlog of the servers its calls reach still falling), stuck or not judged (no call made to it after the fault)", "verdict"),
			graphMetric(name+".recovery_s", "seconds from the end of the fault until "+name+" was healthy for good; empty when it did not recover or there is no fault", "seconds"),
			graphMetric(name+".collapse_s", "seconds from the start until "+name+" was first unhealthy; empty when never", "seconds"),
			replicated(graphMetric(name+".recovered_share", "share of the judged replicates in which "+name+" recovered (as its verdict judges it)", "ratio")),
			replicated(graphMetric(name+".recovered_share_lo", "Wilson 95% interval of "+name+".recovered_share, lower bound", "ratio")),
			replicated(graphMetric(name+".recovered_share_hi", "Wilson 95% interval of "+name+".recovered_share, upper bound", "ratio")))
	}
	for _, e := range gp.edgeNames() {
		if e != "" {
			out = append(out,
				graphMetric(e+".tries", "tries of the calls of the edge "+e+" (from.to), first tries and retries", "count"),
				graphMetric(e+".retries", "the retries among "+e+".tries", "count"),
				graphMetric(e+".failed", "calls of the edge "+e+" that failed for good", "count"))
		}
	}
	return out
}

// Pool reports whether service i's server is a worker pool, which
// measures its means (poolMeans): its result columns and its series rows
// have them.
func (gp *GraphPlan) Pool(i int) bool {
	return gp.Servers[i] != nil && gp.Servers[i].Server == ServerPool
}

// poolMeanColumn is one of a worker pool's means as a column: its name,
// what it measures (after "a worker pool: ") and its kind.
type poolMeanColumn struct{ Name, Doc, Kind string }

// poolMeanColumns are a worker pool's means, in the order poolMeans.means
// gives them: the chain's columns (MetricList) and, for a graph's service
// whose server is a pool, <service>.<name>.
func poolMeanColumns() []poolMeanColumn {
	return []poolMeanColumn{
		{"in_system_mean", "calls it held, waiting or on a worker, at the ends of the run's ticks, their mean (L of Little's law)", "ratio"},
		{"wait_mean_s", "seconds from a call's arrival to the tick a worker took it, in whole ticks, their mean over the calls taken for a caller still waiting (W_q of Little's law)", "seconds"},
		{"service_mean_s", "seconds a call held its worker, in whole ticks (at least one), their mean over the calls taken", "seconds"},
	}
}

// isPoolColumn reports whether name is a column of the worker pool of a
// service of gp.
func isPoolColumn(gp *GraphPlan, name string) bool {
	for i, svc := range gp.Services {
		rest, ok := strings.CutPrefix(name, svc+".")
		if ok && gp.Pool(i) && slices.ContainsFunc(poolMeanColumns(), func(c poolMeanColumn) bool { return c.Name == rest }) {
			return true
		}
	}
	return false
}

// poolMetrics are the columns of the worker pool of the service name (a
// mean over no call is empty).
func poolMetrics(name string) []Metric {
	var out []Metric
	for _, c := range poolMeanColumns() {
		out = append(out, graphMetric(name+"."+c.Name, name+"'s worker pool: "+c.Doc, c.Kind))
	}
	return out
}

// several is the entry points' nodes when there are several; nil for one.
func (gp *GraphPlan) several() []int8 {
	if len(gp.Entries) < 2 {
		return nil
	}
	return gp.Entries
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

// graphMetric is the column name of a graph, of kind "count", "verdict"
// or "seconds", read from Result.Graph by its name (cells of a grid may
// differ in their services). A verdict has no spread.
func graphMetric(name, doc, kind string) Metric {
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
	m := Metric{Name: name, Doc: doc, Kind: kind, Value: value, SD: sd}
	if kind == "verdict" {
		m.SD = nil
	}
	return m
}

// values is the value of each of GraphMetrics' columns, in order, in a
// run of p whose user requests got ok successes and failed errors.
func (gr *graphRun) values(p *Plan, ok, failed int64) []float64 {
	gp := p.Graph
	health := gr.health.verdicts(p)
	out := []float64{math.NaN()}
	if ok+failed > 0 {
		out[0] = float64(failed) / float64(ok+failed)
	}
	for _, n := range gp.several() {
		out = append(out, float64(gr.health.calls[n])) // an entry point's calls made are its user requests
	}
	for i := range gp.Services {
		tries, retries, failed := gr.sum(func(nd *GraphNode) bool { return nd.Service == i })
		out = append(out, float64(tries), float64(retries), float64(failed))
		if gp.Servers[i] != nil {
			out = append(out, float64(gr.servers.calls[i]))
		}
		if gp.Pool(i) {
			in, wait, service := gr.servers.srv[i].(*poolServer).means.means(p.TickS)
			out = append(out, in, wait, service)
		}
		h := &health[i]
		share := math.NaN() // a run's: 1 or 0 when judged
		if h.Verdict.Judged() {
			share = 0
			if h.Recovered() {
				share = 1
			}
		}
		out = append(out, float64(h.Verdict), h.RecoveryS, h.CollapseS, share, math.NaN(), math.NaN())
	}
	for e, name := range gp.edgeNames() {
		if name == "" {
			continue
		}
		tries, retries, failed := gr.sum(func(nd *GraphNode) bool { return nd.Edge == e })
		out = append(out, float64(tries), float64(retries), float64(failed))
	}
	return out
}

// aggregateGraph summarises the values of a graph's columns over the
// replicates runs: counts by their mean and spread, a worker pool's means
// over the replicates that have them (as aggregate does a chain's), and
// each service's verdict, recovery_s and collapse_s as the run's
// (aggregate: cellVerdict, recovery over the replicates that recovered,
// collapse over those that collapsed).
func aggregateGraph(gp *GraphPlan, runs [][]float64) []WindowValue {
	ms := GraphMetrics(gp)
	out := aggregateColumns(ms, runs)
	if out == nil {
		return nil
	}
	for k := range ms {
		if len(runs) > 1 && isPoolColumn(gp, ms[k].Name) {
			out[k].Mean, out[k].SD = meanDefined(runs, func(v *[]float64) float64 { return (*v)[k] })
		}
	}
	for k := range ms {
		if ms[k].Kind != "verdict" {
			continue
		}
		// a service's verdict, recovery_s, collapse_s and recovered_share
		// with its interval, in that order
		per := make([]Metrics, len(runs))
		for r, v := range runs {
			per[r] = Metrics{Verdict: Verdict(v[k]), RecoveryS: v[k+1], CollapseS: v[k+2]}
		}
		mean, sd, share, sp := aggregate(per)
		out[k] = WindowValue{Column: ms[k].Name, Mean: float64(mean.Verdict)}
		out[k+1] = WindowValue{Column: ms[k+1].Name, Mean: mean.RecoveryS, SD: sd.RecoveryS}
		out[k+2] = WindowValue{Column: ms[k+2].Name, Mean: mean.CollapseS, SD: sd.CollapseS}
		out[k+3] = WindowValue{Column: ms[k+3].Name, Mean: share, SD: math.NaN()}
		out[k+4] = WindowValue{Column: ms[k+4].Name, Mean: sp.ShareLo, SD: math.NaN()}
		out[k+5] = WindowValue{Column: ms[k+5].Name, Mean: sp.ShareHi, SD: math.NaN()}
	}
	return out
}

// replicated marks m a summary of replicates: a column only when some cell
// runs several, without a spread of its own.
func replicated(m Metric) Metric {
	m.Replicated, m.SD = true, nil
	return m
}

// ServiceColumn is one quantity of a service's series row, series.csv
// writing it as <service>.<Name>.
type ServiceColumn struct {
	Name string
	Doc  string
	Get  func(r *ServiceRow) float64
}

// ServiceColumns lists the quantities of a service's series row, in
// series.csv order.
func ServiceColumns() []ServiceColumn {
	return []ServiceColumn{
		{"calls", "calls made to the service (first tries, over every edge into it)", func(r *ServiceRow) float64 { return r.Calls }},
		{"succeeded", "calls to the service that succeeded", func(r *ServiceRow) float64 { return r.Succeeded }},
		{"failed", "calls to the service that failed for good", func(r *ServiceRow) float64 { return r.Failed }},
		{"tries", "tries sent to the service, first tries and retries", func(r *ServiceRow) float64 { return r.Tries }},
		{"queue", "calls its own server held at the end of the bin (0 without one)", func(r *ServiceRow) float64 { return r.Queue }},
		{"healthy", "1 when the service's health held in every tick of the bin, else 0", func(r *ServiceRow) float64 {
			if r.Unhealthy {
				return 0
			}
			return 1
		}},
	}
}

// PoolServiceColumns lists the quantities of the series row of a service
// whose server is a worker pool, in series.csv order after
// ServiceColumns'; only such a service has them.
func PoolServiceColumns() []ServiceColumn {
	return []ServiceColumn{
		{poolMeanColumns()[1].Name, "seconds from a call's arrival at its worker pool to the tick a worker took it, in whole ticks, their mean over the calls taken in the bin for a caller still waiting; empty when none was", func(r *ServiceRow) float64 {
			if r.Taken == 0 {
				return math.NaN()
			}
			return r.Waited / r.Taken
		}},
	}
}
