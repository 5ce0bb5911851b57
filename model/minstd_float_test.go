package model

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
)

// TestMinstdFloat checks minstdFloat against the division for every state
// (with -short, for every state below 2^23 and a sample above).
func TestMinstdFloat(t *testing.T) {
	long(t)
	t.Parallel()
	step := uint64(1)
	if testing.Short() {
		step = 997
		for s := uint64(1); s < 1<<23; s++ {
			if got, want := minstdFloat(s), float64(s)/minstdM; got != want {
				t.Fatalf("state %d: %v, want %v", s, got, want)
			}
		}
	}
	parts := uint64(runtime.GOMAXPROCS(0))
	bad := make([]uint64, parts)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			for s := 1 + p*step; s < minstdM; s += parts * step {
				if minstdFloat(s) != float64(s)/minstdM {
					bad[p] = s
					return
				}
			}
		})
	}
	wg.Wait()
	for _, s := range bad {
		if s != 0 {
			t.Fatalf("state %d: %v, want %v", s, minstdFloat(s), float64(s)/minstdM)
		}
	}
}

// TestMulmod checks the division-free product mod 2^31 − 1 against the
// remainder, at the edges and on random states.
func TestMulmod(t *testing.T) {
	edge := []uint64{1, 2, minstdA, minstdA4, 1 << 30, 1<<31 - 3, minstdM - 1}
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 1_000_000 {
		s, a := 1+r.Uint64N(minstdM-1), 1+r.Uint64N(minstdM-1)
		if i < len(edge)*len(edge) {
			s, a = edge[i/len(edge)], edge[i%len(edge)]
		}
		if got, want := mulmod(s, a), s*a%minstdM; got != want {
			t.Fatalf("%d × %d: %d, want %d", s, a, got, want)
		}
	}
}

// TestMinstdRelease: handing the buffer back between draws changes nothing
// in the sequence, nor does running out of worked-out draws part way.
func TestMinstdRelease(t *testing.T) {
	a, b := NewMinstd(20260802), NewMinstd(20260802)
	for i := range 5000 {
		if i%7 == 3 || i%minstdCap == 0 {
			b.release()
		}
		if x, y := a.Float64(), b.Float64(); x != y {
			t.Fatalf("draw %d: %v after releases, %v without", i, y, x)
		}
	}
	a.release()
	a.release()
}
