package serve

import "github.com/stormlab/stormlab/model"

// graphView is a service graph as the page draws it: its services (boxes),
// which have a server, and its edges (arrows from caller to callee; the
// users' entry points have no caller). Services are in the file's order,
// the order of each row's per-service numbers.
type graphView struct {
	Services []graphService `json:"services"`
	Edges    []graphEdge    `json:"edges"`
	// PerService is whether the rows carry each service's numbers: a graph
	// of one path runs as the chain it is (model: "Service graphs"), and
	// its rows are the chain's, its one server the dependency's.
	PerService bool `json:"per_service"`
}

// graphService is one service of the drawing.
type graphService struct {
	Name     string  `json:"name"`
	Server   bool    `json:"server"`   // it has a server of its own: a fault may hit it
	Capacity float64 `json:"capacity"` // its server's capacity per second (0: none, or its latency grows with load)
	Pool     bool    `json:"pool"`     // its server is a worker pool: its rows in series.csv add the pool's waits
	Calls    string  `json:"calls"`    // parallel or sequence, when it calls several
	Need     string  `json:"need"`     // all, any or quorum of its parallel calls
}

// graphEdge is one call of the drawing: from "" is the users'.
type graphEdge struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Attempts int    `json:"attempts"`
}

// isGraph reports whether sc describes a service graph.
func isGraph(sc *model.Scenario) bool { return len(sc.Graph.Service) > 0 || len(sc.Graph.Edge) > 0 }

// graphOf is the drawing of sc's graph; nil for a chain. gp is its plan
// when its run records each service's rows (nil for a graph of one path):
// it tells the servers that are worker pools.
func graphOf(sc *model.Scenario, gp *model.GraphPlan) *graphView {
	if !isGraph(sc) {
		return nil
	}
	g := &sc.Graph
	v := &graphView{Services: []graphService{}, Edges: []graphEdge{}, PerService: gp != nil}
	for i := range g.Service {
		s := &g.Service[i]
		v.Services = append(v.Services, graphService{Name: s.Name, Server: s.HasServer(), Capacity: s.Server.Capacity, Pool: gp != nil && gp.Pool(i), Calls: s.Calls, Need: s.Need})
	}
	for _, e := range g.Edge {
		v.Edges = append(v.Edges, graphEdge{From: e.From, To: e.To, Attempts: e.Attempts})
	}
	return v
}

// graphNow is the drawing of the run's graph as sc, the scenario in force,
// has it (an edge's attempts, a server's capacity, as changes left them);
// nil for a chain.
func (l *live) graphNow(sc *model.Scenario) *graphView {
	if l.graph == nil {
		return nil
	}
	return graphOf(sc, l.gp)
}

// serverCapacity is the capacity of the server of the service named
// name, or of the graph's one server when name is empty (0: its latency
// grows with its load); ok is false when there is no such server, which
// the loader refuses naming those a fault may hit.
func (v *graphView) serverCapacity(name string) (c float64, ok bool) {
	n := 0
	for _, s := range v.Services {
		if s.Server && (s.Name == name || name == "") {
			c, n = s.Capacity, n+1
		}
	}
	return c, n == 1
}

// svcRow is one service's numbers over a row, as the page gets them (the
// model's ServiceRow): counts over the row, its queue at the row's end.
type svcRow struct {
	Calls     float64 `json:"calls"`     // calls made to it (first tries, over every edge into it)
	Succeeded float64 `json:"succeeded"` // of those, succeeded
	Failed    float64 `json:"failed"`    // calls to it that failed for good
	Tries     float64 `json:"tries"`     // tries sent to it, retries included
	Queue     float64 `json:"queue"`     // calls its own server held at the row's end; 0 without one
	Healthy   bool    `json:"healthy"`   // its health held over the whole row
}

// serviceSeries collects a graph run's rows by service, as the model's
// Series.Services holds them.
type serviceSeries []model.ServiceSeries

// newServiceSeries is an empty series of each of g's services; nil for a
// run without per-service rows.
func newServiceSeries(g *graphView) serviceSeries {
	if g == nil || !g.PerService {
		return nil
	}
	out := make(serviceSeries, len(g.Services))
	for i, s := range g.Services {
		out[i].Name, out[i].Pool = s.Name, s.Pool
	}
	return out
}

// add appends rows, each the services' row (model.Stepper's Services).
func (ss serviceSeries) add(rows [][]model.ServiceRow) {
	for _, row := range rows {
		for i := range ss {
			ss[i].Rows = append(ss[i].Rows, row[i])
		}
	}
}

// at is the services' numbers at row r, for the page; nil without them.
func (ss serviceSeries) at(r int) []svcRow {
	if len(ss) == 0 || r >= len(ss[0].Rows) {
		return nil
	}
	out := make([]svcRow, len(ss))
	for i := range ss {
		x := &ss[i].Rows[r]
		out[i] = svcRow{Calls: x.Calls, Succeeded: x.Succeeded, Failed: x.Failed, Tries: x.Tries, Queue: x.Queue, Healthy: !x.Unhealthy}
	}
	return out
}

// clone is a copy that later rows do not reach, for an export.
func (ss serviceSeries) clone() []model.ServiceSeries {
	if ss == nil {
		return nil
	}
	out := make([]model.ServiceSeries, len(ss))
	for i := range ss {
		out[i] = model.ServiceSeries{Name: ss[i].Name, Pool: ss[i].Pool, Rows: append([]model.ServiceRow(nil), ss[i].Rows...)}
	}
	return out
}
