package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/reports"
)

const sharedDB = "../../../experiments/shared-database.toml"

// TestGraphRun streams the shared database's graph (its first policy: no
// retries; orders and accounts each with users of their own, both calling
// the database): the state describes the graph to draw (services, which
// have a server, and the calls, two of them the users'), every row carries each service's numbers, and a 5 s outage added
// on the database at 10 s turns the database unhealthy in the rows that
// follow while the run before it is left alone. The rows streamed,
// services' numbers included, are the series of the exported file, whose
// fault names the database; series.csv is the one stormlab run writes for
// it.
func TestGraphRun(t *testing.T) {
	_, hs := testServer(t, Options{Files: []string{fig1, sharedDB}})
	code, text := call(t, "POST", hs.URL+"/api/runs", map[string]any{"experiment": "shared-database"})
	if code != http.StatusCreated {
		t.Fatalf("a graph's run: %d %s", code, text)
	}
	var st stateView
	if err := json.Unmarshal([]byte(text), &st); err != nil {
		t.Fatal(err)
	}
	g := st.Graph
	if g == nil || !g.PerService || len(g.Services) != 3 || len(g.Edges) != 4 {
		t.Fatalf("the state's graph: %+v", g)
	}
	servers := map[string]bool{}
	for _, s := range g.Services {
		servers[s.Name] = s.Server
	}
	if !servers["db"] || servers["orders"] || servers["accounts"] {
		t.Errorf("which services have a server: %v", servers)
	}
	var entries []string
	for _, e := range g.Edges {
		if e.From == "" {
			entries = append(entries, e.To)
		}
	}
	if strings.Join(entries, " ") != "orders accounts" {
		t.Errorf("the users call %q, want orders and accounts", entries)
	}
	db := 2
	if g.Services[db].Name != "db" {
		t.Fatalf("services %+v: db is not the third", g.Services)
	}

	api := hs.URL + "/api/runs/" + st.ID
	for _, c := range []struct {
		body  map[string]any
		field string
		says  string
	}{
		{map[string]any{"kind": "outage", "length": "5s", "service": "orders"}, "service", `is not a service with a server; the graph's are \"db\"`},
		{map[string]any{"kind": "spike", "length": "5s", "service": "db", "factor": 2}, "service", "a spike multiplies the users' arrivals and hits no one service"},
		{map[string]any{"kind": "degradation", "length": "5s", "service": "db", "capacity": 1e9}, "capacity", "less than its"},
	} {
		code, text := callJSON(t, "POST", api+"/fault", c.body)
		if code != http.StatusBadRequest || !strings.Contains(text, `"field":"`+c.field+`"`) || !strings.Contains(text, c.says) {
			t.Errorf("fault %v: %d %s", c.body, code, text)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := openStream(t, ctx, hs, st.ID)
	const at, end = 10, 30 // seconds: rows of 1 s
	runTo := func(rows []row, n int) []row { return streamTo(t, s, api, rows, n) }
	rows := runTo(nil, at)
	if code, text := call(t, "POST", api+"/fault", map[string]any{"kind": "outage", "length": "5s", "service": "db"}); code >= 300 {
		t.Fatalf("a fault on db: %d %s", code, text)
	}
	if _, text := call(t, "GET", api, nil); !strings.Contains(text, `"fault_on":["db"]`) {
		t.Errorf("the state does not say the fault hits db: %s", text)
	}
	rows = runTo(rows, end)
	if len(rows) != end {
		t.Fatalf("%d rows, want %d", len(rows), end)
	}
	for _, r := range rows {
		if len(r.Services) != 3 {
			t.Fatalf("row at %gs has %d services' numbers", r.T, len(r.Services))
		}
	}
	for _, r := range rows[:at] {
		if !r.Services[db].Healthy {
			t.Errorf("db unhealthy at %gs, before any fault", r.T)
		}
	}
	if r := rows[at+1]; r.Services[db].Healthy || r.Services[db].Succeeded != 0 {
		t.Errorf("db out from %ds, at %gs: %+v", at, r.T, r.Services[db])
	}

	src, faults := checkExport(t, api, "shared-database-live", rows)
	if !strings.Contains(src, `service = "db"`) || !strings.Contains(src, "unforeseen = true") || !reflect.DeepEqual(faults, [][2]float64{{at, at + 5}}) {
		t.Errorf("the export's fault is not the outage on db at %ds (%v):\n%s", at, faults, src)
	}
	if _, got := call(t, "GET", api+"/series.csv", nil); !strings.Contains(got, "db.queue") {
		t.Errorf("series.csv has no db.queue column:\n%.300s", got)
	}
}

// streamTo streams the run at api at full speed until it pauses at row
// n (rows of 1 s), appending the rows read to rows.
func streamTo(t *testing.T, s *stream, api string, rows []row, n int) []row {
	t.Helper()
	if code, text := call(t, "POST", api+"/control", map[string]any{"speed": "max", "pause_at": n, "paused": false}); code >= 300 {
		t.Fatalf("control: %d %s", code, text)
	}
	for paused := false; !paused || len(rows) < n; {
		_, rs, st := s.read(t)
		rows = append(rows, rs...)
		paused = st != nil && st.Paused && st.T == float64(n)
	}
	return rows
}

// TestGraphEveryFile: every committed experiment that describes a service
// graph streams in the explorer, each row with every service's numbers,
// and takes an outage on each of its services with a server (one at a
// time, 2 s apart); the rows streamed are its export's.
func TestGraphEveryFile(t *testing.T) {
	files, err := filepath.Glob("../../../experiments/*.toml")
	if err != nil {
		t.Fatal(err)
	}
	_, hs := testServer(t, Options{Files: files})
	var list []experimentView
	if _, text := call(t, "GET", hs.URL+"/api/experiments", nil); json.Unmarshal([]byte(text), &list) != nil {
		t.Fatalf("the experiments: %s", text)
	}
	graphs := 0
	for _, x := range list {
		if !x.Graph {
			continue
		}
		graphs++
		code, text := call(t, "POST", hs.URL+"/api/runs", map[string]any{"experiment": x.Name})
		var st stateView
		if code != http.StatusCreated || json.Unmarshal([]byte(text), &st) != nil || st.Graph == nil {
			t.Errorf("%s: %d %s", x.Name, code, text)
			continue
		}
		api := hs.URL + "/api/runs/" + st.ID
		ctx, cancel := context.WithCancel(context.Background())
		s := openStream(t, ctx, hs, st.ID)
		var rows []row
		for _, sv := range st.Graph.Services {
			if !sv.Server {
				continue
			}
			rows = streamTo(t, s, api, rows, len(rows)+2)
			if code, text := call(t, "POST", api+"/fault", map[string]any{"kind": "outage", "length": "1s", "service": sv.Name}); code >= 300 {
				t.Errorf("%s: an outage on %s: %d %s", x.Name, sv.Name, code, text)
			}
		}
		rows = streamTo(t, s, api, rows, len(rows)+2)
		cancel()
		for _, r := range rows {
			if st.Graph.PerService && len(r.Services) != len(st.Graph.Services) {
				t.Fatalf("%s: the row at %gs has %d services' numbers, the graph %d services", x.Name, r.T, len(r.Services), len(st.Graph.Services))
			}
		}
		checkExport(t, api, x.Name+"-live", rows)
	}
	if graphs < 2 {
		t.Errorf("%d graph experiments, want fan-out and shared-database at least", graphs)
	}
}

// checkExport checks the export of the run at api, saved as name.toml:
// stormlab run runs it to the rows streamed (services' numbers included),
// and its series.csv is the one stormlab run writes. It returns the
// export and its faults' windows (seconds from, to).
func checkExport(t *testing.T, api, name string, rows []row) (string, [][2]float64) {
	t.Helper()
	code, src := call(t, "GET", api+"/export.toml", nil)
	if code != http.StatusOK {
		t.Fatalf("export.toml: %d %s", code, src)
	}
	e, err := experiments.Parse(name+".toml", []byte(src), nil)
	if err != nil {
		t.Fatalf("the export does not load: %v\n%s", err, src)
	}
	results, err := sweep.Run(context.Background(), e.Grid.Cells(), sweep.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var faults [][2]float64
	for _, f := range e.Grid.Cells()[0].Scenario.Fault {
		faults = append(faults, [2]float64{f.Start.Seconds(), (f.Start + f.Length).Seconds()})
	}
	ser := results[0].Series
	want := rowsOf(ser.Rows, ser.Services, 0, 1, faults)
	if len(want) != len(rows) {
		t.Fatalf("%s: the export runs %d rows, the page got %d", name, len(want), len(rows))
	}
	for i := range rows {
		if !reflect.DeepEqual(rows[i], want[i]) {
			t.Fatalf("%s: row %d: the page got %+v, the export runs %+v", name, i, rows[i], want[i])
		}
	}
	var csv bytes.Buffer
	if err := reports.WriteSeries(&csv, e.Grid, results); err != nil {
		t.Fatal(err)
	}
	if code, got := call(t, "GET", api+"/series.csv", nil); code != http.StatusOK || got != csv.String() {
		t.Errorf("%s: series.csv (%d) differs from what the export writes:\n%.300s\nwant\n%.300s", name, code, got, csv.String())
	}
	return src, faults
}

// TestGraphSetup: a graph has no chain depth to set; asking for one is
// refused naming the field, and a chain beside it still runs. In a graph
// of several servers (fan-out's backends) a fault names the service it
// hits, and the real stack refuses it.
func TestGraphSetup(t *testing.T) {
	_, hs := testServer(t, Options{Files: []string{fig1, sharedDB, "../../../experiments/fan-out.toml"}})
	id := startRun(t, hs, map[string]any{"experiment": "fan-out"})
	code, body := callJSON(t, "POST", hs.URL+"/api/runs/"+id+"/fault", map[string]any{"kind": "outage", "length": "5s"})
	if code != http.StatusBadRequest || !strings.Contains(body, `"field":"service"`) || !strings.Contains(body, "names the service whose server it hits") {
		t.Errorf("a fault naming no service in a graph of several servers: %d %s", code, body)
	}
	// The lab builds a chain above one dependency: it refuses a graph.
	if code, body := callJSON(t, "POST", hs.URL+"/api/runs/"+id+"/lab", map[string]any{}); code != http.StatusBadRequest || !strings.Contains(body, "a service graph") {
		t.Errorf("a graph on the real stack: %d %s", code, body)
	}
	code, body = callJSON(t, "POST", hs.URL+"/api/runs", map[string]any{"experiment": "shared-database", "layers": 3})
	if code != http.StatusBadRequest || !strings.Contains(body, `"field":"layers"`) {
		t.Errorf("a graph's run with a chain depth: %d %s", code, body)
	}
	if code, body := call(t, "POST", hs.URL+"/api/runs", map[string]any{"experiment": "server-60"}); code != http.StatusCreated {
		t.Errorf("a chain's run beside it: %d %s", code, body)
	}
}

// callJSON is call asking for the page's answers (Accept:
// application/json): an error as {"field": ..., "message": ...}.
func callJSON(t testing.TB, method, url string, body any) (int, string) {
	t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(method, url, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(res.Body)
	return res.StatusCode, b.String()
}

// TestGraphAround: in a graph of several servers the phase diagram around
// the point sweeps a fault on one of them: asked before any fault it says
// to fail a service first; after an outage on b2 it sweeps that outage,
// on b2, to the end.
func TestGraphAround(t *testing.T) {
	_, hs := testServer(t, Options{Files: []string{fig1, "../../../experiments/fan-out.toml"}})
	id := startRun(t, hs, map[string]any{"experiment": "fan-out"})
	api := hs.URL + "/api/runs/" + id
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := openStream(t, ctx, hs, id)
	rows := streamTo(t, s, api, nil, 3)
	if code, body := callJSON(t, "POST", api+"/around", map[string]any{}); code != http.StatusBadRequest || !strings.Contains(body, "fail the service you mean first") {
		t.Errorf("around before any fault: %d %s", code, body)
	}
	if code, body := call(t, "POST", api+"/fault", map[string]any{"kind": "outage", "length": "2s", "service": "b2"}); code >= 300 {
		t.Fatalf("an outage on b2: %d %s", code, body)
	}
	streamTo(t, s, api, rows, 6)
	if code, body := call(t, "POST", api+"/around", map[string]any{}); code != http.StatusAccepted {
		t.Fatalf("around after an outage on b2: %d %s", code, body)
	}
	for {
		name, data := s.next(t)
		if name != "around" {
			continue
		}
		var p struct {
			Stage, Problem string
			Result         *aroundResult
		}
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatal(err)
		}
		if p.Stage == "done" || p.Stage == "failed" {
			if p.Stage != "done" || p.Result == nil || p.Result.Fault != "outage" || p.Result.Blip != 2 {
				t.Errorf("the diagram around an outage on b2: %s", data)
			}
			return
		}
	}
}

// TestGraphLiveChange: a graph's edge policy changes live. In the shared
// database (nobody retries), orders' calls into the database get 3
// attempts at 10 s: in a 3 s outage of the database after it the
// database's tries outnumber the calls made to it, which they never did
// in one before it; the drawing's edge says 3 attempts. With the
// database's capacity changed to 250 calls/s, a degradation is checked
// against that. The export writes the changes as [[scenario.change]]s
// (graph.edge.2.attempts, ...) that stormlab run runs to the rows
// streamed. A change of the graph's shape is refused naming its key. In
// slow-among-healthy, one of the experiment's policies (a budget per edge)
// is taken up live as a chain's is.
func TestGraphLiveChange(t *testing.T) {
	slow := "../../../experiments/slow-among-healthy.toml"
	_, hs := testServer(t, Options{Files: []string{sharedDB, slow}})
	id := startRun(t, hs, map[string]any{"experiment": "shared-database"})
	api := hs.URL + "/api/runs/" + id
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := openStream(t, ctx, hs, id)
	const at, end = 10, 20
	outage := func() {
		t.Helper()
		if code, text := call(t, "POST", api+"/fault", map[string]any{"kind": "outage", "length": "3s", "service": "db"}); code >= 300 {
			t.Fatalf("an outage on db: %d %s", code, text)
		}
	}
	rows := streamTo(t, s, api, nil, 4)
	outage()
	rows = streamTo(t, s, api, rows, at)
	code, body := callJSON(t, "POST", api+"/change", map[string]any{"set": map[string]any{"graph.edge.2.to": "accounts"}})
	if code != http.StatusBadRequest || !strings.Contains(body, `"field":"graph.edge.2.to"`) || !strings.Contains(body, "a change may not alter a graph's shape") {
		t.Errorf("a change of the graph's shape: %d %s", code, body)
	}
	if code, text := call(t, "POST", api+"/change", map[string]any{"set": map[string]any{"graph.edge.2.attempts": 3}}); code >= 300 {
		t.Fatalf("3 attempts on orders' calls: %d %s", code, text)
	}
	var st stateView
	if _, text := call(t, "GET", api, nil); json.Unmarshal([]byte(text), &st) != nil || st.Now["graph.edge.2.attempts"] != 3.0 {
		t.Errorf("the state's keys in force: graph.edge.2.attempts = %v", st.Now["graph.edge.2.attempts"])
	}
	if e := st.Graph.Edges[2]; e.From != "orders" || e.To != "db" || e.Attempts != 3 {
		t.Errorf("the drawing's edge from orders to db: %+v, want 3 attempts", e)
	}
	rows = streamTo(t, s, api, rows, at+1)
	if code, text := call(t, "POST", api+"/change", map[string]any{"set": map[string]any{"graph.service.2.server.capacity": 250}}); code >= 300 {
		t.Fatalf("the database's capacity to 250 calls/s: %d %s", code, text)
	}
	code, body = callJSON(t, "POST", api+"/fault", map[string]any{"kind": "degradation", "length": "2s", "service": "db", "capacity": 280})
	if code != http.StatusBadRequest || !strings.Contains(body, `"field":"capacity"`) || !strings.Contains(body, "less than its 250 calls/s") {
		t.Errorf("a degradation to 280 calls/s of a database of 250 now: %d %s", code, body)
	}
	rows = streamTo(t, s, api, rows, at+2)
	// The database's server, the only one, starts dropping the calls whose
	// callers gave up, as the chain's dependency.drop_expired does: a key of
	// that server, changed live, before the second outage leaves it calls
	// nobody waits for.
	if code, text := call(t, "POST", api+"/change", map[string]any{"set": map[string]any{"graph.service.2.server.drop_expired": true}}); code >= 300 {
		t.Fatalf("the database dropping expired work: %d %s", code, text)
	}
	if _, text := call(t, "GET", api, nil); json.Unmarshal([]byte(text), &st) != nil || st.Now["graph.service.2.server.drop_expired"] != true {
		t.Errorf("the state's keys in force: graph.service.2.server.drop_expired = %v", st.Now["graph.service.2.server.drop_expired"])
	}
	outage()
	rows = streamTo(t, s, api, rows, end)
	db := 2
	retried := func(r row) bool { return r.Services[db].Tries > r.Services[db].Calls }
	for _, r := range rows[:at] {
		if retried(r) {
			t.Errorf("a retry into the database at %gs, before the change: %+v", r.T, r.Services[db])
		}
	}
	some := false
	for _, r := range rows[at:] {
		some = some || retried(r)
	}
	if !some {
		t.Errorf("no retry into the database after orders' attempts went to 3")
	}
	src, _ := checkExport(t, api, "shared-database-live", rows)
	if !strings.Contains(src, "[[scenario.change]]") || !strings.Contains(src, `"graph.edge.2.attempts" = 3`) {
		t.Errorf("the export does not write the change:\n%s", src)
	}
	if !strings.Contains(src, `"graph.service.2.server.drop_expired" = true`) {
		t.Errorf("the export does not write the database's drop_expired:\n%s", src)
	}

	id = startRun(t, hs, map[string]any{"experiment": "slow-among-healthy", "policy": "no budget"})
	api = hs.URL + "/api/runs/" + id
	s = openStream(t, ctx, hs, id)
	rows = streamTo(t, s, api, nil, 5)
	if code, text := call(t, "POST", api+"/change", map[string]any{"policy": "budget per edge"}); code >= 300 {
		t.Fatalf("the policy budget per edge: %d %s", code, text)
	}
	if _, text := call(t, "GET", api, nil); !strings.Contains(text, `"policy_now":"budget per edge"`) {
		t.Errorf("the run does not follow budget per edge now: %.400s", text)
	}
	rows = streamTo(t, s, api, rows, 8)
	src, _ = checkExport(t, api, "slow-among-healthy-live", rows)
	if !strings.Contains(src, `"budget.scope" = "edge"`) {
		t.Errorf("the export does not switch to a budget per edge:\n%s", src)
	}
}

// TestGraphPoolRows: in a graph whose service p has a worker pool for a
// server, the state's drawing says so (pool), and the page's series.csv
// gives p's waits per row (p.wait_mean_s), as stormlab run on the export
// writes them; front and q, without a pool, have none.
func TestGraphPoolRows(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pools.toml")
	const src = `title = "A worker pool beside a server of capacity"
question = "Do the pool's calls wait?"
engine = "stochastic"
[scenario]
load = 600
duration = "30s"
tick = "10ms"
graph.service = [{ name = "front" }, { name = "p", server = { workers = 50, latency = "100ms", service = { kind = "constant" }, queue = "fifo" } }, { name = "q", server = { capacity = 1000 } }]
graph.edge = [{ to = "front" }, { from = "front", to = "p" }, { from = "front", to = "q" }]
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, hs := testServer(t, Options{Files: []string{file}})
	id := startRun(t, hs, map[string]any{"experiment": "pools"})
	api := hs.URL + "/api/runs/" + id
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rows := streamTo(t, openStream(t, ctx, hs, id), api, nil, 5)
	var st stateView
	if _, text := call(t, "GET", api, nil); json.Unmarshal([]byte(text), &st) != nil || st.Graph == nil || len(st.Graph.Services) != 3 ||
		st.Graph.Services[0].Pool || !st.Graph.Services[1].Pool || st.Graph.Services[2].Pool {
		t.Errorf("the drawing's services: %+v; want p's a pool, front's and q's not", st.Graph)
	}
	checkExport(t, api, "pools-live", rows)
	_, csv := call(t, "GET", api+"/series.csv", nil)
	header := strings.Split(strings.SplitN(csv, "\n", 2)[0], ",")
	if !slices.Contains(header, "p.wait_mean_s") || slices.Contains(header, "q.wait_mean_s") || slices.Contains(header, "front.wait_mean_s") {
		t.Errorf("series.csv's columns %v: want p.wait_mean_s, and none for front and q", header)
	}
}
