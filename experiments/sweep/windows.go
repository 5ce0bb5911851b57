package sweep

import "github.com/stormlab/stormlab/model"

// Metrics lists the results.csv metric columns of the grid's cells, in
// order: every model metric, the columns of the grid's windows, then the
// columns of its cells' graphs (model.GraphMetrics), each once, in the
// order the cells first have them.
func (g *Grid) Metrics() []model.Metric {
	ms := append(model.MetricList(), model.WindowMetrics(g.Windows)...)
	seen := map[string]bool{}
	for _, c := range g.cells {
		if c.Plan == nil || c.Plan.Graph == nil {
			continue
		}
		for _, m := range model.GraphMetrics(c.Plan.Graph) {
			if !seen[m.Name] {
				seen[m.Name] = true
				ms = append(ms, m)
			}
		}
	}
	return ms
}

// Metric finds a results.csv metric column of the grid's cells by name: a
// model metric, a window's column or a graph's.
func (g *Grid) Metric(name string) (model.Metric, bool) {
	if m, ok := model.LookupMetric(name); ok {
		return m, true
	}
	for _, m := range g.Metrics() {
		if m.Name == name {
			return m, true
		}
	}
	return model.Metric{}, false
}

// ColumnNames lists the names of Metrics, for messages and suggestions.
func (g *Grid) ColumnNames() []string {
	ms := g.Metrics()
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	return out
}

// SetWindows gives the grid its windows, and every cell built so far: each
// cell's run measures them (Cell.Windows).
func (g *Grid) SetWindows(ws []model.Window) {
	g.Windows = ws
	for i := range g.cells {
		g.cells[i].Windows = ws
	}
}
