package pipeline

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// MemoryFlag is -max-memory: the memory the process may take beyond its
// baseline (what it holds before the first cell starts: the runtime, the
// loaded experiments), written as model.Bytes writes sizes ("500MB",
// "1.5GB"; 1 MB = 2^20 bytes), or 0 for no cap. Unset, it is half the
// machine's memory.
type MemoryFlag struct {
	bytes int64
	text  string // as given
	set   bool
}

func (m *MemoryFlag) String() string {
	if m == nil {
		return ""
	}
	return m.text
}

func (m *MemoryFlag) Set(s string) error {
	n, err := parseBytes(s)
	if err != nil {
		return err
	}
	m.bytes, m.text, m.set = n, s, true
	return nil
}

// Total is the cap in bytes: the flag's value, or by default half the
// machine's memory; 0 means none.
func (m *MemoryFlag) Total() int64 {
	if m.set {
		return m.bytes
	}
	return DefaultMemory()
}

// MemoryUsage is the -max-memory flag's help.
const MemoryUsage = "bound the memory the process takes beyond its baseline at `SIZE` (e.g. 500MB; 0 = no cap), shared among the cells running at once; default half the machine's memory"

// heapPerState is the heap a cell takes per byte of the state its engine
// counts against the cap (groups, scheduled events, queued calls, cohorts,
// series rows: model's guard): lists that grew by doubling, and buffers the
// calendar keeps for reuse, hold room beyond what is counted. Collecting
// at every 5% of growth (GOGC=5), the heap held 1.25 to 1.4 times the
// count when the cap was reached, on the 3 × 10 storm with and without
// jitter and on a FIFO chain of three attempts; 1.5 leaves a margin.
const heapPerState = 1.5

// collectorRoom is the room the collector needs above the live heap, as a
// share of it. Go collects when the heap has grown by GOGC percent of what
// was live after the last collection; stormlab sets GOGC=400 for its many
// small heaps (main), and the memory limit (limitMemory) makes the runtime
// collect sooner, before the heap passes the cap. The room left under the
// limit is what the collector then works in: cells that hold at most half
// the cap leave it as much room as they hold, Go's default (GOGC=100), so
// it never collects more often than a Go program usually does.
const collectorRoom = 1.0

// stateShare is the state each of n cells running at once may hold under a
// cap of total bytes: an equal share of the cap, less the heap's room
// beyond the count and the collector's room. 0 means no cap.
func stateShare(total int64, n int) int64 {
	if total <= 0 {
		return 0
	}
	return max(1, int64(float64(total)/float64(max(1, n))/(heapPerState*(1+collectorRoom))))
}

// limitMemory sets the Go runtime's soft memory limit to total bytes above
// what the process holds now, its baseline, and returns a function that
// puts back the limit it replaced. total 0 sets none.
func limitMemory(total int64) (restore func()) {
	if total <= 0 {
		return func() {}
	}
	base := baseline()
	old := debug.SetMemoryLimit(min(math.MaxInt64-base, total) + base)
	return func() { debug.SetMemoryLimit(old) }
}

// baseline is the memory the Go runtime holds now, as its memory limit
// counts it: everything it has mapped, less the heap it has given back.
func baseline() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}

// Budget is the worker pool and -max-memory as a run spends them: Total
// bytes (0: no cap) shared among the cells that run at once, at most
// Workers of them. Cell, when set, caps each cell at that many bytes of
// state instead of a share of Total (stormlab serve caps every
// simulation alike).
type Budget struct {
	Total   int64
	Workers int
	Cell    int64
}

// running is how many of a sweep's cells run at once.
func (b Budget) running(cells int) int { return max(1, min(b.Workers, cells)) }

// Pool is the worker pool's options for a sweep of cells cells: the
// workers, and the state each cell may hold.
func (b Budget) Pool(cells int) sweep.Options {
	if b.Cell > 0 {
		return sweep.Options{Workers: b.Workers, MaxMemory: b.Cell}
	}
	return sweep.Options{Workers: b.Workers, MaxMemory: stateShare(b.Total, b.running(cells))}
}

// Text says how Total was shared in a sweep of cells cells, for a run in
// which cells reached their share.
func (b Budget) Text(cells int) string {
	n := b.running(cells)
	who := "the one cell running"
	if n > 1 {
		who = fmt.Sprintf("each of the %d cells running at once", n)
	}
	return fmt.Sprintf("-max-memory %s: %s may hold %s of simulation state as the engines count it, its share over %g (the heap holds up to %g times that count, and the collector needs room for %g%% more)",
		model.Bytes(b.Total), who, model.Bytes(stateShare(b.Total, n)), heapPerState*(1+collectorRoom), heapPerState, 100*collectorRoom)
}

// parseBytes reads a size: a number and a unit (B, KB, MB, GB, TB, each
// 1024 times the one before, as model.Bytes writes them; KiB, MiB... and K,
// M, G alike), or a bare number of bytes.
func parseBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		scale  float64
	}{
		{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"TIB", 1 << 40},
		{"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"TB", 1 << 40},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40},
		{"B", 1},
	}
	t := strings.ToUpper(strings.TrimSpace(s))
	scale := 1.0
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, scale = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.scale
			break
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || x < 0 || math.IsInf(x, 0) || x*scale > math.MaxInt64/2 {
		return 0, fmt.Errorf("want a size such as 500MB or 2GB (0 = no cap), got %q", s)
	}
	return int64(x * scale), nil
}

// assumedMemory is the machine's memory where /proc/meminfo does not say.
const assumedMemory = 8 << 30

// DefaultMemory is the share of the machine's memory a run may take
// without -max-memory: half of MemTotal in /proc/meminfo (of 8 GB where
// there is none).
func DefaultMemory() int64 {
	total := int64(assumedMemory)
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		if kb, ok := memTotal(data); ok {
			total = kb << 10
		}
	}
	return total / 2
}

// memTotal reads MemTotal, in kB, from the text of /proc/meminfo.
func memTotal(meminfo []byte) (int64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(meminfo))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			return kb, err == nil && kb > 0
		}
	}
	return 0, false
}
