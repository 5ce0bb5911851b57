package model

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// jitterStorm is three layers of ten attempts with exponential backoff from
// 10 ms and full jitter, at load against an equal capacity, hit by a 30 s
// outage: a storm whose groups split into single requests.
func jitterStorm(load float64, tick Duration) Scenario {
	s := Default()
	s.Engine = "stochastic"
	s.Tick = tick
	s.Duration = Duration(10 * time.Minute)
	s.Load = load
	s.Arrivals = "poisson"
	l := DefaultLayer()
	l.Attempts = 10
	l.Backoff = Backoff{Kind: "exponential", Base: ms(10), Factor: 2, Jitter: "full"}
	s.Layer = []Layer{l}
	s.Layers = 3
	s.Dependency.Capacity = load
	s.Fault = []Fault{{Kind: "outage", Start: Duration(time.Minute), Length: Duration(30 * time.Second), Factor: 1}}
	return s
}

// TestCancelInsideACell: a cell that would run for minutes stops within a
// second of its context being cancelled, with the context's error.
func TestCancelInsideACell(t *testing.T) {
	sc := jitterStorm(3000, ms(1))
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	_, err = RunPlan(ctx, p, 1, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 1300*time.Millisecond {
		t.Errorf("stopped %v after the start, 300 ms after which it was cancelled", d)
	}
}

// TestMemoryCap: a cell whose state outgrows the cap stops, and its result
// says why, with no metrics; under a cap it never reaches, nothing changes.
func TestMemoryCap(t *testing.T) {
	sc := jitterStorm(3000, ms(1))
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	const cap = 16 << 20
	g := newGuard(context.Background(), cap)
	runStochastic(p, 1, false, g)
	if !strings.Contains(g.abort, "over the 16 MB of state a cell may hold") || g.peak > cap+cap/2 {
		t.Fatalf("abort %q at a peak of %s", g.abort, Bytes(g.peak))
	}
	r, err := RunPlan(context.Background(), p, 1, Options{MaxMemory: cap})
	if err != nil || r.Aborted == "" || r.Recovered() || r.Calls == r.Calls {
		t.Errorf("aborted cell: %v, %q, metrics %v", err, r.Aborted, r.Metrics)
	}
	small := blip(27)
	want, _ := Run(small, 1, false)
	ps, _ := small.Resolve()
	got, err := RunPlan(context.Background(), ps, 1, Options{MaxMemory: 1 << 20})
	if err != nil || got.Aborted != "" || fmt.Sprintf("%#v", got.Metrics) != fmt.Sprintf("%#v", want.Metrics) {
		t.Errorf("a cell within its cap: %v %q %v", err, got.Aborted, got.Metrics)
	}
}

// TestStateSizes: the memory estimate's sizes cover the engine's types.
func TestStateSizes(t *testing.T) {
	if g := int64(unsafe.Sizeof(group{})) + 8; groupBytes < g {
		t.Errorf("groupBytes = %d, but a group and its free-list slot take %d", groupBytes, g)
	}
	if x := int64(unsafe.Sizeof(groupExtra{})); extraBytes < x {
		t.Errorf("extraBytes = %d, but a group's extra part takes %d", extraBytes, x)
	}
	if e := int64(unsafe.Sizeof(event{})); eventBytes < e {
		t.Errorf("eventBytes = %d, but an event takes %d", eventBytes, e)
	}
	if e := int64(unsafe.Sizeof(qEntry{})); entryBytes < e {
		t.Errorf("entryBytes = %d, but a queue entry takes %d", entryBytes, e)
	}
}

// TestHotTypesFitCacheLines: a storm reads and writes millions of groups in
// no order and copies every event through the calendar, so a group stays
// one 64-byte cache line, starting one (past the first small blocks), and
// an event half of one (BenchmarkStorm10k and
// BenchmarkPolicies measure what a larger one costs).
func TestHotTypesFitCacheLines(t *testing.T) {
	if g := unsafe.Sizeof(group{}); g > 64 {
		t.Errorf("a group takes %d bytes, more than a 64-byte cache line: move what few runs need into groupExtra", g)
	}
	if e := unsafe.Sizeof(event{}); e > 32 {
		t.Errorf("an event takes %d bytes, more than 32", e)
	}
	// Past the first small blocks, every group starts a cache line.
	var gs groups
	for i := range 4096 {
		if g := gs.fresh(); i >= 1024 && uintptr(unsafe.Pointer(g))%64 != 0 {
			t.Fatalf("group %d (a block of %d) starts %d bytes into a cache line", i, gs.block, uintptr(unsafe.Pointer(g))%64)
		}
	}
}
