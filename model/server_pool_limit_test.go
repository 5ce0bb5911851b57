package model

import (
	"testing"
	"time"
)

// TestPoolQueueLimit: a pool's waiting room holds at most queue_limit
// calls beyond its free workers, however many arrive while it is full
// (here 40 requests/s, each retried four times, at one worker of 100 ms:
// 10 calls/s), and a loss pool holds none.
func TestPoolQueueLimit(t *testing.T) {
	for _, tc := range []struct {
		queue string
		limit int64
	}{{"fifo", 5}, {"lifo", 20}, {"none", 0}} {
		sc := poolScenario(40, 10, 1, 60)
		sc.Tick = Duration(10 * time.Millisecond)
		sc.Layer[0].Timeout = Duration(time.Second)
		sc.Layer[0].Attempts = 5
		sc.Dependency.Queue = tc.queue
		sc.Dependency.QueueLimit = int(tc.limit)
		for seed := range uint64(3) {
			r, err := Run(sc, seed, false)
			if err != nil {
				t.Fatal(err)
			}
			if r.PeakQueue > float64(tc.limit) {
				t.Errorf("queue %s, limit %d, seed %d: %v calls waited at once", tc.queue, tc.limit, seed, r.PeakQueue)
			}
		}
	}
}
