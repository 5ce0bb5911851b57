package model

import (
	"testing"
	"time"
)

// loopScenario is the FIG. 1 article's server (60/s, 0.5 s timeout, six
// attempts, deadline-aware dropping, no collapse) under a 30 s outage from
// second 10, loaded either open (40 requests/s, evenly spaced, so only the
// policy differs between runs) or closed (50 clients, each with one request
// outstanding and a 1.25 s think time, about 40 requests/s when healthy).
// backoff is "none", "exponential" (250 ms doubling to 2 s) or "jitter" (the
// same with full jitter).
func loopScenario(closed bool, backoff string) Scenario {
	s := Default()
	s.Engine = "stochastic"
	s.Tick = ms(10)
	s.Duration = Duration(60 * time.Second)
	s.Load = 40
	s.Arrivals = "constant"
	s.Clients = 50
	if closed {
		s.Arrivals = "closed"
		s.Load = 0
		s.Think = ms(1250)
	}
	l := Layer{Attempts: 6, Timeout: ms(500), Backoff: Backoff{Kind: "none", Factor: 2, Jitter: "none"}}
	switch backoff {
	case "exponential":
		l.Backoff = Backoff{Kind: "exponential", Base: ms(250), Factor: 2, Cap: ms(2000), Jitter: "none"}
	case "jitter":
		l.Backoff = Backoff{Kind: "exponential", Base: ms(250), Factor: 2, Cap: ms(2000), Jitter: "full"}
	}
	s.Layer = []Layer{l}
	s.Dependency = Dependency{Capacity: 60, Queue: "fifo", DropExpired: true, Network: Network{Kind: "none"}}
	s.Fault = []Fault{{Kind: "outage", Start: Duration(10 * time.Second), Length: Duration(30 * time.Second), Factor: 1}}
	return s
}

// outageRate is the mean calls per second at the dependency over the last
// 15 s of the outage, once the storm has built up.
func outageRate(t *testing.T, sc Scenario, seed uint64) float64 {
	t.Helper()
	r, err := Run(sc, seed, true)
	if err != nil {
		t.Fatal(err)
	}
	var calls, n float64
	for _, row := range r.Series.Rows {
		if row.T >= 25 && row.T < 40 {
			calls += row.Calls
			n++
		}
	}
	return calls / n
}

// TestBackoffOpenVersusClosed: backoff lowers the load a closed system offers
// during an outage (each client waits for its own request, so spacing its
// retries slows it down) but not an open one's: new requests keep arriving
// at 40/s and each still makes six attempts, so once the storm has built up
// the dependency sees 6 × 40 = 240 calls/s with or without backoff.
func TestBackoffOpenVersusClosed(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		open := outageRate(t, loopScenario(false, "none"), seed)
		closed := outageRate(t, loopScenario(true, "none"), seed)
		// Closed, no backoff: 50 clients × 6 calls per cycle of 3 s of
		// timeouts plus 1.25 s of thinking ≈ 71 calls/s.
		if open < 235 || open > 245 || closed < 62 || closed > 76 {
			t.Errorf("seed %d, no backoff: open %.0f calls/s (want 240), closed %.0f (want about 71)", seed, open, closed)
		}
		for _, b := range []string{"exponential", "jitter"} {
			ob := outageRate(t, loopScenario(false, b), seed)
			cb := outageRate(t, loopScenario(true, b), seed)
			t.Logf("seed %d, %s backoff: open %.0f → %.0f calls/s, closed %.0f → %.0f", seed, b, open, ob, closed, cb)
			if ob < 0.95*open || ob > 1.05*open {
				t.Errorf("seed %d, %s backoff, open loop: %.0f calls/s, want the same as without backoff (%.0f)", seed, b, ob, open)
			}
			// Closed: the waits (5.75 s, or half that on average with full
			// jitter) stretch each client's cycle to ≈ 10 s (≈ 7 s).
			if cb > 0.7*closed {
				t.Errorf("seed %d, %s backoff, closed loop: %.0f calls/s, want under 70%% of %.0f", seed, b, cb, closed)
			}
		}
	}
}
