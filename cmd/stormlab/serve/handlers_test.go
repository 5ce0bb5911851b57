package serve

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBadInput sends what a page must not: every request is refused with
// HTTP 400 (404 for a run that does not exist) and one line saying why,
// and nothing else happens: no run starts, the run's timeline and its
// state stay as they were.
func TestBadInput(t *testing.T) {
	srv, hs := testServer(t, Options{})
	id := startRun(t, hs, nil)
	run, err := srv.get(id)
	if err != nil {
		t.Fatal(err)
	}
	api := hs.URL + "/api/runs/" + id
	big := `{"experiment": "` + strings.Repeat("x", maxBody) + `"}`
	for _, c := range []struct {
		name, method, url string
		body              any
		code              int
		says              string
	}{
		{"unknown experiment", "POST", "/api/runs", map[string]any{"experiment": "nope"}, 400, `unknown experiment "nope"; this server offers server-60`},
		{"path traversal", "POST", "/api/runs", map[string]any{"experiment": "../../../etc/passwd"}, 400, `unknown experiment "../../../etc/passwd"`},
		{"a file's path", "POST", "/api/runs", map[string]any{"experiment": fig1}, 400, "unknown experiment"},
		{"unknown policy", "POST", "/api/runs", map[string]any{"experiment": "server-60", "policy": "hope"}, 400, `experiment "server-60" has no policy "hope"`},
		{"negative seed", "POST", "/api/runs", `{"experiment": "server-60", "seed": -1}`, 400, "seed: must be a whole number from 0 to 9007199254740991, got -1"},
		{"seed too large", "POST", "/api/runs", map[string]any{"experiment": "server-60", "seed": uint64(1) << 60}, 400, "seed: must be a whole number from 0 to 9007199254740991, got 1152921504606846976"},
		{"too many layers", "POST", "/api/runs", map[string]any{"experiment": "server-60", "layers": 99}, 400, "layers: must be from 1 to 16"},
		{"malformed JSON", "POST", "/api/runs", `{"experiment": `, 400, "malformed JSON"},
		{"two documents", "POST", "/api/runs", `{"experiment": "server-60"} {}`, 400, "malformed JSON: more than one document"},
		{"unknown field", "POST", "/api/runs", `{"experiment": "server-60", "file": "/etc/passwd"}`, 400, `malformed JSON: json: unknown field "file"`},
		{"huge body", "POST", "/api/runs", big, 400, "the request's body is over 65536 bytes"},
		{"huge load", "POST", api + "/change", map[string]any{"set": map[string]any{"load": 1e12}}, 400, "scenario.change.0.set.load: must be a number from 0 to 1e+09 requests/s, got 1e+12"},
		{"huge load, jittered", "POST", api + "/change", map[string]any{"set": map[string]any{"load": 1e6, "layer.0.backoff.kind": "exponential", "layer.0.backoff.base": "250ms", "layer.0.backoff.jitter": "full"}}, 400, "too large to run live: its state could reach"},
		{"huge spike", "POST", api + "/fault", map[string]any{"kind": "spike", "factor": 1e12, "length": "5s"}, 400, "scenario.fault.0.factor: must be a number from 0 to 1e+06 (kind = \"spike\"), got 1e+12"},
		{"negative timeout", "POST", api + "/change", map[string]any{"set": map[string]any{"layer.0.timeout": "-1s"}}, 400, "scenario.change.0.set.layer.0.timeout: must be a duration from 0s to 24h, got -1s"},
		{"negative length", "POST", api + "/fault", map[string]any{"kind": "outage", "length": -3}, 400, "length: give more than 0 s and at most the 15m left of the run (a live run lasts 15m), got -3s"},
		{"outage of 0 s", "POST", api + "/fault", map[string]any{"kind": "outage", "length": "0s"}, 400, "length: give more than 0 s and at most the 15m left"},
		{"outage past the end", "POST", api + "/fault", map[string]any{"kind": "outage", "length": 100000}, 400, "length: give more than 0 s and at most the 15m left of the run (a live run lasts 15m), got 27h46m40s"},
		{"degradation above capacity", "POST", api + "/fault", map[string]any{"kind": "degradation", "capacity": 1e9, "length": "10s"}, 400, "capacity: a degradation leaves the server less than its 60 calls/s: give from 0 up to below 60, got 1e+09"},
		{"spike over the calls", "POST", api + "/fault", map[string]any{"kind": "spike", "factor": 1e6, "length": "10s"}, 400, "factor: at most ×4600 on this run: ×1e+06 could make more calls than the 1e+09 a live run may make"},
		{"spike below 1", "POST", api + "/fault", map[string]any{"kind": "spike", "factor": 0.5, "length": "10s"}, 400, "factor: a spike multiplies the arrivals: give a factor above 1, got 0.5"},
		{"capacity 0", "POST", api + "/change", map[string]any{"set": map[string]any{"dependency.capacity": 0}}, 400, "dependency.capacity: give more than 0 calls/s"},
		{"pause at letters", "POST", api + "/control", map[string]any{"pause_at": "abc"}, 400, "pause_at: must be a second of the run (a number; 0 clears it), got text"},
		{"sixteen layers", "POST", api + "/reset", map[string]any{"layers": 16}, 400, "the chain allows 6^16 ≈ 2.8e+12 attempts per request (6 on each of 16 layers); more than 1,000,000 is not simulated"},
		{"overflowing budget", "POST", api + "/change", map[string]any{"set": map[string]any{"budget.kind": "token_bucket", "budget.max_tokens": 1e20}}, 400, "budget.max_tokens: must be a number from 1 to 1e+09"},
		{"unknown key", "POST", api + "/change", map[string]any{"set": map[string]any{"laod": 50}}, 400, `scenario.change.0.set.laod: unknown key (did you mean "load"?)`},
		{"fixed key", "POST", api + "/change", map[string]any{"set": map[string]any{"tick": "1ms"}}, 400, "tick cannot change during a run"},
		{"wrong type", "POST", api + "/change", map[string]any{"set": map[string]any{"layer.0.attempts": "many"}}, 400, `wants a whole number, got "many"`},
		{"null value", "POST", api + "/change", `{"set": {"load": null}}`, 400, "null is not a value a file can hold"},
		{"empty change", "POST", api + "/change", `{"set": {}}`, 400, "a change needs keys to set"},
		{"set as a list", "POST", api + "/change", `{"set": [1, 2]}`, 400, `set: must be keys and their values, e.g. {"load": 50}, got a list`},
		{"both", "POST", api + "/change", `{"set": {"load": 1}, "policy": "immediate"}`, 400, "either the keys to set or a policy"},
		{"same policy", "POST", api + "/change", map[string]any{"policy": "immediate"}, 400, `the run already follows policy "immediate"`},
		{"unknown policy switch", "POST", api + "/change", map[string]any{"policy": "../x"}, 400, `has no policy "../x"`},
		{"fault with a start", "POST", api + "/fault", map[string]any{"kind": "outage", "length": "3s", "start": "1s"}, 400, "not its start"},
		{"unknown fault kind", "POST", api + "/fault", map[string]any{"kind": "meteor", "length": "3s"}, 400, `scenario.fault.0.kind: "meteor" is not allowed`},
		{"unknown fault key", "POST", api + "/fault", map[string]any{"kind": "outage", "lenght": "3s"}, 400, `lenght: unknown key (did you mean "length"?)`},
		{"bad speed", "POST", api + "/control", map[string]any{"speed": "warp"}, 400, `speed "warp" is not one of 1, 10, max`},
		{"pause in the past", "POST", api + "/control", map[string]any{"pause_at": -5}, 400, "pause_at: the run is at 0s and may last 15m; give a second in between, got -5"},
		{"pause after the end", "POST", api + "/control", map[string]any{"pause_at": 1e9}, 400, "pause_at: the run is at 0s"},
		{"bad reset", "POST", api + "/reset", map[string]any{"experiment": "../etc"}, 400, "unknown experiment"},
		{"nothing to export", "GET", api + "/export.toml", nil, 400, "nothing has run yet"},
		{"unknown run", "POST", "/api/runs/0123/fault", map[string]any{"kind": "outage", "length": "1s"}, 404, "no such run"},
		{"unknown run's export", "GET", "/api/runs/../../go.mod/export.toml", nil, 404, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			runs := srv.Runs()
			run.mu.Lock()
			steps, setup := len(run.tl.steps), run.tl.setup
			run.mu.Unlock()
			url := c.url
			if strings.HasPrefix(url, "/") {
				url = hs.URL + url
			}
			code, text := call(t, c.method, url, c.body)
			if code != c.code {
				t.Fatalf("status %d, want %d: %s", code, c.code, text)
			}
			if !strings.Contains(text, c.says) {
				t.Errorf("says %q, want it to say %q", text, c.says)
			}
			if strings.Count(text, "\n") > 1 || (text != "" && !strings.HasSuffix(text, "\n")) {
				t.Errorf("not one line: %q", text)
			}
			run.mu.Lock()
			defer run.mu.Unlock()
			if srv.Runs() != runs || len(run.tl.steps) != steps || run.tl.setup != setup {
				t.Errorf("something happened: %d runs (was %d), %d interventions (was %d)",
					srv.Runs(), runs, len(run.tl.steps), steps)
			}
		})
	}
}

// TestSameMessageAsTheLoader: a change refused is refused with the message
// stormlab run prints for the exported file holding it.
func TestSameMessageAsTheLoader(t *testing.T) {
	srv, hs := testServer(t, Options{})
	id := startRun(t, hs, nil)
	run, _ := srv.get(id)
	set := map[string]any{"layer.0.timeout": "-1s"}
	_, text := call(t, "POST", hs.URL+"/api/runs/"+id+"/change", map[string]any{"set": set})
	run.mu.Lock()
	_, err := run.tl.parse(1, []intervention{{Set: set}})
	run.mu.Unlock()
	if err == nil || text != err.Error()+"\n" {
		t.Errorf("the page gets %q, the loader says %v", text, err)
	}
	if !strings.HasPrefix(text, "server-60-live.toml:") {
		t.Errorf("the message does not name the exported file with the line of the key: %q", text)
	}
}

// TestAssetsOnly: the page and its embedded assets are served, nothing
// from the disk, whatever the path.
func TestAssetsOnly(t *testing.T) {
	_, hs := testServer(t, Options{})
	code, page := call(t, "GET", hs.URL+"/", nil)
	if code != 200 || !strings.Contains(page, "uPlot.iife.min.js") {
		t.Fatalf("the page: %d", code)
	}
	for _, p := range []string{"/assets/app.js", "/assets/vendor/uplot/uPlot.iife.min.js", "/assets/vendor/uplot/LICENSE"} {
		if code, _ := call(t, "GET", hs.URL+p, nil); code != 200 {
			t.Errorf("%s: %d", p, code)
		}
	}
	for _, p := range []string{"/assets/../server.go", "/assets/..%2fserver.go", "/assets/%2e%2e/server.go", "/../../go.mod", "/assets/../../../../go.mod", "/server.go", "/assets/vendor/../../assets.go"} {
		req, err := http.NewRequest("GET", hs.URL+"/", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.URL.Opaque = p // sent as written, not cleaned by the client
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 4096)
		n, _ := res.Body.Read(buf)
		res.Body.Close()
		body := string(buf[:n])
		if res.StatusCode == 200 || strings.Contains(body, "package serve") || strings.Contains(body, "module github.com") {
			t.Errorf("%s: %d %.80q", p, res.StatusCode, body)
		}
	}
}

// TestLoopbackOnly: with Loopback set, a request naming another host (a
// rebound name) is refused, and so is a request from a page of another
// site.
func TestLoopbackOnly(t *testing.T) {
	_, hs := testServer(t, Options{AllowHosts: []string{"lab.example"}})
	req, _ := http.NewRequest("GET", hs.URL+"/api/experiments", nil)
	req.Host = "attacker.example:8080"
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 400 {
		t.Errorf("Host attacker.example: %d, want 400", res.StatusCode)
	}
	req.Host = ""
	req.Header.Set("Origin", "http://attacker.example")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 403 {
		t.Errorf("Origin attacker.example: %d, want 403", res.StatusCode)
	}
	req.Header.Set("Origin", hs.URL)
	for _, h := range []string{"localhost:8080", "127.0.0.1:1", "[::1]:80", "LAB.example:8080"} {
		req.Host = h
		req.Header.Set("Origin", "http://"+h)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("Host %s: %d, want 200", h, res.StatusCode)
		}
	}
}

// TestCaps: no more runs than MaxRuns, a run no page attaches to ends,
// and a run stops at MaxLength.
func TestCaps(t *testing.T) {
	// Idle is long enough that neither run ends before the third is
	// refused and a page attaches to the first, however busy the machine.
	srv, hs := testServer(t, Options{MaxRuns: 2, Idle: 2 * time.Second, MaxLength: 5 * time.Second})
	a := startRun(t, hs, nil)
	startRun(t, hs, nil)
	if code, text := call(t, "POST", hs.URL+"/api/runs", map[string]any{"experiment": "server-60"}); code != http.StatusServiceUnavailable || !strings.Contains(text, "as many live runs as it may (2)") {
		t.Errorf("a third run: %d %s", code, text)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := openStream(t, ctx, hs, a)
	if code, _ := call(t, "POST", hs.URL+"/api/runs/"+a+"/control", map[string]any{"speed": "max"}); code != 204 {
		t.Fatal(code)
	}
	var names []string
	for !slices.Contains(names, "end") {
		name, data := s.next(t)
		names = append(names, name)
		if name == "end" && !strings.Contains(string(data), "the run reached the 5s a live run may last") {
			t.Errorf("end: %s", data)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for srv.Runs() != 1 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if srv.Runs() != 1 {
		t.Errorf("%d runs; the one no page attached to should have ended", srv.Runs())
	}
	if code, text := call(t, "POST", hs.URL+"/api/runs/"+a+"/fault", map[string]any{"kind": "outage", "length": "1s"}); code != 400 || !strings.Contains(text, "the run has ended") {
		t.Errorf("a fault after the end: %d %s", code, text)
	}
}

// TestPageErrors: the page asks for errors as JSON and gets the field each
// concerns, as its request named it, and a sentence without the file,
// line, key or Go type it never showed; API users get the loader's line.
func TestPageErrors(t *testing.T) {
	_, hs := testServer(t, Options{})
	id := startRun(t, hs, nil)
	api := hs.URL + "/api/runs/" + id
	for _, c := range []struct {
		url   string
		body  string
		field string
		says  string
	}{
		{api + "/control", `{"pause_at": "abc"}`, "pause_at", "must be a second of the run (a number; 0 clears it), got text"},
		{api + "/control", `{"pause_at": ""}`, "pause_at", "must be a second of the run (a number; 0 clears it), got text"},
		{api + "/reset", `{"seed": 1e30}`, "seed", "must be a whole number from 0 to 9007199254740991, got 1e30"},
		{api + "/reset", `{"layers": 16}`, "layers", "the chain allows 6^16 ≈ 2.8e+12 attempts per request (6 on each of 16 layers); more than 1,000,000 is not simulated"},
		{api + "/fault", `{"kind": "outage", "length": "0s"}`, "length", "give more than 0 s and at most the 15m left of the run (a live run lasts 15m), got 0s"},
		{api + "/fault", `{"kind": "outage", "length": ""}`, "length", ""},
		{api + "/fault", `{"kind": "degradation", "capacity": 1e9, "length": "10s"}`, "capacity", "a degradation leaves the server less than its 60 calls/s: give from 0 up to below 60, got 1e+09"},
		{api + "/fault", `{"kind": "slowdown", "factor": 2e6, "length": "10s"}`, "factor", "must be a number from 0.001 to 1e+06"},
		{api + "/change", `{"set": {"budget.kind": "token_bucket", "budget.max_tokens": 1e20}}`, "budget.max_tokens", `must be a number from 1 to 1e+09 (kind = "token_bucket"), got 1e+20`},
		{api + "/change", `{"set": {"layer.*.timeout": "-1s"}}`, "layer.0.timeout", "must be a duration from 0s to 24h, got -1s"},
		{api + "/change", `{"set": {"dependency.capacity": 0}}`, "dependency.capacity", "give more than 0 calls/s"},
	} {
		req, _ := http.NewRequest("POST", c.url, strings.NewReader(c.body))
		req.Header.Set("Accept", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var got fieldError
		err = json.NewDecoder(res.Body).Decode(&got)
		res.Body.Close()
		if err != nil || res.StatusCode != 400 {
			t.Errorf("%s: %d, %v", c.body, res.StatusCode, err)
			continue
		}
		if got.Field != c.field || !strings.Contains(got.Message, c.says) {
			t.Errorf("%s: field %q says %q; want field %q saying %q", c.body, got.Field, got.Message, c.field, c.says)
		}
		for _, leak := range []string{".toml", "scenario.", "Go struct", "float64", "uint64", "json:"} {
			if strings.Contains(got.Message, leak) {
				t.Errorf("%s: %q shows the page %q", c.body, got.Message, leak)
			}
		}
	}
}
