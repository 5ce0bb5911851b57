package reports

import (
	"math"
	"testing"
)

// cell is the row whose axis values are those given; the test stops when
// there is none.
func (c *csvTable) cell(cols map[string]string) csvRow {
	c.t.Helper()
	r, ok := c.find(cols)
	if !ok {
		c.t.Fatalf("no cell %v", cols)
	}
	return r
}

// TestSwitchToBudgetBaseline: the FIG. 1 server stuck after a 3 s blip
// recovers within a few seconds of a switch to the token bucket, in every
// replicate, once capacity is back; a switch to backoff or to backoff with
// jitter leaves it stuck (at most one replicate in ten recovers), as does
// leaving immediate retries on.
func TestSwitchToBudgetBaseline(t *testing.T) {
	rows := readCSV(t, "switch-to-budget/results.csv")
	for _, at := range []string{"33s", "53s"} {
		cell := func(sw string) csvRow { return rows.cell(map[string]string{"switch": sw, "change.0.at": at}) }
		if b := cell("token-bucket budget"); b.num("recovered_share") != 1 || b.num("after_change_s") > 5 {
			t.Errorf("budget at %s: %v recovered, %v s after the switch; want all, within 5 s", at, b.num("recovered_share"), b.num("after_change_s"))
		}
		for _, sw := range []string{"immediate retries left on", "exponential backoff", "backoff + full jitter"} {
			if r := cell(sw); r.num("recovered_share") > 0.1 || r.num("healthy_share_last_30s") > 0.1 {
				t.Errorf("%s at %s: %v recovered, healthy %v of the last 30 s; want stuck", sw, at, r.num("recovered_share"), r.num("healthy_share_last_30s"))
			}
		}
	}
}

// TestTurnOffRetriesBaseline: turning retries off at the gateway leaves the
// storm going; off everywhere the backlog left drains at capacity − load
// (100 − 70 calls/s), so the time to health is the backlog at the switch
// over 30 calls/s, or never within the hour once that is too long; with
// expired work dropped as well the system is back within seconds of any
// switch.
func TestTurnOffRetriesBaseline(t *testing.T) {
	rows := readCSV(t, "turn-off-retries/results.csv")
	cell := func(what, at string) csvRow {
		return rows.cell(map[string]string{"intervention": what, "change.0.at": at})
	}
	for _, at := range []string{"1m35s", "2m", "5m", "10m", "30m"} {
		for _, what := range []string{"retries left on", "retries off at the gateway"} {
			if r := cell(what, at); r.text("recovered") != "false" || r.text("after_change_s") != "" {
				t.Errorf("%s at %s: recovered %s after %q s; want never", what, at, r.text("recovered"), r.text("after_change_s"))
			}
		}
		if r := cell("retries off everywhere, expired work dropped", at); r.num("after_change_s") > 5 {
			t.Errorf("dropped at %s: healthy %v s after the switch, want within 5 s", at, r.num("after_change_s"))
		}
	}
	for _, c := range []struct{ at, queue string }{{"1m35s", "queue_at_95s"}, {"2m", "queue_at_2m"}} {
		r := cell("retries off everywhere", c.at)
		if want := r.num(c.queue) / 30; math.Abs(r.num("after_change_s")-want) > 0.01*want {
			t.Errorf("everywhere at %s: healthy %v s after the switch; a backlog of %v calls at 30 calls/s takes %v s", c.at, r.num("after_change_s"), r.num(c.queue), want)
		}
	}
	if r := cell("retries off everywhere", "5m"); r.text("recovered") != "false" || r.num("queue_at_5m")/30 < 3600-300 {
		t.Errorf("everywhere at 5m: recovered %s with %v calls to drain", r.text("recovered"), r.num("queue_at_5m"))
	}
}

// TestHysteresisBaseline: on the ramp, immediate retries tip near capacity
// and come back only far below it, goodput on the way down a fraction of
// the way up at the same load; without retries, or behind the budget, the
// two ways meet.
func TestHysteresisBaseline(t *testing.T) {
	rows := readCSV(t, "hysteresis/results.csv")
	get := func(policy string) csvRow { return rows.cell(map[string]string{"policy": policy}) }
	r := get("immediate retries")
	if tip, back := r.num("collapse_load"), r.num("recovery_load"); tip-back < 20 || r.num("successes_per_s_down_44") > r.num("successes_per_s_up_44")/2 {
		t.Errorf("immediate retries: tips at %v, back at %v; at 44 requests/s %v up, %v down: the branches do not part",
			tip, back, r.num("successes_per_s_up_44"), r.num("successes_per_s_down_44"))
	}
	for _, p := range []string{"no retries", "token-bucket budget"} {
		r := get(p)
		if tip, back := r.num("collapse_load"), r.num("recovery_load"); tip-back > 5 || r.num("successes_per_s_down_44") < 0.9*r.num("successes_per_s_up_44") {
			t.Errorf("%s: tips at %v, back at %v; want the two ways to meet", p, tip, back)
		}
	}
}

// TestSpontaneousCollapseBaseline: with immediate retries and no fault the
// share of replicates that collapse (and stay collapsed) rises with the
// load and the time to collapse falls, steeply near capacity; without
// retries or behind the budget none collapses.
func TestSpontaneousCollapseBaseline(t *testing.T) {
	rows := readCSV(t, "spontaneous-collapse/results.csv")
	get := func(policy, load string) csvRow { return rows.cell(map[string]string{"policy": policy, "load": load}) }
	loads := []string{"52", "53", "54", "55", "56", "57", "58", "59"}
	prev := 1.0
	for _, l := range loads {
		healthy := get("immediate retries", l).num("recovered_share")
		if healthy > prev {
			t.Errorf("load %s: %v still healthy, more than %v at the load below", l, healthy, prev)
		}
		prev = healthy
		for _, p := range []string{"no retries", "token-bucket budget"} {
			if r := get(p, l); r.num("recovered_share") != 1 || r.text("collapse_s") != "" {
				t.Errorf("%s at %s: %v healthy, collapse at %q", p, l, r.num("recovered_share"), r.text("collapse_s"))
			}
		}
	}
	if h52, h59 := get("immediate retries", "52").num("recovered_share"), get("immediate retries", "59").num("recovered_share"); h52 != 1 || h59 != 0 {
		t.Errorf("healthy at the end: %v at 52, %v at 59; want all and none", h52, h59)
	}
	// Where every replicate collapses the mean is the mean time to collapse.
	if c57, c59 := get("immediate retries", "57").num("collapse_s"), get("immediate retries", "59").num("collapse_s"); c59 > c57/2 {
		t.Errorf("mean time to collapse %v s at 57, %v s at 59: not falling steeply", c57, c59)
	}
}
