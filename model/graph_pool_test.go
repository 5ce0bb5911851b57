package model

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat"
)

// twoPools is the users calling a and b straight, a quarter of their load
// a's, the rest b's, each service's server a pool of 50 workers holding a
// call for a constant 100 ms, with a waiting room: 500 calls a second.
func twoPools(load float64) Scenario {
	in := func(to string, share float64) Layer {
		l := edge("", to, 1)
		l.Share = share
		return l
	}
	sc := graphScenario(load, 60*time.Second, []GraphService{backend("a", 0), backend("b", 0)},
		[]Layer{in("a", 0.25), in("b", 0.75)})
	sc.Tick = ms(10)
	for i := range sc.Graph.Service {
		d := &sc.Graph.Service[i].Server
		d.Capacity, d.Workers, d.Latency, d.Service, d.Queue = 0, 50, ms(100), Service{Kind: "constant"}, "fifo"
	}
	return sc
}

// TestGraphPoolMeans: each service whose server is a worker pool has the
// pool's means as its own columns. At 400 requests a second, a's pool
// gets 100 calls a second (one a 10 ms tick) and b's 300, both far below
// their 500: no call waits (wait_mean_s 0) and each holds its worker
// 100 ms, but the calls started in the run's last 100 ms, whose service the
// run's end cuts short, 45 ticks in all for each call a tick over 6,000
// calls: service_mean_s = 0.1 × (1 − 45 / 60,000). With no call waiting,
// Little's law holds exactly: a pool holds its load × service_mean_s calls
// on average, 9.9925 and 29.9775, different means for different loads.
func TestGraphPoolMeans(t *testing.T) {
	_, col := runGraph(t, twoPools(400), 1)
	service := 0.1 * (1 - 45.0/60000)
	for _, c := range []struct {
		svc  string
		load float64
	}{{"a", 100}, {"b", 300}} {
		in, wait, s := col(c.svc+".in_system_mean"), col(c.svc+".wait_mean_s"), col(c.svc+".service_mean_s")
		if wait != 0 || math.Abs(s-service) > 1e-12 {
			t.Errorf("%s: wait_mean_s %v, service_mean_s %v; want 0 and %v", c.svc, wait, s, service)
		}
		if want := c.load * service; math.Abs(in-want) > 1e-9 {
			t.Errorf("%s: in_system_mean %v, want %v (its load × service_mean_s, Little's law)", c.svc, in, want)
		}
	}
}

// TestGraphPoolMeansLoaded: at 2,000 requests a second a's pool gets 500
// calls a second, just what its 50 workers serve, and no call waits; b's
// gets 1,500, three times its 500: its 50 workers stay busy and its
// waiting room grows by 10 calls a tick, so it holds about 50 + 10 × 6,000
// / 2 = 30,050 calls on average over the minute. Its calls taken for a
// caller still waiting are those of its first second, before its room held
// a second's work (the 1 s timeout): their waits rise from 0 to 1 s, half
// a second on average.
func TestGraphPoolMeansLoaded(t *testing.T) {
	_, col := runGraph(t, twoPools(2000), 1)
	aIn, bIn := col("a.in_system_mean"), col("b.in_system_mean")
	aWait, bWait := col("a.wait_mean_s"), col("b.wait_mean_s")
	if aWait != 0 || math.Abs(bWait-0.5) > 0.01 {
		t.Errorf("wait_mean_s: a %v, b %v; want 0 and about 0.5 s", aWait, bWait)
	}
	if aIn > 50 || math.Abs(bIn-30050) > 0.01*30050 {
		t.Errorf("in_system_mean: a %v, b %v; want at most a's 50 workers, and about 30,050 for b", aIn, bIn)
	}
}

// TestGraphPoolColumns: only a service whose server is a pool has the
// pool's columns, after its calls; a graph without a pool has none (so
// the committed reports of graphs keep their columns).
func TestGraphPoolColumns(t *testing.T) {
	names := func(sc Scenario) []string {
		p, err := sc.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range GraphMetrics(p.Graph) {
			out = append(out, m.Name)
		}
		return out
	}
	sc := twoPools(400)
	sc.Graph.Service[0].Server = backend("a", 0).Server
	got := names(sc)
	if slices.Contains(got, "a.in_system_mean") || !slices.Contains(got, "b.in_system_mean") {
		t.Errorf("a capacity server and a pool: columns %v; want the pool's means for b only", got)
	}
	if i := slices.Index(got, "b.calls"); i < 0 || !slices.Equal(got[i+1:i+4], []string{"b.in_system_mean", "b.wait_mean_s", "b.service_mean_s"}) {
		t.Errorf("columns %v: want b's pool means after b.calls", got)
	}
	for _, n := range names(fanOut(3, 0.1, 1, "all", 0)) {
		if strings.HasSuffix(n, "_mean") || strings.HasSuffix(n, "_mean_s") {
			t.Errorf("a graph without a pool has the column %s", n)
		}
	}
}

// TestGraphPoolMeansReplicated: over replicates a pool's mean is the mean
// of the replicates that have it, as a chain's is: a replicate in which no
// call waited for a caller still waiting has no wait_mean_s, and does not
// make the cell's empty.
func TestGraphPoolMeansReplicated(t *testing.T) {
	sc := twoPools(400)
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	ms := GraphMetrics(p.Graph)
	runs := make([][]float64, 3)
	for r := range runs {
		runs[r] = make([]float64, len(ms))
	}
	at := func(name string) int {
		i := slices.IndexFunc(ms, func(m Metric) bool { return m.Name == name })
		if i < 0 {
			t.Fatalf("no column %s", name)
		}
		return i
	}
	wait, tries := at("a.wait_mean_s"), at("a.tries")
	runs[0][wait], runs[1][wait], runs[2][wait] = 0.2, math.NaN(), 0.4
	runs[0][tries], runs[1][tries], runs[2][tries] = 1, 2, 3
	out := aggregateGraph(p.Graph, runs)
	if w := out[wait]; math.Abs(w.Mean-0.3) > 1e-12 || math.Abs(w.SD-math.Sqrt(0.02)) > 1e-12 {
		t.Errorf("a.wait_mean_s over 0.2, none and 0.4: mean %v, sd %v; want 0.3 and %v", w.Mean, w.SD, math.Sqrt(0.02))
	}
	if c := out[tries]; c.Mean != 2 || c.SD != 1 {
		t.Errorf("a.tries over 1, 2, 3: mean %v, sd %v; want 2 and 1", c.Mean, c.SD)
	}
}

// TestGraphPoolMeansOverReplicates: a cell of three replicates has each
// pool column at the mean of its replicates' own, with their spread.
func TestGraphPoolMeansOverReplicates(t *testing.T) {
	sc := twoPools(2000)
	sc.Arrivals, sc.Replicates = "poisson", 3
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	r, col := runGraph(t, sc, 7)
	ms := GraphMetrics(p.Graph)
	n := 0
	for k, m := range ms {
		if !isPoolColumn(p.Graph, m.Name) {
			continue
		}
		n++
		xs := make([]float64, 3)
		for i := range xs {
			var v []float64
			runStochasticTo(p, ReplicateSeed(7, i), false, nil, &v)
			xs[i] = v[k]
		}
		mean, sd := stat.MeanStdDev(xs, nil)
		if got := col(m.Name); math.Abs(got-mean) > 1e-9*math.Abs(mean) || math.Abs(m.SD(&r)-sd) > 1e-9*sd {
			t.Errorf("%s: %v ± %v over the replicates %v; want %v ± %v", m.Name, got, m.SD(&r), xs, mean, sd)
		}
		if sd == 0 {
			t.Errorf("%s: the replicates %v do not differ", m.Name, xs)
		}
	}
	if n != 6 {
		t.Errorf("%d pool columns, want 3 for each of the 2 pools", n)
	}
}

// TestGraphPoolSeries: a worker pool's series rows have the waits of the
// calls it took for a caller still waiting, and only a pool's. In the
// loaded two pools of TestGraphPoolMeansLoaded, a's calls never wait (0 s
// in every row, its 500 calls a second taken as they come); b's taken for
// a caller still waiting are those of its first second and a half, their
// waits rising from 0 to 1 s, about 1/3 s on average in the first row and
// 5/6 s in the second, and none after: its later rows have no wait. Over the rows, the waits summed over
// the calls taken give the run's b.wait_mean_s. A graph without a pool
// has neither.
func TestGraphPoolSeries(t *testing.T) {
	p, r := runCell(t, twoPools(2000), 1, Options{Series: true})
	wait := PoolServiceColumns()[0]
	if wait.Name != "wait_mean_s" {
		t.Fatalf("the pool's series column %q, want wait_mean_s", wait.Name)
	}
	a, b := r.Series.Services[0], r.Series.Services[1]
	if !a.Pool || !b.Pool || len(b.Rows) != 60 {
		t.Fatalf("a pool %v, b pool %v, %d rows; want two pools over 60 rows", a.Pool, b.Pool, len(b.Rows))
	}
	for j := range a.Rows {
		if x := &a.Rows[j]; x.Taken < 490 || wait.Get(x) != 0 {
			t.Errorf("a's row %d: %v calls taken, waiting %v s; want about 500 and 0", j, x.Taken, wait.Get(x))
		}
	}
	// A call arriving at s is taken at 3s (1,500 calls a second arrive,
	// 500 are taken): it waited 2s, up to the 1 s its caller waits. Those
	// taken in the first second waited 0 to 2/3 s, a third of a second on
	// average; those of the next half second 2/3 to 1 s, 5/6 s (less the
	// workers' batches of 50, which the fluid picture leaves out).
	for j, want := range []float64{1.0 / 3, 5.0 / 6} {
		if w := wait.Get(&b.Rows[j]); math.Abs(w-want) > 0.05 {
			t.Errorf("b's row %d: its calls waited %v s on average, want about %.3f", j, w, want)
		}
	}
	var taken, waited float64
	for j := range b.Rows {
		x := &b.Rows[j]
		taken, waited = taken+x.Taken, waited+x.Waited
		if j >= 2 && !math.IsNaN(wait.Get(x)) {
			t.Errorf("b's row %d: %v calls taken for a caller still waiting, waiting %v s; want none", j, x.Taken, wait.Get(x))
		}
	}
	m, _ := metricNamed(GraphMetrics(p.Graph), "b.wait_mean_s")
	if want := m.Value(&r); taken == 0 || math.Abs(waited/taken-want) > 1e-12*want {
		t.Errorf("b's rows: %v s over %v calls taken, %v s each; want the run's %v", waited, taken, waited/taken, want)
	}

	_, fr := runCell(t, fanOut(3, 0.1, 1, "all", 0), 1, Options{Series: true})
	for _, ss := range fr.Series.Services {
		for j := range ss.Rows {
			if ss.Pool || ss.Rows[j].Taken != 0 || ss.Rows[j].Waited != 0 {
				t.Fatalf("%s, without a pool: pool %v, row %d %+v", ss.Name, ss.Pool, j, ss.Rows[j])
			}
		}
	}
}
