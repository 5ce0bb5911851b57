package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// randomExperiment writes a scenario with random layers, attempts, backoff
// and jitter, loads and capacities up to (and past) the model's bounds, and
// random faults; some are bad input, most are not.
func randomExperiment(r *rand.Rand) string {
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	var b strings.Builder
	fmt.Fprintf(&b, "engine = %q\nseed = %d\n[scenario]\n", pick("queue", "stochastic", "stochastic"), r.IntN(1000))
	fmt.Fprintf(&b, "tick = %q\nduration = %q\n", pick("1ms", "10ms", "100ms", "1s"), pick("1s", "1m", "10m", "10m", "1h"))
	fmt.Fprintf(&b, "load = %s\narrivals = %q\nreplicates = %d\n", pick("1", "70", "480", "3000", "3000", "3000", "1e5", "1e9", "2e9"), pick("constant", "poisson"), 1+r.IntN(3))
	fmt.Fprintf(&b, "layers = %d\nlayer = [{ attempts = %d, timeout = %q, backoff = { kind = %q, base = %q, factor = 2, jitter = %q } }]\n",
		1+r.IntN(3), 1+r.IntN(10), pick("0s", "10ms", "250ms", "1s"), pick("none", "constant", "exponential"),
		pick("1ms", "10ms", "1s"), pick("none", "none", "full", "equal", "decorrelated"))
	fmt.Fprintf(&b, "dependency.capacity = %s\ndependency.queue = %q\n", pick("0", "60", "500", "3000", "3000", "1e5", "1e9", "1e19"), pick("fifo", "lifo", "none"))
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "budget = { kind = %q, ratio = 0.1, max_tokens = 10 }\n", pick("per_tick", "ratio", "token_bucket"))
	}
	b.WriteString("fault = [")
	for i := range r.IntN(3) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "{ kind = %q, start = %q, length = %q, capacity = %s, factor = %s }", pick("outage", "degradation", "slowdown", "spike"),
			pick("0s", "1s", "20s"), pick("0s", "500ms", "5s", "30s"), pick("0", "10", "1e9"), pick("1", "3", "3", "10", "1e6", "1e7"))
	}
	b.WriteString("]\n")
	return b.String()
}

// Random scenarios through the command under a small memory cap and a short
// deadline: no panic, the heap stays near the cap, the exit code is 0, 1
// or 2, and 2 only for input validate also refuses.
func TestRandomScenarios(t *testing.T) {
	const (
		capBytes = 8 << 20
		workers  = 2
		runs     = 40
	)
	tmp := t.TempDir()
	r := rand.New(rand.NewPCG(7, 11))
	heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	readHeap := func() uint64 { metrics.Read(heap); return heap[0].Value.Uint64() }
	for i := range runs {
		src := randomExperiment(r)
		file := filepath.Join(tmp, fmt.Sprintf("random-%d.toml", i))
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		vcode, _, _ := stormlab(t, "validate", file)

		base := readHeap()
		var peak atomic.Uint64
		stop := make(chan struct{})
		sampled := make(chan struct{})
		go func() {
			defer close(sampled)
			for {
				peak.Store(max(peak.Load(), readHeap()))
				select {
				case <-stop:
					return
				case <-time.After(2 * time.Millisecond):
				}
			}
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		var out, errb bytes.Buffer
		code := func() (code int) {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("panic: %v\n%s", p, src)
				}
			}()
			return exitCode(&errb, run(ctx, &out, &errb, []string{"run", "-figures=false", "-j", fmt.Sprint(workers),
				"-max-memory", fmt.Sprint(capBytes), "-out", filepath.Join(tmp, "out"), file}))
		}()
		cancel()
		close(stop)
		<-sampled
		t.Logf("exit %d: %s", code, strings.TrimSpace(errb.String()))

		switch {
		case code != 0 && code != 1 && code != 2:
			t.Errorf("exit %d\n%s%s", code, src, errb.String())
		case code == 2 && vcode != 2:
			t.Errorf("exit 2 for input validate accepts: %s\n%s", errb.String(), src)
		case vcode == 2 && code != 2:
			t.Errorf("exit %d for input validate refuses\n%s", code, src)
		}
		if grew := int64(peak.Load()) - int64(base); grew > 8*capBytes*workers+64<<20 {
			t.Errorf("the heap grew by %d MB under -max-memory %d MB\n%s", grew>>20, capBytes>>20, src)
		}
	}
}
