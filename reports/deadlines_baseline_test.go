package reports

import (
	"math"
	"testing"
)

// The experiments of "A dependency got slow for forty seconds…" and the
// queue-cap exercise of "Retry Storms: Simulate How a 30-Second Blip
// Becomes an Outage That Never Ends": the committed results hold the facts
// their findings state.

// TestBlipQueueCapBaseline: a queue cap of 500 keeps every policy's queue
// at or below 500 calls; uncapped, the rows are the article's (66 s, never,
// 95 s, 36 s); with the cap the storm of 27 attempts still never ends and
// nothing it serves in the last 10 minutes is a success, while a cap of
// capacity × timeout (100) lets it recover; without retries and behind the
// budget the cap shortens the recovery and cuts the failures.
func TestBlipQueueCapBaseline(t *testing.T) {
	rows := readCSV(t, "blip-queue-cap/results.csv")
	cell := func(policy, cap string) csvRow {
		return rows.cell(map[string]string{"policy": policy, "queue cap (calls)": cap})
	}
	policies := []string{"no retries", "27 attempts", "27 attempts + 10% budget", "27 attempts, expired work dropped"}
	for i, want := range []string{"66", "", "95", "36"} {
		if r := cell(policies[i], "no cap"); r.text("recovery_s") != want {
			t.Errorf("%s without a cap: recovery %q s, want the article's %q", policies[i], r.text("recovery_s"), want)
		}
	}
	for _, p := range policies {
		if q := cell(p, "500").num("peak_queue"); q > 500 {
			t.Errorf("%s with a cap of 500: peak queue %v", p, q)
		}
	}
	if r := cell("27 attempts", "500"); r.text("recovered") != "false" || r.num("successes_per_s_last_10m") != 0 {
		t.Errorf("27 attempts, cap 500: recovered %s with %v successes/s at the end; want the storm going", r.text("recovered"), r.num("successes_per_s_last_10m"))
	}
	if r := cell("27 attempts", "100"); r.text("recovered") != "true" {
		t.Errorf("27 attempts, cap 100 (capacity × timeout): not recovered")
	}
	for _, p := range []string{"no retries", "27 attempts + 10% budget"} {
		c, u := cell(p, "500"), cell(p, "no cap")
		if c.num("recovery_s") >= u.num("recovery_s") || c.num("failed") >= u.num("failed") {
			t.Errorf("%s: capped %v s and %v failed against %v s and %v uncapped", p, c.num("recovery_s"), c.num("failed"), u.num("recovery_s"), u.num("failed"))
		}
	}
}

// TestSheddingBaseline: at 110 requests/s against 100 of capacity, a
// queue bounded at 10 calls answers about ninety percent of the requests
// within its bound's tenth of a second and rejects the rest in the tick
// they arrive; the unbounded FIFO queue answers none in time once its
// queue has grown, and each of its failures takes the caller's second.
func TestSheddingBaseline(t *testing.T) {
	rows := readCSV(t, "shedding/results.csv")
	b := rows.cell(map[string]string{"server": "limit 10", "load": "110"})
	ok := b.num("successes_per_s_last_minute") / b.num("requests_per_s_last_minute")
	if ok < 0.87 || ok > 0.93 || b.num("error_latency_p99_s") != 0 || b.num("latency_p99_s") > 0.1 {
		t.Errorf("limit 10 at 110/s: %.3f answered, errors' p99 %v s, successes' p99 %v s; want about 0.9, 0, at most 0.1",
			ok, b.num("error_latency_p99_s"), b.num("latency_p99_s"))
	}
	for _, load := range []string{"105", "110", "125", "150"} {
		f := rows.cell(map[string]string{"server": "FIFO", "load": load})
		if f.num("successes_per_s_last_minute") != 0 || f.num("error_latency_p50_s") != 1 {
			t.Errorf("FIFO at %s/s: %v successes/s over the last minute, errors' median %v s; want none, 1 s",
				load, f.num("successes_per_s_last_minute"), f.num("error_latency_p50_s"))
		}
	}
}

// TestHedgingBaseline: with per-call delays, hedging at the p95 cuts the
// p99 by more than twice the standard error of the means, more with a
// larger cap, within the cap's share of hedges; the retry budget holds
// hedging at the median to 10% of the requests; with the store itself slow
// the p99 moves within the runs' spread.
func TestHedgingBaseline(t *testing.T) {
	rows := readCSV(t, "hedging/results.csv")
	get := func(tail, h string) csvRow { return rows.cell(map[string]string{"tail": tail, "hedging": h}) }
	none := get("slow calls", "none")
	prev := none.num("latency_p99_s")
	for _, c := range []struct {
		name  string
		share float64
	}{{"p95, cap 2%", 0.02}, {"p95, cap 5%", 0.05}, {"p90, cap 10%", 0.10}} {
		r := get("slow calls", c.name)
		se := math.Hypot(none.num("latency_p99_s_sd"), r.num("latency_p99_s_sd")) / math.Sqrt(r.num("replicates"))
		if p99 := r.num("latency_p99_s"); p99 >= prev || none.num("latency_p99_s")-p99 < 2*se {
			t.Errorf("%s: p99 %v s, after %v s (none %v s, standard error %v)", c.name, p99, prev, none.num("latency_p99_s"), se)
		}
		prev = r.num("latency_p99_s")
		if share := r.num("hedges") / r.num("requests"); share > c.share*1.05 || share < c.share*0.5 {
			t.Errorf("%s: hedged %.4f of the requests", c.name, share)
		}
	}
	if r := get("slow calls", "p50, cap 50%"); r.num("hedges") > 0.101*r.num("requests") {
		t.Errorf("p50, cap 50%%: %v hedges for %v requests, beyond the 10%% budget", r.num("hedges"), r.num("requests"))
	}
	slow := get("slow system", "none")
	for _, h := range []string{"p95, cap 2%", "p95, cap 5%", "p90, cap 10%", "p50, cap 50%"} {
		r := get("slow system", h)
		spread := math.Hypot(slow.num("latency_p99_s_sd"), r.num("latency_p99_s_sd"))
		if d := math.Abs(r.num("latency_p99_s") - slow.num("latency_p99_s")); d > 2*spread || d > 0.002 {
			t.Errorf("slow system, %s: p99 moved %v s (the runs' spread %v s)", h, d, spread)
		}
	}
}

// TestRetry4xxBaseline: a retried 4xx costs two calls more than a final
// one; the valid requests number the same in every cell; behind the 10%
// budget, retrying the 4xx loses valid requests (more the more invalid
// traffic), and a final 4xx loses none to it; a final 4xx comes back within
// a network round trip at the median, a retried one after its backoffs.
func TestRetry4xxBaseline(t *testing.T) {
	rows := readCSV(t, "retry-4xx/results.csv")
	get := func(inv, policy string) csvRow {
		return rows.cell(map[string]string{"invalid requests/s": inv, "policy": policy})
	}
	valid := get("0", "retry every error").num("requests")
	prev := valid
	for _, c := range []struct {
		inv     string
		invalid float64 // in the two minutes
	}{{"10", 1200}, {"20", 2400}, {"50", 6000}} {
		inv, invalid := c.inv, c.invalid
		retried, final := get(inv, "retry every error"), get(inv, "never retry a 4xx")
		if extra := retried.num("calls") - final.num("calls"); math.Abs(extra-2*invalid) > 0.03*2*invalid {
			t.Errorf("%s invalid/s: %v more calls retrying every error, for %v invalid requests", inv, extra, invalid)
		}
		if final.num("requests")-invalid != valid || final.num("failed")+final.num("pending") < invalid || final.num("failed") > invalid+10 {
			t.Errorf("%s invalid/s: %v requests, %v failed; want %v valid and %v invalid", inv, final.num("requests"), final.num("failed"), valid, invalid)
		}
		b := get(inv, "retry every error, 10% budget").num("successful")
		if b >= prev || get(inv, "never retry a 4xx, 10% budget").num("successful") < valid-10 {
			t.Errorf("%s invalid/s: behind the budget %v valid successes retrying 4xx (%v before), %v not",
				inv, b, prev, get(inv, "never retry a 4xx, 10% budget").num("successful"))
		}
		prev = b
		if retried.num("error_latency_p50_s") < 0.2 || final.num("error_latency_p50_s") > 0.03 {
			t.Errorf("%s invalid/s: errors' median %v s retried, %v s final", inv, retried.num("error_latency_p50_s"), final.num("error_latency_p50_s"))
		}
	}
}

// TestBudgetScopeBaseline: a budget that sees payments alone refuses
// (almost) none of their retries; shared with the failing search traffic,
// every kind refuses tens a second and answers fewer payments per second
// while search is down; without a budget payments lose nothing.
func TestBudgetScopeBaseline(t *testing.T) {
	rows := readCSV(t, "budget-scope/results.csv")
	get := func(traffic, budget string) csvRow {
		return rows.cell(map[string]string{"traffic": traffic, "retry budget": budget})
	}
	for _, b := range []string{"ratio 10%", "token bucket", "grpc"} {
		alone, shared := get("payments alone", b), get("payments + failing search", b)
		if alone.num("refused_per_s_search_down") > 1 || shared.num("refused_per_s_search_down") < 10 ||
			shared.num("successes_per_s_search_down") > alone.num("successes_per_s_search_down")-2 {
			t.Errorf("%s: alone %v ok/s, %v refused/s; shared %v ok/s, %v refused/s", b,
				alone.num("successes_per_s_search_down"), alone.num("refused_per_s_search_down"),
				shared.num("successes_per_s_search_down"), shared.num("refused_per_s_search_down"))
		}
	}
	if a, s := get("payments alone", "none").num("successes_per_s_search_down"), get("payments + failing search", "none").num("successes_per_s_search_down"); math.Abs(a-s) > 0.5 {
		t.Errorf("no budget: %v against %v payments/s", a, s)
	}
}

// TestSlowDependencyHourBaseline: the storm's backlog grows all hour by
// about the calls offered beyond the store's capacity (stuck), and nothing
// succeeds at its end; with retries off at minute 20 it shrinks by the
// store's capacity less the calls still arriving (draining, too slowly for
// the hour); dropping the abandoned work as well ends it within a minute
// of the switch; the article's controls recover within 10 s of the
// slowdown.
func TestSlowDependencyHourBaseline(t *testing.T) {
	rows := readCSV(t, "slow-dependency-hour/results.csv")
	get := func(p string) csvRow { return rows.cell(map[string]string{"policy": p}) }
	s := get("per-hop timeouts")
	growth := (s.num("queue_at_60m") - s.num("queue_at_20m")) / 2400
	if want := s.num("calls_per_s_in_minute_60") - s.num("served_per_s_in_minute_60"); math.Abs(growth-want) > 0.05*want ||
		s.num("successes_per_s_in_minute_60") != 0 || s.text("recovered") != "false" {
		t.Errorf("per-hop timeouts: the queue grows %v calls/s, offered minus served %v; %v successes/s at the end", growth, want, s.num("successes_per_s_in_minute_60"))
	}
	r := get("retries off at 20m")
	drain := (r.num("queue_at_30m") - r.num("queue_at_60m")) / 1800
	if want := r.num("served_per_s_in_minute_60") - r.num("calls_per_s_in_minute_60"); drain <= 0 || math.Abs(drain-want) > 0.05*want ||
		r.num("queue_at_60m")/drain < 3600 {
		t.Errorf("retries off at 20m: draining %v calls/s (capacity less arrivals %v), %v calls left", drain, want, r.num("queue_at_60m"))
	}
	if b := get("both at 20m"); b.text("recovered") != "true" || b.num("after_change_s") > 60 {
		t.Errorf("both at 20m: recovered %s, %v s after the switch", b.text("recovered"), b.num("after_change_s"))
	}
	if c := get("deadline + budget + jitter + cancel"); c.num("recovery_s") > 10 {
		t.Errorf("the article's controls: recovered %v s after the slowdown", c.num("recovery_s"))
	}
}

// TestJitterTippingBaseline: as tipping-server found (1.72 s with full
// jitter against 2.2 s without), full jitter tips at shorter outages: it
// recovers in no more runs than no jitter at any outage, the first outage
// at which fewer than half recover comes earlier, and at 1.8 s the two
// Wilson intervals do not overlap.
func TestJitterTippingBaseline(t *testing.T) {
	rows := readCSV(t, "jitter-tipping/results.csv")
	get := func(p, blip string) csvRow { return rows.cell(map[string]string{"policy": p, "blip": blip}) }
	blips := []string{"1.2s", "1.4s", "1.6s", "1.8s", "2s", "2.2s", "2.4s", "2.6s", "2.8s"}
	tip := func(p string) int {
		for i, b := range blips {
			if get(p, b).num("recovered_share") < 0.5 {
				return i
			}
		}
		return len(blips)
	}
	for _, b := range blips {
		if j, n := get("backoff + full jitter", b).num("recovered_share"), get("backoff, no jitter", b).num("recovered_share"); j > n {
			t.Errorf("%s: full jitter recovers in %v, no jitter in %v", b, j, n)
		}
	}
	if j, n := tip("backoff + full jitter"), tip("backoff, no jitter"); j >= n {
		t.Errorf("below half at %s with full jitter, at %s without", blips[min(j, len(blips)-1)], blips[min(n, len(blips)-1)])
	}
	if j, n := get("backoff + full jitter", "1.8s"), get("backoff, no jitter", "1.8s"); j.num("recovered_share_hi") >= n.num("recovered_share_lo") {
		t.Errorf("1.8 s: full jitter up to %v, no jitter from %v: the intervals overlap", j.num("recovered_share_hi"), n.num("recovered_share_lo"))
	}
}

// TestJitterHerdBaseline: without jitter a herd that failed together
// retries together, and each of the three waves after the outage gets the
// 10 calls a tick takes: 30 answered whatever the herd's size; with full
// or equal jitter nearly every client of a herd of up to 400 is answered.
func TestJitterHerdBaseline(t *testing.T) {
	rows := readCSV(t, "jitter-herd/results.csv")
	for _, n := range []string{"100", "200", "400", "800", "1600"} {
		if ok := rows.cell(map[string]string{"policy": "backoff, no jitter", "clients": n}).num("successful"); ok != 30 {
			t.Errorf("no jitter, %s clients: %v answered, want 30", n, ok)
		}
	}
	for _, p := range []string{"backoff + full jitter", "backoff + equal jitter"} {
		for _, n := range []string{"100", "200", "400"} {
			r := rows.cell(map[string]string{"policy": p, "clients": n})
			if r.num("successful") < 0.95*r.num("requests") {
				t.Errorf("%s, %s clients: %v answered", p, n, r.num("successful"))
			}
		}
	}
}
