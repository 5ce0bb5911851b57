package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// recorder is a sink that records what the pipeline gives it.
type recorder struct {
	calls   []string
	skip    string // the experiment Plan skips
	planErr error
	putErr  error
	puts    []*Outcome
}

func (r *recorder) Plan(jobs []*Job) error {
	r.calls = append(r.calls, fmt.Sprintf("plan %d", len(jobs)))
	for _, j := range jobs {
		if j.Exp.Name == r.skip {
			j.Skip = j.Exp.Name + ": skipped"
		}
	}
	return r.planErr
}

func (r *recorder) Put(o *Outcome) (string, error) {
	r.calls = append(r.calls, "put "+o.Job.Exp.Name)
	r.puts = append(r.puts, o)
	return "line " + o.Job.Exp.Name, r.putErr
}

func (r *recorder) Close(interrupted bool) error {
	r.calls = append(r.calls, fmt.Sprintf("close %v", interrupted))
	return nil
}

// counting is a meter that counts the stages started, the units done and
// the stages stopped, by name.
type counting struct {
	started []string
	done    atomic.Int64
	stopped atomic.Int64
}

func (c *counting) meter(name string, total int) (func(), func()) {
	c.started = append(c.started, fmt.Sprintf("%s/%d", name, total))
	return func() { c.done.Add(1) }, func() { c.stopped.Add(1) }
}

// newPipeline is a pipeline of two workers with a counting meter, writing
// into buffers.
func newPipeline(budget Budget) (*Pipeline, *counting, *bytes.Buffer, *bytes.Buffer) {
	var stdout, stderr bytes.Buffer
	m := &counting{}
	p := &Pipeline{Stages: Stages{Budget: budget, Meter: m.meter}, Stdout: &stdout, Stderr: &stderr}
	return p, m, &stdout, &stderr
}

// The stages run in order for each job: the plan first, a skipped job
// said in its place, each cell simulated and counted on the meter (at half
// the tick too, with -refine), then the sink's Put, its line on stdout,
// and Close after the last; the warnings go to stderr.
func TestRunTakesEachJobThroughTheStages(t *testing.T) {
	p, m, stdout, stderr := newPipeline(Budget{Workers: 2})
	jobs := mustJobs(t, load(t, "a", "b", "c"), true)
	sink := &recorder{skip: "b"}
	if err := p.Run(context.Background(), jobs, sink); err != nil {
		t.Fatal(err)
	}
	if want := []string{"plan 3", "put a", "put c", "close false"}; !slices.Equal(sink.calls, want) {
		t.Errorf("sink calls %v, want %v", sink.calls, want)
	}
	if want := "line a\nb: skipped\nline c\n"; stdout.String() != want {
		t.Errorf("stdout %q, want %q", stdout.String(), want)
	}
	if want := []string{"a/2", "a at half the tick/2", "c/2", "c at half the tick/2"}; !slices.Equal(m.started, want) {
		t.Errorf("meters %v, want %v", m.started, want)
	}
	if m.done.Load() != 8 || m.stopped.Load() != 4 {
		t.Errorf("%d cells done, %d stages stopped; want 8 and 4", m.done.Load(), m.stopped.Load())
	}
	o := sink.puts[0]
	if len(o.Results) != 2 || len(o.Half) != 2 || o.Tipping != nil || o.Start.IsZero() {
		t.Errorf("outcome: %d results, %d at half, tipping %v", len(o.Results), len(o.Half), o.Tipping)
	}
	if !o.Results[0].Recovered() {
		t.Errorf("load 50 does not recover: %+v", o.Results[0])
	}
	if got := strings.Count(stderr.String(), "findings.0 does not hold"); got != 2 {
		t.Errorf("stderr says the claim fails %d times, want once for a and once for c:\n%s", got, stderr)
	}
}

// A job narrowed to a shard is not searched and its claims are not
// checked (they are about the whole grid); a quiet pipeline prints no
// warnings at all.
func TestRunWarnsOnWholeGridsUnlessQuiet(t *testing.T) {
	p, _, _, stderr := newPipeline(Budget{Workers: 1})
	jobs := mustJobs(t, load(t, "a"), false)
	jobs[0].Narrow(sweep.Shard{K: 0, N: 2})
	if err := p.Run(context.Background(), jobs, &recorder{}); err != nil {
		t.Fatal(err)
	}
	if stderr.Len() != 0 {
		t.Errorf("a shard warned: %s", stderr)
	}
	p, _, _, stderr = newPipeline(Budget{Workers: 1})
	p.Quiet = true
	if err := p.Run(context.Background(), mustJobs(t, load(t, "a"), false), &recorder{}); err != nil {
		t.Fatal(err)
	}
	if stderr.Len() != 0 {
		t.Errorf("a quiet pipeline warned: %s", stderr)
	}
}

// Cells stopped at the memory cap are said on stderr, with how the budget
// was shared, every outcome is still put, and Run ends with an
// *AbortedError counting them. A merge's cells were stopped by its
// shards: they count, but there is no note of this process's budget.
func TestRunCountsCellsStoppedAtTheCap(t *testing.T) {
	p, _, _, stderr := newPipeline(Budget{Total: 1, Workers: 1})
	sink := &recorder{}
	err := p.Run(context.Background(), mustJobs(t, load(t, "a", "b"), false), sink)
	var ae *AbortedError
	if !errors.As(err, &ae) || ae.Cells != 4 {
		t.Fatalf("err %v, want 4 cells aborted", err)
	}
	if len(sink.puts) != 2 || sink.calls[len(sink.calls)-1] != "close false" {
		t.Errorf("sink calls %v", sink.calls)
	}
	for _, want := range []string{"stormlab: a: cell load=50: aborted, ", "stormlab: b: -max-memory 1 B: the one cell running may hold 1 B"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	e := load(t, "m")[0]
	aborted := []model.Result{{Aborted: "stopped by its shard"}, {}}
	p, _, _, stderr = newPipeline(Budget{Workers: 1})
	err = p.Run(context.Background(), []*Job{MergedJob(e, &Merged{Results: aborted, Shards: 2})}, &recorder{})
	if !errors.As(err, &ae) || ae.Cells != 1 {
		t.Fatalf("merged: err %v, want 1 cell aborted", err)
	}
	if strings.Contains(stderr.String(), "-max-memory") || !strings.Contains(stderr.String(), "m: cell load=50: aborted, stopped by its shard") {
		t.Errorf("merged: stderr %s", stderr)
	}
}

// A merged job simulates nothing: its outcome is its shards' results.
func TestRunMergedSimulatesNothing(t *testing.T) {
	e := load(t, "m")[0]
	given := []model.Result{{Replicates: 3}, {Replicates: 4}}
	p, m, stdout, _ := newPipeline(Budget{Workers: 1})
	p.Quiet = true
	sink := &recorder{}
	if err := p.Run(context.Background(), []*Job{MergedJob(e, &Merged{Results: given, Shards: 2})}, sink); err != nil {
		t.Fatal(err)
	}
	if len(m.started) != 0 || &sink.puts[0].Results[0] != &given[0] || stdout.String() != "line m\n" {
		t.Errorf("meters %v, stdout %q", m.started, stdout)
	}
}

// A plan that fails stops the run before anything is simulated; a Put
// that fails ends it without closing the sink.
func TestRunStopsAtTheFirstError(t *testing.T) {
	p, m, stdout, _ := newPipeline(Budget{Workers: 1})
	refused := errors.New("refused")
	sink := &recorder{planErr: refused}
	if err := p.Run(context.Background(), mustJobs(t, load(t, "a"), false), sink); err != refused {
		t.Errorf("err %v", err)
	}
	if len(m.started) != 0 || !slices.Equal(sink.calls, []string{"plan 1"}) || stdout.Len() != 0 {
		t.Errorf("after a failed plan: meters %v, calls %v, stdout %q", m.started, sink.calls, stdout)
	}
	sink = &recorder{putErr: refused}
	if err := p.Run(context.Background(), mustJobs(t, load(t, "a", "b"), false), sink); err != refused {
		t.Errorf("err %v", err)
	}
	if !slices.Equal(sink.calls, []string{"plan 2", "put a"}) {
		t.Errorf("after a failed put: calls %v", sink.calls)
	}
}

// Ctrl-C stops the run with ctx's error, and the sink is closed with what
// was put before (run writes the index of the experiments that finished).
func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p, _, _, _ := newPipeline(Budget{Workers: 1})
	jobs := mustJobs(t, load(t, "a", "b"), false)
	p.Meter = func(name string, total int) (func(), func()) {
		if name == "b" {
			cancel()
		}
		return func() {}, func() {}
	}
	sink := &recorder{}
	if err := p.Run(ctx, jobs, sink); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
	if want := []string{"plan 2", "put a", "close true"}; !slices.Equal(sink.calls, want) {
		t.Errorf("sink calls %v, want %v", sink.calls, want)
	}
}
