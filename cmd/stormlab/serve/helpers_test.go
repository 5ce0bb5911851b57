package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// fig1 is the FIG. 1 server: 60/s capacity, 40/s of Poisson demand from 50
// clients, a 0.5 s timeout and up to five immediate retries.
const fig1 = "../../../experiments/server-60.toml"

// testServer serves the FIG. 1 experiment (and any other files given)
// on a test HTTP server.
func testServer(t testing.TB, opt Options) (*Server, *httptest.Server) {
	t.Helper()
	if opt.Files == nil {
		opt.Files = []string{fig1}
	}
	s, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		s.Close()
		hs.Close()
	})
	return s, hs
}

// call sends a request with a body (a string as is, anything else as
// JSON) and returns the status and the body.
func call(t testing.TB, method, url string, body any) (int, string) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(data)
}

// startRun starts a run of the FIG. 1 server's immediate retries and
// returns its id.
func startRun(t testing.TB, hs *httptest.Server, body any) string {
	t.Helper()
	if body == nil {
		body = map[string]any{"experiment": "server-60", "policy": "immediate"}
	}
	code, text := call(t, "POST", hs.URL+"/api/runs", body)
	if code != http.StatusCreated {
		t.Fatalf("starting a run: %d %s", code, text)
	}
	var st stateView
	if err := json.Unmarshal([]byte(text), &st); err != nil {
		t.Fatal(err)
	}
	return st.ID
}

// stream reads a run's events.
type stream struct {
	res *http.Response
	sc  *bufio.Scanner
}

// openStream attaches to a run's event stream.
func openStream(t testing.TB, ctx context.Context, hs *httptest.Server, id string) *stream {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", hs.URL+"/api/runs/"+id+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("events: %d", res.StatusCode)
	}
	t.Cleanup(func() { res.Body.Close() })
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	return &stream{res: res, sc: sc}
}

// next reads the next event: its name and its data.
func (s *stream) next(t testing.TB) (string, []byte) {
	t.Helper()
	name := ""
	for s.sc.Scan() {
		line := s.sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			return name, []byte(line[len("data: "):])
		}
	}
	t.Fatalf("the stream ended: %v", s.sc.Err())
	return "", nil
}

// read reads the next event, decoding rows and state events; a problem or
// the end of the run fails the test.
func (s *stream) read(t testing.TB) (name string, rows []row, st *stateView) {
	t.Helper()
	name, data := s.next(t)
	switch name {
	case "rows":
		if err := json.Unmarshal(data, &rows); err != nil {
			t.Fatal(err)
		}
	case "state":
		st = new(stateView)
		if err := json.Unmarshal(data, st); err != nil {
			t.Fatal(err)
		}
	case "problem", "end":
		t.Fatalf("%s: %s", name, data)
	}
	return name, rows, st
}

// rowsUntil reads events until the page has n rows in all (counting those
// of the first state), failing on a problem event; it returns every row
// read and the other events' names.
func (s *stream) rowsUntil(t testing.TB, have []row, n int) ([]row, []string) {
	t.Helper()
	var names []string
	deadline := time.Now().Add(30 * time.Second)
	for len(have) < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d rows after 30 s", len(have), n)
		}
		name, rs, st := s.read(t)
		switch {
		case name == "rows":
			have = append(have, rs...)
		case st != nil && st.Full:
			have = st.Rows
			names = append(names, name)
		default:
			names = append(names, name)
		}
	}
	return have, names
}
