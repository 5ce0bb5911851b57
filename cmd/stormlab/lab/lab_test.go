package lab

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stormlab/stormlab/experiments"
)

// load loads an experiment of the library.
func load(t *testing.T, name string, sets ...string) *experiments.Experiment {
	t.Helper()
	e, err := experiments.Load(filepath.Join("..", "..", "..", "experiments", name+".toml"), sets)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// runLab runs an experiment's lab cells; a run the machine could not keep
// up with skips the test, saying why.
func runLab(t *testing.T, e *experiments.Experiment, speed float64) *Outcome {
	t.Helper()
	o, err := Experiment(context.Background(), e, Settings{Speed: speed}, testLog{t})
	var de *DistortedError
	if errors.As(err, &de) {
		t.Skipf("the machine could not keep up, so the lab reports nothing: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return o
}

type testLog struct{ t *testing.T }

func (l testLog) Write(b []byte) (int, error) { l.t.Log(string(b)); return len(b), nil }

// cellOf finds the lab cell with the given label.
func cellOf(t *testing.T, o *Outcome, label string) *Cell {
	t.Helper()
	for i := range o.Cells {
		if o.Cells[i].Cell.Label() == label {
			return &o.Cells[i]
		}
	}
	t.Fatalf("no lab cell %q", label)
	return nil
}

// disagreements fails the test for every column that does not agree.
func disagreements(t *testing.T, o *Outcome) {
	t.Helper()
	for _, c := range o.Cells {
		for _, cmp := range c.Comparisons {
			if !cmp.Agrees {
				t.Errorf("%s: %s: model %v, lab %v (tolerance abs %v, rel %v)", c.Cell.Label(), cmp.Column.Name, cmp.Model, cmp.Lab, cmp.Column.Abs, cmp.Column.Rel)
			}
		}
	}
}

// The one-hop rows of "Retries can make an outage worse: designing a retry
// budget" on real gRPC: 50, 150 and 60 calls from fifty callers at an
// origin that is down, and the model's counts exactly in every row the lab
// runs, gRPC's own retry throttling included.
func TestOneHopOnGRPC(t *testing.T) {
	o := runLab(t, load(t, "one-hop"), 0)
	disagreements(t, o)
	for label, calls := range map[string]float64{
		"origin=always 503, configuration=no retries":             50,
		"origin=always 503, configuration=3 attempts, no budget":  150,
		"origin=always 503, configuration=3 attempts, 10% budget": 60,
	} {
		if c := cellOf(t, o, label); c.Lab.Calls != calls {
			t.Errorf("%s: %v calls on real gRPC, want %v", label, c.Lab.Calls, calls)
		}
	}
}

// gRPC's retry throttling, run by grpc-go's own retries, refuses the same
// retries as the model's grpc budget.
func TestGRPCThrottleRefusesAsModel(t *testing.T) {
	o := runLab(t, load(t, "one-hop"), 0)
	for _, label := range []string{
		"origin=always 503, configuration=3 attempts, gRPC retry throttling",
		"origin=every caller fails twice, configuration=3 attempts, gRPC retry throttling",
	} {
		c := cellOf(t, o, label)
		if c.Lab.RefusedBudget == 0 || c.Lab.RefusedBudget != c.Model.RefusedBudget || c.Lab.Calls != c.Model.Calls {
			t.Errorf("%s: gRPC refused %v retries in %v calls, the model's grpc budget %v in %v", c.Cell.Label(), c.Lab.RefusedBudget, c.Lab.Calls, c.Model.RefusedBudget, c.Model.Calls)
		}
		if len(c.Notes) == 0 {
			t.Errorf("%s: no note says gRPC ran the retries", c.Cell.Label())
		}
	}
}

// The lab's chain: 810 calls from ten requests through four layers of three
// attempts, 30 with a breaker per call at every hop, 20 with a budget too,
// exactly, on real gRPC services with failsafe-go's policies.
func TestChainOnGRPC(t *testing.T) {
	o := runLab(t, load(t, "chain-breaker"), 0)
	disagreements(t, o)
	for label, calls := range map[string]float64{
		"configuration=no budget, no breaker":                  810,
		"configuration=breaker per call at every hop":          30,
		"configuration=budget + breaker per call at every hop": 20,
	} {
		if c := cellOf(t, o, label); c.Lab.Calls != calls {
			t.Errorf("%s: %v calls on real gRPC, want %v", label, c.Lab.Calls, calls)
		}
	}
}

// The FIG. 1 server at ten times its speed: a 1 s blip recovers, a 3 s
// blip is stuck with immediate retries, the token-bucket budget recovers,
// and switching to it while stuck recovers, on real gRPC as in the model,
// with the goodput after each within its stated tolerance.
func TestFig1OnGRPC(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the FIG. 1 server for over a minute of real time; -short skips it")
	}
	for _, name := range []string{"server-60", "switch-to-budget"} {
		t.Run(name, func(t *testing.T) {
			o := runLab(t, load(t, name), 0)
			disagreements(t, o)
		})
	}
}
