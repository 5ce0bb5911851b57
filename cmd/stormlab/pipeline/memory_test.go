package pipeline

import (
	"runtime/debug"
	"testing"

	"github.com/stormlab/stormlab/model"
)

// -max-memory bounds the process: while a run lasts, the Go runtime's
// memory limit is the flag's value above the memory the process held when
// the run began, and afterwards the limit is what it was. The cells that
// run at once share the cap, a third of each share being state.
func TestMaxMemorySetsTheLimit(t *testing.T) {
	const total = 300 << 20
	old := debug.SetMemoryLimit(-1)
	base := baseline()
	restore := limitMemory(total)
	got := debug.SetMemoryLimit(-1)
	restore()
	if got < total+base/2 || got > total+2*base+(16<<20) {
		t.Errorf("limit %s under -max-memory %s with a baseline of %s", model.Bytes(got), model.Bytes(total), model.Bytes(base))
	}
	if now := debug.SetMemoryLimit(-1); now != old {
		t.Errorf("the limit is %d after the run, want %d as before", now, old)
	}
	b := Budget{Total: 600 << 20, Workers: 4}
	for cells, want := range map[int]int64{1: 200 << 20, 2: 100 << 20, 4: 50 << 20, 100: 50 << 20} {
		if got := b.Pool(cells).MaxMemory; got != want {
			t.Errorf("%d cells: %s of state each, want %s", cells, model.Bytes(got), model.Bytes(want))
		}
	}
	if got := (Budget{Workers: 2}).Pool(5).MaxMemory; got != 0 {
		t.Errorf("no cap: %d", got)
	}
}
