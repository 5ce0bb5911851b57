package model

import (
	"testing"
	"time"
)

// server60 is the system of the FIG. 1 article ("A retry storm"): a server
// with capacity for 60 calls per second, 40 requests per second of demand
// from 50 clients (open loop, Poisson), a 0.5 s client timeout and up to five
// retries (six attempts), hit by an outage of blip from second 20, watched
// for 160 s after it.
//
// Policies, as in the article: "immediate" retries at once (the next tick
// after the timeout); "backoff" waits 250 ms, doubling to a cap of 2 s;
// "jitter" is that backoff with full jitter; "budget" retries at once but
// through a token bucket per client (starts full at 10 tokens, +0.1 per
// success, 1 per retry, refused below 1).
//
// The dependency needs two settings for the article's behaviour, and the
// tests below show what happens without each:
//
//   - drop_expired: a FIFO server that serves every call it accepted never
//     recovers even from the 1 s blip. The blip leaves a backlog of calls
//     whose callers have already timed out and retried; the server works
//     through them first, so every new call also waits past its 0.5 s
//     timeout, is retried, and the backlog grows (the 30-second-blip
//     article's mechanism). With deadline-aware dropping, the server only
//     ever works on calls someone still waits for.
//   - collapse: with drop_expired alone, the server drains after the 3 s
//     blip too, within about 4 s under every policy: every call it serves is
//     useful, so it delivers its full 60/s against 40/s of new demand, and
//     the retries die out. A stable bad state needs useful throughput to fall
//     under load, the article's "overloaded servers do less useful work".
//
// The collapse chosen: demand = "offered", window = 2 s, slope = 0.5,
// floor = 0.1. Overload is the rate of calls arriving over the last 2 s —
// new requests, retries and calls that will expire alike, since the server
// pays to accept, queue and discard each — over the capacity; above 1 the
// server keeps 1 − 0.5 × (overload − 1) of its capacity, at least 10%. This
// is the article's open-system load, the arrival rate times the attempts per
// request, which backoff spreads over time but does not reduce. After a 1 s
// blip the offered rate over 2 s stays close to capacity and the server
// keeps most of it; after 3 s of failures every in-flight request is
// retrying, the offered rate is several times capacity, throughput falls
// below the 40/s of new demand, requests keep failing and retrying, and the
// offered rate stays high: a metastable state. A budget cuts the retries as
// soon as successes stop, so the offered rate falls back to the demand.
//
// Over 40 seeds: the 1 s blip recovers under backoff, jitter and the budget
// in 40/40 and under immediate retries in 39/40 (one seed's Poisson burst
// tips it); the 3 s blip leaves immediate, backoff and jitter collapsed in
// 40/40 and the budget recovers in 40/40, within 3.5 s of capacity returning.
func server60(policy string, blip time.Duration) Scenario {
	s := Default()
	s.Engine = "stochastic"
	s.Tick = ms(10)
	s.Duration = Duration(180 * time.Second)
	s.Load = 40
	s.Arrivals = "poisson"
	s.Clients = 50
	l := Layer{Attempts: 6, Timeout: ms(500), Backoff: Backoff{Kind: "none", Factor: 2, Jitter: "none"}}
	switch policy {
	case "backoff":
		l.Backoff = Backoff{Kind: "exponential", Base: ms(250), Factor: 2, Cap: ms(2000), Jitter: "none"}
	case "jitter":
		l.Backoff = Backoff{Kind: "exponential", Base: ms(250), Factor: 2, Cap: ms(2000), Jitter: "full"}
	case "budget":
		s.Budget = Budget{Kind: "token_bucket", Scope: "client", Params: TokenBucketParams{Ratio: 0.1, MaxTokens: 10}}
	}
	s.Layer = []Layer{l}
	s.Dependency = Dependency{Capacity: 60, Queue: "fifo", DropExpired: true, Network: Network{Kind: "none"},
		Collapse: Collapse{Slope: 0.5, Floor: 0.1, Window: Duration(2 * time.Second), Demand: "offered"}}
	s.Fault = []Fault{{Kind: "outage", Start: Duration(20 * time.Second), Length: Duration(blip), Factor: 1}}
	return s
}

var server60Policies = []string{"immediate", "backoff", "jitter", "budget"}

func TestServer60Blips(t *testing.T) {
	long(t)
	for seed := uint64(1); seed <= 5; seed++ {
		for _, p := range server60Policies {
			one := runOne(t, server60(p, time.Second), seed)
			if !one.Recovered() || one.RecoveryS > 10 {
				t.Errorf("seed %d, %s, 1 s blip: want recovered within 10 s, got %v", seed, p, one)
			}
			three := runOne(t, server60(p, 3*time.Second), seed)
			switch p {
			case "budget":
				if !three.Recovered() || three.RecoveryS > 5 {
					t.Errorf("seed %d, budget, 3 s blip: want recovered within 5 s of capacity returning, got %v", seed, three)
				}
				if three.RetriesRefused == 0 {
					t.Errorf("seed %d, budget, 3 s blip: the budget refused nothing", seed)
				}
			default:
				if three.Recovered() {
					t.Errorf("seed %d, %s, 3 s blip: want collapsed to the end (157 s after capacity returned), got %v", seed, p, three)
				}
				// Collapsed, not just unhealthy: most requests fail.
				if three.Failed < three.Successful {
					t.Errorf("seed %d, %s, 3 s blip: %v failed, %v successful", seed, p, three.Failed, three.Successful)
				}
			}
		}
	}
}

// TestServer60NeedsCollapse: without the collapse the same server drains
// after the 3 s blip under every policy; without deadline-aware dropping it
// does not even survive the 1 s blip.
func TestServer60NeedsCollapse(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		for _, p := range server60Policies {
			sc := server60(p, 3*time.Second)
			sc.Dependency.Collapse = Collapse{}
			if m := runOne(t, sc, seed); !m.Recovered() || m.RecoveryS > 10 {
				t.Errorf("seed %d, %s, no collapse: want recovered within 10 s, got %v", seed, p, m)
			}
			if p == "budget" {
				continue
			}
			sc = server60(p, time.Second)
			sc.Dependency.Collapse = Collapse{}
			sc.Dependency.DropExpired = false
			if m := runOne(t, sc, seed); m.Recovered() {
				t.Errorf("seed %d, %s, no dropping: want never recovered from a 1 s blip, got %v", seed, p, m)
			}
		}
	}
}
