package model

import (
	"math"
	"strings"
	"testing"
	"time"
)

// netGraph is 100 users' requests a second (constant, 10 ms ticks, 10 s)
// into front, whose server answers after 20 ms and then calls mid, which
// has no server and calls x and y in parallel, needing both; x's server
// answers after 50 ms, y's after 30 ms; nothing fails. Every call, the
// users' into front among them, crosses a constant network of delay each
// way; each edge has one attempt and a 1 s timeout.
func netGraph(delay time.Duration) Scenario {
	front, x, y := backend("front", 0), backend("x", 0), backend("y", 0)
	front.Server.Latency, x.Server.Latency, y.Server.Latency = ms(20), ms(50), ms(30)
	sc := graphScenario(100, 10*time.Second, []GraphService{front, service("mid", "parallel", "all"), x, y},
		[]Layer{edge("", "front", 1), edge("front", "mid", 1), edge("mid", "x", 1), edge("mid", "y", 1)})
	sc.Tick = ms(10)
	sc.Dependency.Network = Network{Kind: "constant", Delay: Duration(delay)}
	return sc
}

// TestGraphNetworkLatency: with constant delays and servers, every request
// takes exactly the sum of its path: three edges down and up (users →
// front → mid → x and y), 6 × 100 ms, front's 20 ms and the slower of x's
// and y's, 50 ms: 670 ms, 67 ticks, the shortest and the longest alike;
// each server sees every request's call.
func TestGraphNetworkLatency(t *testing.T) {
	sc := netGraph(100 * time.Millisecond)
	sc.MeasureLatency = true
	s := graphRunOf(t, sc, 1)
	lo, _ := s.okLat.quantile(1e-9)
	hi, _ := s.okLat.quantile(1)
	if lo != 67 || hi != 67 {
		t.Errorf("latencies from %d to %d ticks, want 67 each", lo, hi)
	}
	// The requests of the last 670 ms are still out when the run ends.
	if want := s.c.requests - 67; s.c.ok != want || s.c.failed != 0 {
		t.Errorf("%d requests, %d ok, %d failed; want %d ok", s.c.requests, s.c.ok, s.c.failed, want)
	}
	// front's server got every request that arrived 100 ms before the end,
	// x's and y's every one that arrived 320 ms before it.
	calls := s.graph.servers.calls
	if calls[0] != s.c.requests-10 || calls[2] != s.c.requests-32 || calls[3] != calls[2] {
		t.Errorf("%d requests; calls to front %d, x %d, y %d; want %d, %d, %d", s.c.requests, calls[0], calls[2], calls[3], s.c.requests-10, s.c.requests-32, s.c.requests-32)
	}
}

// TestGraphNetworkTimeout: mid's call to x is answered 2 × 100 ms + 50 ms
// after it is sent; a timeout of 240 ms on that edge gives up on every
// call (x serves it all the same, wasted work), one of 260 ms waits for
// every answer.
func TestGraphNetworkTimeout(t *testing.T) {
	for _, c := range []struct {
		timeout time.Duration
		ok      bool
	}{{240 * time.Millisecond, false}, {260 * time.Millisecond, true}} {
		sc := netGraph(100 * time.Millisecond)
		sc.Graph.Edge[2].Timeout = Duration(c.timeout)
		s := graphRunOf(t, sc, 1)
		answered := s.c.ok + s.c.failed
		x := s.graph.servers.calls[2]
		switch {
		case answered < s.c.requests-67 || x < s.c.requests-32:
			t.Errorf("timeout %v: %d requests, %d answered, %d calls to x", c.timeout, s.c.requests, answered, x)
		case c.ok && s.c.failed != 0, !c.ok && s.c.ok != 0, !c.ok && s.c.wasted < x-25:
			t.Errorf("timeout %v: %d ok, %d failed, %d of x's %d calls wasted", c.timeout, s.c.ok, s.c.failed, s.c.wasted, x)
		}
	}
}

// TestGraphNetworkDeadline: the request's deadline travels with its calls
// and counts the network's time. mid starts its calls 2 × 100 ms + 20 ms
// after the request arrived: with a deadline of 210 ms none starts (each
// refused by the deadline, x never called); with 230 ms they start, reach
// x and y, and time out when the request's time is up; with 700 ms every
// request succeeds.
func TestGraphNetworkDeadline(t *testing.T) {
	for _, c := range []struct {
		deadline time.Duration
		started  bool
		ok       bool
	}{{210 * time.Millisecond, false, false}, {230 * time.Millisecond, true, false}, {700 * time.Millisecond, true, true}} {
		sc := netGraph(100 * time.Millisecond)
		sc.Deadline = Duration(c.deadline)
		s := graphRunOf(t, sc, 1)
		x, refused := s.graph.servers.calls[2], s.c.refusedBy[byDeadline]
		started := s.c.requests - 32 // arrived in time for mid's calls to reach x
		switch {
		case s.c.ok+s.c.failed < s.c.requests-67:
			t.Errorf("deadline %v: %d requests, %d answered", c.deadline, s.c.requests, s.c.ok+s.c.failed)
		case c.started && (x != started || refused != 0):
			t.Errorf("deadline %v: %d calls to x, %d refused by the deadline; want %d, 0", c.deadline, x, refused, started)
		case !c.started && (x != 0 || refused < 2*(s.c.requests-22)):
			t.Errorf("deadline %v: %d calls to x, %d refused by the deadline; want 0, two a request", c.deadline, x, refused)
		case c.ok && s.c.failed != 0, !c.ok && s.c.ok != 0:
			t.Errorf("deadline %v: %d ok, %d failed", c.deadline, s.c.ok, s.c.failed)
		}
	}
}

// TestGraphNetworkKey: a graph's network is the run's dependency.network,
// one setting for every call; a service's server.network is refused.
func TestGraphNetworkKey(t *testing.T) {
	sc := netGraph(100 * time.Millisecond)
	sc.Graph.Service[2].Server.Network = Network{Kind: "constant", Delay: ms(5)}
	_, err := sc.Resolve()
	if fe, ok := err.(*FieldError); !ok || fe.Path != "graph.service.2.server.network" || !strings.Contains(fe.Msg, "dependency.network") {
		t.Errorf("a server's network in a graph: %v", err)
	}
	sc = netGraph(100 * time.Millisecond)
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	for i, sp := range p.Graph.Servers {
		if sp != nil && sp.Network != p.Network {
			t.Errorf("server %d: network %+v, the run's %+v", i, sp.Network, p.Network)
		}
	}
	if p.Network != (NetworkPlan{Kind: NetworkConstant, Delay: 10}) {
		t.Errorf("network %+v, want constant, 10 ticks", p.Network)
	}
}

// TestGraphNetworkCancel: the users give up on front's call after 50 ms,
// before it crosses the 100 ms network. Without cancel_abandoned front
// still makes its calls when the abandoned one reaches it (x serves them
// for nobody); with it, a call whose caller no longer waits starts none
// below: x is never called.
func TestGraphNetworkCancel(t *testing.T) {
	for _, cancel := range []bool{false, true} {
		sc := netGraph(100 * time.Millisecond)
		sc.Graph.Service[0].Server = DefaultService().Server // front only calls mid
		sc.Graph.Edge[0].Timeout = ms(50)
		sc.CancelAbandoned = cancel
		s := graphRunOf(t, sc, 1)
		x := s.graph.servers.calls[2]
		switch {
		case s.c.ok != 0 || s.c.failed < s.c.requests-5:
			t.Errorf("cancel %v: %d requests, %d ok, %d failed", cancel, s.c.requests, s.c.ok, s.c.failed)
		case cancel && x != 0:
			t.Errorf("cancel: %d calls reached x", x)
		case !cancel && (x != s.c.requests-30 || s.c.wasted < x-25):
			t.Errorf("no cancel: %d calls reached x, %d wasted; want %d", x, s.c.wasted, s.c.requests-30)
		}
	}
}

// TestGraphNetworkFanOut: over an exponential network (20 ms on average
// each way, at 1 ms ticks), the answers of one request's parallel calls
// come back over several ticks, and its calls reach a service without a
// server over several too, yet a fan-out of three calls each failing 10%
// still fails 1 − 0.9³ = 0.271 of its requests, within 1%.
func TestGraphNetworkFanOut(t *testing.T) {
	long(t)
	sc := fanOut(3, 0.1, 1, "all", 0)
	sc.Tick, sc.Load, sc.Duration = ms(1), 5000, Duration(60*time.Second)
	sc.Dependency.Network = Network{Kind: "exponential", Delay: ms(20)}
	m := runOne(t, sc, 1)
	answered := m.Successful + m.Failed
	if share := m.Failed / answered; math.Abs(share-0.271) > 0.01*0.271 || answered < m.Requests-5000 {
		t.Errorf("%v requests, %v answered, %.5f failed; want 0.271", m.Requests, answered, share)
	}
}

// TestGraphNetworkHealthLimit: the backlog a graph's run counts as
// drained is its first server's capacity times the entry edge's timeout
// less that server's latency and the network's way down to it and back:
// front, 1e8 calls/s × (1 s − 20 ms − 2 × 100 ms), one call down, not the
// four calls of the whole graph.
func TestGraphNetworkHealthLimit(t *testing.T) {
	sc := netGraph(100 * time.Millisecond)
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if want := 1e8 * (1 - 0.02 - 0.2); math.Abs(p.Health.Limit-want) > 1 {
		t.Errorf("limit %v, want %v", p.Health.Limit, want)
	}
}
