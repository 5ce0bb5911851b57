package serve

import (
	"context"
	"slices"
	"testing"

	"github.com/stormlab/stormlab/model"
)

// TestInterventionsLeaveThePastAlone is what the live run rests on: an
// intervention at second t, of any kind the page offers, leaves every row
// before t as it was, so the server can simulate the run again from the
// start and go on streaming from t. Checked on the FIG. 1 server
// (stochastic), the 30-second blip (the queue engine) and a chain of four
// layers with breakers.
func TestInterventionsLeaveThePastAlone(t *testing.T) {
	cat, err := newCatalog([]string{fig1, "../../../experiments/blip-30s.toml", "../../../experiments/chain-breaker.toml"})
	if err != nil {
		t.Fatal(err)
	}
	fault := func(kind string, length float64, capacity, factor float64) intervention {
		f := model.Fault{Kind: kind, Length: model.Seconds(length), Capacity: capacity, Factor: factor}
		return intervention{Fault: &f, Label: faultLabel(&f)}
	}
	change := func(set map[string]any) intervention { return intervention{Set: set, Label: changeLabel(set)} }
	all := []intervention{
		fault("outage", 3, 0, 1), fault("outage", 1, 0, 1), fault("degradation", 5, 30, 1),
		fault("slowdown", 5, 0, 4), fault("spike", 5, 0, 2),
		change(map[string]any{"layer.*.attempts": int64(3)}),
		change(map[string]any{"layer.0.backoff.kind": "exponential", "layer.0.backoff.base": "250ms", "layer.0.backoff.cap": "2s", "layer.0.backoff.jitter": "full"}),
		change(map[string]any{"layer.*.backoff.kind": "constant", "layer.*.backoff.base": "100ms", "layer.*.backoff.jitter": "decorrelated"}),
		change(map[string]any{"budget.kind": "token_bucket", "budget.ratio": 0.1, "budget.max_tokens": int64(10), "budget.scope": "client"}),
		change(map[string]any{"budget.kind": "per_tick", "budget.ratio": 0.1}),
		change(map[string]any{"budget.kind": "ratio", "budget.ratio": 0.1}),
		change(map[string]any{"budget.kind": "grpc", "budget.max_tokens": int64(10), "budget.token_ratio": 0.1}),
		change(map[string]any{"budget.kind": "finagle"}),
		change(map[string]any{"budget.kind": "envoy"}),
		change(map[string]any{"budget.kind": "aws"}),
		change(map[string]any{"budget.kind": "adaptive"}),
		change(map[string]any{"layer.0.breaker.kind": "consecutive", "layer.0.breaker.threshold": int64(5), "layer.0.breaker.open": "5s"}),
		change(map[string]any{"layer.*.breaker.kind": "ratio"}),
		change(map[string]any{"deadline": "2s"}),
		change(map[string]any{"dependency.drop_expired": false}),
		change(map[string]any{"load": 50.5}),
		change(map[string]any{"dependency.capacity": int64(80)}),
	}
	const at, rows = 30, 60
	for _, name := range []string{"server-60", "blip-30s", "chain-breaker"} {
		o := cat.byName[name]
		policy := ""
		if names := policyNames(o); len(names) > 0 {
			policy = names[len(names)-1]
		}
		l, err := newLive(cat, setup{Experiment: name, Policy: policy})
		if err != nil {
			t.Fatal(err)
		}
		before, err := l.simulate(context.Background(), rows, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		// The first change lands at the run's first tick; a change after
		// it at once, and a fault at the start, leave nothing before.
		first := change(map[string]any{"dependency.capacity": int64(70)})
		for _, st := range append([]intervention{first}, all...) {
			st.Row = at
			if st.Fault != nil {
				f := *st.Fault
				f.Start = l.at(at)
				st.Fault = &f
			}
			steps := []intervention{st}
			if _, err := l.parse(rows, steps); err != nil {
				// Some changes do not apply to every engine (a queue
				// engine keeps its timeout); they are refused, not run.
				t.Logf("%s: %s: refused: %v", name, st.Label, err)
				continue
			}
			after, err := l.simulate(context.Background(), rows, steps, 0)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, st.Label, err)
			}
			if !slices.Equal(before[:at], after[:at]) {
				t.Errorf("%s: %s at %ds changes the rows before it", name, st.Label, at)
			}
			// Simulating further does not change them either.
			longer, err := l.simulate(context.Background(), 2*rows, steps, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(after, longer[:rows]) {
				t.Errorf("%s: %s: a longer run differs in its first %d rows", name, st.Label, rows)
			}
		}
	}
}
