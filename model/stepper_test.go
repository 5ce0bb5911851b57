package model

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// seriesOf runs sc's first replicate as RunPlan does, recording its series.
func seriesOf(t *testing.T, sc Scenario, seed uint64) (*Plan, []SeriesRow) {
	t.Helper()
	p, err := sc.Resolve()
	if err != nil {
		t.Fatalf("%v\n%+v", err, sc)
	}
	p.Replicates = 1
	res, err := RunPlan(context.Background(), p, seed, Options{Series: true})
	if err != nil {
		t.Fatal(err)
	}
	return p, res.Series.Rows
}

// randomRun is a random scenario of either engine, its faults and its
// length as the generators make them.
func randomRun(r *rand.Rand) Scenario {
	if r.IntN(3) == 0 {
		return randomQueueScenario(r)
	}
	return randomScenario(r)
}

// TestStepperIsTheRun: a run advanced a few rows at a time, in stretches
// of any length, records the rows RunPlan records in one go, on both
// engines, with faults and changes known from the start.
func TestStepperIsTheRun(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(21, 1))
	for i := range 120 {
		sc := randomRun(r)
		if r.IntN(3) == 0 {
			sc = withChange(r, sc)
		}
		seed := r.Uint64()
		p, want := seriesOf(t, sc, seed)
		st := NewStepper(p, seed, 0)
		var got []SeriesRow
		for st.Rows() < st.MaxRows() {
			rows, err := st.Advance(context.Background(), []int{1, 1, 2, 3, 7, 20}[r.IntN(6)])
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, rows...)
		}
		st.Close()
		if !slices.Equal(got, want[:len(got)]) {
			t.Fatalf("scenario %d (%s engine, tick %v): the rows advanced a few at a time differ from the run's\n%+v", i, sc.Engine, sc.Tick, sc)
		}
	}
}

// intervention is one thing done to a live run at a row: an unforeseen
// fault, or a change (edit) of its scenario.
type liveStep struct {
	row   int
	fault *Fault
	edit  func(s *Scenario)
}

// liveScenario is base with the interventions done so far: their faults,
// unforeseen, and a change at each edit whose scenario is the one before
// it edited, as the loader builds a file's changes.
func liveScenario(base Scenario, step time.Duration, steps []liveStep) Scenario {
	sc := base
	sc.Fault, sc.Change = nil, nil
	for _, s := range steps {
		if s.fault != nil {
			f := *s.fault
			f.Start = Duration(time.Duration(s.row) * step)
			f.Unforeseen = true
			sc.Fault = append(sc.Fault, f)
		}
	}
	cur := sc
	for _, s := range steps {
		if s.edit == nil {
			continue
		}
		next := cur
		next.Layer = slices.Clone(cur.Layer)
		next.Change = nil
		s.edit(&next)
		at := Duration(time.Duration(s.row) * step)
		if n := len(sc.Change); n > 0 && sc.Change[n-1].At == at {
			sc.Change[n-1].Then = &next
		} else {
			sc.Change = append(sc.Change, Change{At: at, Set: map[string]any{"(edit)": true}, Then: &next})
		}
		cur = next
	}
	return sc
}

// TestStepperReplan: faults and changes made to a running run, at the row
// it has reached, continue it as the file that holds them runs from the
// start: a live run's rows are its export's, on both engines.
func TestStepperReplan(t *testing.T) {
	long(t)
	t.Parallel()
	r := rand.New(rand.NewPCG(21, 2))
	kinds := []string{"outage", "degradation", "slowdown", "spike"}
	for i := range 120 {
		base := randomRun(r)
		base.Fault, base.Change = nil, nil
		whole := r.IntN(2) == 0 // whole capacities: the stochastic engine jumps over empty ticks
		if whole {
			d := &base.Dependency
			d.Capacity = math.Round(d.Capacity)
			if base.Engine == "stochastic" && d.LatencySlope == 0 {
				d.Queue, d.QueueLimit, d.Collapse = "none", 0, Collapse{}
			}
		}
		seed := r.Uint64()
		p0, _ := seriesOf(t, base, seed)
		step := time.Duration(p0.seriesBinTicks() * p0.TickNs)
		rows := int(p0.Ticks / p0.seriesBinTicks())
		var steps []liveStep
		for row := 1 + r.IntN(5); row < rows; row += 1 + r.IntN(rows/3+1) {
			for range 1 + r.IntN(2) { // sometimes two at the same row
				st := liveStep{row: row}
				if r.IntN(2) == 0 {
					f := DefaultFault()
					f.Kind = kinds[r.IntN(4)]
					if f.Kind == "spike" && base.Arrivals == "closed" || f.Kind == "degradation" && base.Dependency.LatencySlope > 0 {
						f.Kind = "outage"
					}
					f.Length = Duration(time.Duration(1+r.IntN(rows/4+1)) * step)
					f.Capacity = base.Dependency.Capacity * r.Float64()
					if whole {
						f.Capacity = math.Round(f.Capacity)
					}
					f.Factor = 1 + 4*r.Float64()
					st.fault = &f
				} else {
					edit := withChange(r, base).Change[0].Then
					keep := *edit
					st.edit = func(s *Scenario) {
						s.Layer, s.Budget, s.Dependency.Capacity, s.Load = slices.Clone(keep.Layer), keep.Budget, keep.Dependency.Capacity, keep.Load
						if whole {
							s.Dependency.Capacity = math.Round(s.Dependency.Capacity)
						}
					}
				}
				steps = append(steps, st)
			}
		}
		final := liveScenario(base, step, steps)
		_, want := seriesOf(t, final, seed)

		p, _ := seriesOf(t, liveScenario(base, step, nil), seed)
		stp := NewStepper(p, seed, 0)
		var got []SeriesRow
		for k := 0; k <= len(steps); k++ {
			to := rows
			if k < len(steps) {
				to = steps[k].row
			}
			out, err := stp.Advance(context.Background(), to-stp.Rows())
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, out...)
			if k < len(steps) {
				sc := liveScenario(base, step, steps[:k+1])
				np, err := sc.Resolve()
				if err != nil {
					t.Fatalf("scenario %d: %v", i, err)
				}
				if err := stp.Replan(np); err != nil {
					t.Fatalf("scenario %d: %v", i, err)
				}
			}
		}
		if len(got) != len(want) {
			t.Fatalf("scenario %d: %d rows live, %d in the file", i, len(got), len(want))
		}
		for j := range got {
			if got[j] != want[j] {
				t.Fatalf("scenario %d (%s engine, tick %v, %d interventions): row %d differs: live %+v, the file %+v",
					i, base.Engine, base.Tick, len(steps), j, got[j], want[j])
			}
		}
	}
}

// TestUnforeseenFaults: a fault the run does not foresee leaves what the
// run records before it as it was, and its measures over the fault window
// are a foreseen fault's; without unforeseen faults, nothing changes.
func TestUnforeseenFaults(t *testing.T) {
	sc := server60("immediate", 3*time.Second)
	p, foreseen := seriesOf(t, sc, 7)
	sc.Fault[0].Unforeseen = true
	q, unforeseen := seriesOf(t, sc, 7)
	from := int(q.Fault.From / q.seriesBinTicks())
	if !slices.Equal(foreseen[:from], unforeseen[:from]) {
		t.Error("an unforeseen fault changes the rows before it")
	}
	if q.Fault != p.Fault || !slices.Equal(q.FaultList, p.FaultList) {
		t.Errorf("fault window %+v, want %+v", q.Fault, p.Fault)
	}
	if len(q.Faults) != 1 || len(q.switches) != 1 || len(q.switches[0].Plan.Faults) != len(p.Faults) || len(q.Changes) != 0 {
		t.Errorf("%d segments before the fault (want 1), %d switches (want 1) to %d segments (want %d), %d changes (want 0)",
			len(q.Faults), len(q.switches), len(q.switches[0].Plan.Faults), len(p.Faults), len(q.Changes))
	}
	if p.switches != nil {
		t.Error("a run without unforeseen faults has switches of its own")
	}
}
