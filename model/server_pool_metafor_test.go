package model

import (
	"math"
	"testing"
	"time"
)

// metaforPool is the single server of Metafor's study as a worker pool: one
// worker with exponential service at 10 calls a second, room for 99 calls
// in all (the worker's and 98 waiting: Metafor's qsize 100), a client of
// lambda requests a second, Poisson, each try timing out after 3 s and
// retried at once up to retries times, for an hour on 10 ms ticks; full
// starts it with 99 requests' calls at the server.
func metaforPool(lambda float64, retries int, full bool) Scenario {
	sc := poolScenario(lambda, 10, 1, 3600)
	sc.Tick = Duration(10 * time.Millisecond)
	sc.Layer[0].Timeout = Duration(3 * time.Second)
	sc.Layer[0].Attempts = retries + 1
	sc.Dependency.QueueLimit = 98
	if full {
		sc.Initial.Backlog = 99
	}
	return sc
}

// TestMetaforNeverDrains checks the stochastic engine's worker pool
// against the behaviour Metafor ("Metafor: analyzing metastability in
// server systems") reports for its single server: with retries (2 and 4),
// a queue that is full stays full at arrival rates from 8 to 9.8 a second,
// below the service rate of 10 — it never drains, over the whole hour the
// pool keeps more than 90 of its 99 places taken on average; without
// retries, the same full queue drains and the server holds a few calls.
// Where Metafor's outputs record a stationary mean queue for the same
// server (testdata/metafor/outputs.txt: λ 9 with 2 retries, 9.5 with 4, 9.8
// with 3), the pool's mean over the hour is within 2% of it: the chain's
// mean is its full mode's, with a little mass in the low one.
func TestMetaforNeverDrains(t *testing.T) {
	long(t)
	recorded := map[[2]float64]float64{}
	for _, run := range metaforRuns(t) {
		recorded[[2]float64{run.lambda, float64(run.retries)}] = run.values["queue_mean"]
	}
	for _, lambda := range []float64{8, 9, 9.5, 9.8} {
		for _, retries := range []int{2, 3, 4} {
			res, err := Run(metaforPool(lambda, retries, true), 19, false)
			if err != nil {
				t.Fatal(err)
			}
			if res.InSystemMean <= 90 || res.PeakQueue > 98 {
				t.Errorf("λ %g, %d retries, starting full: %.1f calls at the server on average, at most %v waiting; want a queue that stays full (> 90 of 99), never above its limit of 98 waiting", lambda, retries, res.InSystemMean, res.PeakQueue)
			}
			if want, ok := recorded[[2]float64{lambda, float64(retries)}]; ok {
				if math.Abs(res.InSystemMean-want) > 0.02*want {
					t.Errorf("λ %g, %d retries: %.2f calls at the server on average, Metafor's stationary queue_mean %.2f ± 2%%", lambda, retries, res.InSystemMean, want)
				}
				t.Logf("λ %g, %d retries: Metafor's queue_mean %.2f", lambda, retries, want)
			}
			t.Logf("λ %g, %d retries, starting full: in_system_mean %.2f, amplification %.2f", lambda, retries, res.InSystemMean, res.Amplification())
		}
	}
	res, err := Run(metaforPool(8, 0, true), 19, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.InSystemMean >= 10 {
		t.Errorf("λ 8, no retries, starting full: %.1f calls at the server on average, want it drained to a few (M/M/1/99: 4)", res.InSystemMean)
	}
	t.Logf("λ 8, no retries, starting full: in_system_mean %.2f", res.InSystemMean)
}
