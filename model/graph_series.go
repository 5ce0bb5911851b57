package model

// graphSeries bins each service of a graph's run as the recorder bins the
// run (a row per row of its Series): the calls made to the service, those
// that succeeded and those that failed for good, the tries sent to it, its
// own server's backlog at the row's end, whether its health failed in
// some tick of the row and, for a worker pool, the calls it took for a
// caller still waiting and their waits. Made only when the run records its
// series.
type graphSeries struct {
	gr       *graphRun
	binTicks int64
	ticks    int64
	idx      int64 // the row being recorded
	out      []ServiceSeries
	cur      []ServiceRow // by service: the row being recorded
	// tries and failed are each service's totals at the end of the last
	// row completed (the engine counts them by node, for the run).
	tries, failed []int64
	// taken and waited are each worker pool's totals (poolMeans.waited,
	// .wait, in ticks) at the end of the last row completed.
	taken, waited []int64
	tickS         float64
	// marks is idle's scratch: each service's stretches of equal health.
	marks [][]healthStretch
}

// healthStretch is ticks a..b−1, all unhealthy or all healthy.
type healthStretch struct {
	a, b      int64
	unhealthy bool
}

func newGraphSeries(p *Plan, gr *graphRun) *graphSeries {
	n := len(p.Graph.Services)
	bt := p.seriesBinTicks()
	gs := &graphSeries{gr: gr, binTicks: bt, ticks: p.Ticks, out: make([]ServiceSeries, n), cur: make([]ServiceRow, n),
		tries: make([]int64, n), failed: make([]int64, n), taken: make([]int64, n), waited: make([]int64, n), tickS: p.TickS, marks: make([][]healthStretch, n)}
	for i, name := range p.Graph.Services {
		gs.out[i] = ServiceSeries{Name: name, Pool: p.Graph.Pool(i), Rows: make([]ServiceRow, 0, (p.Ticks+bt-1)/bt)}
	}
	return gs
}

// add records tick t: by service, the calls made and succeeded in it and
// whether it was unhealthy at its end, with held the servers' backlogs.
func (gs *graphSeries) add(t int64, made, ok []int64, unhealthy []bool, held []int64) {
	gs.flush(t/gs.binTicks, held)
	for i := range gs.cur {
		c := &gs.cur[i]
		c.Calls += float64(made[i])
		c.Succeeded += float64(ok[i])
		c.Unhealthy = c.Unhealthy || unhealthy[i]
	}
	if (t+1)%gs.binTicks == 0 {
		gs.flush((t+1)/gs.binTicks, held)
	}
}

// mark notes that service i was unhealthy or healthy over ticks a..b−1 of
// an idle stretch (idle reads them).
func (gs *graphSeries) mark(i int, a, b int64, unhealthy bool) {
	gs.marks[i] = append(gs.marks[i], healthStretch{a, b, unhealthy})
}

// idle records ticks a..b−1 in which nothing happened, each service's
// health as mark noted it, with held the servers' backlogs.
func (gs *graphSeries) idle(a, b int64, held []int64) {
	for x := a; x < b; {
		gs.flush(x/gs.binTicks, held)
		e := min(b, (x/gs.binTicks+1)*gs.binTicks)
		for i, ms := range gs.marks {
			for _, m := range ms {
				if m.unhealthy && m.a < e && m.b > x {
					gs.cur[i].Unhealthy = true
				}
			}
		}
		if e%gs.binTicks == 0 {
			gs.flush(e/gs.binTicks, held)
		}
		x = e
	}
	for i := range gs.marks {
		gs.marks[i] = gs.marks[i][:0]
	}
}

// flush completes the rows before row upTo: their tries and failed calls
// from the engine's totals by node, their queue from held, a worker
// pool's calls taken and waits from its own sums.
func (gs *graphSeries) flush(upTo int64, held []int64) {
	for gs.idx < upTo {
		for i := range gs.cur {
			tries, _, failed := gs.gr.sum(func(nd *GraphNode) bool { return nd.Service == i })
			c := &gs.cur[i]
			c.Tries, c.Failed = float64(tries-gs.tries[i]), float64(failed-gs.failed[i])
			gs.tries[i], gs.failed[i] = tries, failed
			if gs.gr.servers.srv[i] != nil {
				c.Queue = float64(held[i])
			}
			if w, ok := gs.gr.servers.srv[i].(*poolServer); ok {
				c.Taken, c.Waited = float64(w.means.waited-gs.taken[i]), float64(w.means.wait-gs.waited[i])*gs.tickS
				gs.taken[i], gs.waited[i] = w.means.waited, w.means.wait
			}
			gs.out[i].Rows = append(gs.out[i].Rows, *c)
			*c = ServiceRow{}
		}
		gs.idx++
	}
}

// done completes the series at the end of the run.
func (gs *graphSeries) done(held []int64) []ServiceSeries {
	gs.flush((gs.ticks+gs.binTicks-1)/gs.binTicks, held)
	return gs.out
}
