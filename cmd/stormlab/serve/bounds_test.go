package serve

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestInterventionCap: a run takes maxInterventions faults and changes
// and answers every one after them with the limit, changing nothing.
func TestInterventionCap(t *testing.T) {
	srv, hs := testServer(t, Options{})
	id := startRun(t, hs, nil)
	run, _ := srv.get(id)
	api := hs.URL + "/api/runs/" + id
	taken := 0
	for i := range maxInterventions + 20 {
		code, text := call(t, "POST", api+"/fault", map[string]any{"kind": "outage", "length": "1s"})
		switch {
		case code == 204:
			taken++
		case code != 400 || !strings.Contains(text, "a run takes at most 100 faults and changes; export it, or reset to start again"):
			t.Fatalf("intervention %d: %d %s", i, code, text)
		}
	}
	run.mu.Lock()
	n := len(run.tl.steps)
	run.mu.Unlock()
	if taken != maxInterventions || n != maxInterventions {
		t.Errorf("%d interventions taken, %d on the run; want %d", taken, n, maxInterventions)
	}
}

// TestRunsDoNotWaitForEachOther: a run whose engine is busy (here held,
// as a page flooding it with interventions holds it) keeps no other run
// from streaming: each run has its own engine, locks and stream.
func TestRunsDoNotWaitForEachOther(t *testing.T) {
	srv, hs := testServer(t, Options{})
	busy, _ := srv.get(startRun(t, hs, nil))
	busy.engMu.Lock()
	defer busy.engMu.Unlock()
	other := startRun(t, hs, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := openStream(t, ctx, hs, other)
	if code, text := call(t, "POST", hs.URL+"/api/runs/"+other+"/control", map[string]any{"speed": "max"}); code != 204 {
		t.Fatal(code, text)
	}
	rows := 0
	for rows < 120 {
		_, rs, _ := s.read(t)
		rows += len(rs)
	}
}

// TestCloseStopsTheRun: /close ends the run's stream and its simulation;
// the run is gone, and its stream closed.
func TestCloseStopsTheRun(t *testing.T) {
	srv, hs := testServer(t, Options{})
	id := startRun(t, hs, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := openStream(t, ctx, hs, id)
	api := hs.URL + "/api/runs/" + id
	if code, text := call(t, "POST", api+"/control", map[string]any{"speed": "max"}); code != 204 {
		t.Fatal(code, text)
	}
	s.rowsUntil(t, nil, 30)
	if code, text := call(t, "POST", api+"/close", nil); code != 204 {
		t.Fatal(code, text)
	}
	for s.sc.Scan() { // to the stream's end: it must come
	}
	if srv.Runs() != 0 {
		t.Errorf("%d runs after /close", srv.Runs())
	}
	if code, _ := call(t, "POST", api+"/control", map[string]any{"paused": true}); code != 404 {
		t.Errorf("the closed run answers %d, want 404", code)
	}
}

// TestSlowBody: a request whose body trickles in is answered when the
// body's deadline passes, and its connection let go, instead of being
// held for as long as the client likes.
func TestSlowBody(t *testing.T) {
	_, hs := testServer(t, Options{})
	id := startRun(t, hs, nil)
	c, err := net.Dial("tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /api/runs/%s/fault HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", id, hs.Listener.Addr())
	_ = c.SetReadDeadline(time.Now().Add(4 * bodyTimeout)) // a bound on the test, not the measure
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer to a body that never came: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != 400 {
		t.Errorf("a body that never came: %d, want 400", res.StatusCode)
	}
}
