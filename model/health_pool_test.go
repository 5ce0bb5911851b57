package model

import (
	"testing"
	"time"
)

// TestPoolHealthRule: a worker pool with a waiting room is judged as a
// queueing dependency is, by the calls waiting against its capacity times
// what the edge's timeout leaves after the service time (10 workers of
// 100 ms: 100 calls/s; a 1 s timeout less 100 ms: 90 calls); a pool without
// one (queue = "none") holds no backlog and is judged by goodput. A pool
// judged by goodput was called stuck in quiet runs whose last second's
// requests were still in service when the run ended.
func TestPoolHealthRule(t *testing.T) {
	for _, tc := range []struct {
		queue string
		rule  HealthRule
	}{{"fifo", HealthQueue}, {"lifo", HealthQueue}, {"none", HealthGoodput}} {
		sc := poolScenario(50, 10, 10, 60)
		sc.Layer[0].Timeout = Duration(time.Second)
		sc.Dependency.Service = Service{Kind: "constant"}
		sc.Dependency.Queue = tc.queue
		p, err := sc.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		if p.Health.Rule != tc.rule {
			t.Errorf("queue %s: health rule %v, want %v", tc.queue, p.Health.Rule, tc.rule)
		}
		if tc.rule == HealthQueue && (p.Health.Limit < 89.99 || p.Health.Limit > 90.01) {
			t.Errorf("queue %s: healthy limit %v calls, want 90", tc.queue, p.Health.Limit)
		}
	}
	// Quiet pools recover: every seed of a 3-minute run at half the
	// pool's capacity, no fault.
	for seed := range uint64(8) {
		sc := poolScenario(50, 10, 10, 180)
		sc.Layer[0].Timeout = Duration(time.Second)
		sc.Layer[0].Attempts = 3
		sc.Dependency.Service = Service{Kind: "constant"}
		sc.Dependency.Queue = "fifo"
		sc.Tick = Duration(10 * time.Millisecond)
		r, err := Run(sc, seed, false)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != Recovered {
			t.Errorf("seed %d: a quiet pool at half its capacity: %v, want recovered", seed, r.Verdict)
		}
	}
}
