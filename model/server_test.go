package model

import (
	"testing"
	"time"
)

// serverCase is 100 s of 8 requests a second against 5 calls a second, one
// attempt with a 3 s timeout, 1 s ticks: the stochastic engine is
// deterministic with constant arrivals.
func serverCase(set func(s *Scenario)) Scenario {
	s := Default()
	s.Engine = "stochastic"
	s.Duration = Duration(100 * time.Second)
	s.Load = 8
	s.Dependency.Capacity = 5
	s.Layer[0].Timeout = Duration(3 * time.Second)
	set(&s)
	return s
}

func serverRun(t *testing.T, set func(s *Scenario)) Metrics {
	t.Helper()
	r, err := Run(serverCase(set), 1, false)
	if err != nil {
		t.Fatal(err)
	}
	return r.Metrics
}

// TestLossServer: the first five calls of each tick are served, the rest
// fail at once; nothing waits.
func TestLossServer(t *testing.T) {
	m := serverRun(t, func(s *Scenario) { s.Dependency.Queue = "none" })
	if m.Successful != 500 || m.Failed != 300 || m.PeakQueue != 0 || m.Served != 500 {
		t.Errorf("loss server: %v", m)
	}
}

// TestQueueServer: newest first serves each tick's new calls in time;
// oldest first serves calls whose callers gave up, wasted work, unless
// expired calls are dropped; a queue limit turns calls away at once.
func TestQueueServer(t *testing.T) {
	lifo := serverRun(t, func(s *Scenario) { s.Dependency.Queue = "lifo" })
	if lifo.Successful != 500 || lifo.WastedServed != 0 {
		t.Errorf("lifo: %v, want 500 successes and no waste", lifo)
	}
	fifo := serverRun(t, func(s *Scenario) {})
	if fifo.Successful >= 50 || fifo.WastedServed < 400 || fifo.Served != 500 {
		t.Errorf("fifo: %v, want the backlog's stale calls served: few successes, most work wasted", fifo)
	}
	drop := serverRun(t, func(s *Scenario) { s.Dependency.DropExpired = true })
	if drop.WastedServed != 0 || drop.Successful < 490 {
		t.Errorf("fifo dropping expired calls: %v, want no waste and nearly 500 successes", drop)
	}
	limit := serverRun(t, func(s *Scenario) { s.Dependency.QueueLimit = 2 })
	if limit.PeakQueue > 2 || limit.Failed < 100 {
		t.Errorf("queue limit 2: %v, want the queue capped and the excess failed", limit)
	}
}

// TestLatencyServer: with no capacity limit each call is answered after its
// latency, here 2 s (plus 1 ms per call in service): every request succeeds
// but the two of the last two seconds, and two are in service at a time.
func TestLatencyServer(t *testing.T) {
	m := serverRun(t, func(s *Scenario) {
		s.Load = 1
		s.Dependency.Capacity = 0
		s.Dependency.Latency = Duration(2 * time.Second)
		s.Dependency.LatencySlope = ms(1)
	})
	if m.Successful != 98 || m.Pending != 2 || m.PeakQueue != 2 {
		t.Errorf("latency server: %v", m)
	}
}

// A waiting room's entry that borrowed its group's timeout reference takes
// no calls from its deadline tick on: its group may have been recycled at
// that timeout and opened anew in the same tick (a hedge sent in the
// tick's last phase is), and the new group's calls are not the old one's.
func TestBorrowedEntryRecycled(t *testing.T) {
	sc := Default()
	sc.Engine, sc.Load, sc.Duration = "stochastic", 10, Duration(time.Minute)
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	s := newStoch(p, 1, false)
	defer s.r.release()
	s.begin()
	q := s.srv.(*queueServer)
	s.now = p.Ticks / 4
	g := s.gs.get()
	*g = group{state: gsOpen, deadline: s.now, refs: 1} // the timeout event's reference
	q.enqueue(g, 5)
	if len(q.q) != 1 || !q.q[0].borrowed() {
		t.Fatalf("entries %+v; want one, borrowed", q.q)
	}
	g.state = gsClosed // its timeout, in the deadline tick's last phase
	s.gs.release(g)
	h := s.gs.get() // the same group, opened anew for a hedge
	if h != g {
		t.Skip("the group was not handed out again")
	}
	*h = group{state: gsOpen, deadline: s.now + 10, refs: 1}
	q.enqueue(h, 3)
	if len(q.q) != 2 || q.q[0].n != 5 || q.q[1].n != 3 || q.q[1].g != h {
		t.Errorf("entries %+v; want the old group's 5 calls and the new one's 3 apart", q.q)
	}
}
