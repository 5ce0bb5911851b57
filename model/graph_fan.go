package model

import "math/bits"

// fan is the state of a batch of a group's instances whose service made
// parallel calls for them together: how many instances are in each
// state, a state being which of the calls are still out, how many of the
// answered ones succeeded, and whether the instance is decided. The
// batch's instances are exchangeable, so when answers to one call come
// back for k of them, which k is drawn by a multivariate hypergeometric
// split over the states in which that call is out: exact in
// distribution, at the cost of a few states per batch (see "Service
// graphs" in doc.go; a batch's fan is its group's or a hop's, callOut).
type fan []fanState

// fanState is a count of instances in one state.
type fanState struct {
	key fanKey
	n   int64
}

// fanKey packs a state: bits 0–15 the calls still out (at most 16),
// bits 16–20 the answers that succeeded, bit 21 decided.
type fanKey uint32

const (
	fanOutMask fanKey = 1<<16 - 1
	fanOKShift        = 16
	fanDecided fanKey = 1 << 21
)

func (k fanKey) out() fanKey { return k & fanOutMask }
func (k fanKey) ok() int32   { return int32(k>>fanOKShift) & 31 }

// add counts n instances that have just made their m calls.
func (f *fan) add(m int, n int64) {
	f.put(fanKey(1)<<m-1, n)
}

// put adds n instances in state key.
func (f *fan) put(key fanKey, n int64) {
	for i := range *f {
		if (*f)[i].key == key {
			(*f)[i].n += n
			return
		}
	}
	*f = append(*f, fanState{key, n})
}

// answer takes k answers to call j (of m, need of which must succeed),
// successes (ok) or failures, for instances drawn among those with call j
// out, and reports how many instances they decide: succeeded, failed; and
// wasted, the successes that reach an instance already decided. An
// instance succeeds once need of its calls have succeeded and fails once
// too many have failed for need to be reached; a decided instance whose
// calls have all answered is forgotten.
func (f *fan) answer(r source, j int, k int64, ok bool, m int, need int32) (succeeded, failed, wasted int64) {
	bit := fanKey(1) << j
	var total int64
	for _, st := range *f {
		if st.key&bit != 0 {
			total += st.n
		}
	}
	if k > total {
		panic("stochastic engine: more answers to a parallel call than instances waiting for it")
	}
	// The split, drawn over the states in their order, then applied: of
	// the instances waiting for call j, the k answered or, when fewer, the
	// total − k left waiting (either choice is uniform, so the split is the
	// same in distribution, and a hypergeometric draw costs less the fewer
	// it draws).
	var buf [8]fanState
	moves := buf[:0]
	flip := total-k < k
	left := k
	if flip {
		left = total - k
	}
	for i := range *f {
		st := &(*f)[i]
		if st.key&bit == 0 {
			continue
		}
		x := left
		if total > st.n {
			x = hypergeometric(r, total, st.n, left)
		}
		total -= st.n
		left -= x
		if flip {
			x = st.n - x // answered: the ones not left waiting
		}
		if x == 0 {
			continue
		}
		st.n -= x
		moves = append(moves, fanState{st.key, x})
	}
	for _, mv := range moves {
		key := mv.key &^ bit
		switch {
		case key&fanDecided != 0:
			if ok {
				wasted += mv.n
			}
		case ok:
			key += 1 << fanOKShift
			if key.ok() >= need {
				key |= fanDecided
				succeeded += mv.n
			}
		default:
			answered := int32(m - bits.OnesCount32(uint32(key.out())))
			if answered-key.ok() > int32(m)-need {
				key |= fanDecided
				failed += mv.n
			}
		}
		if key.out() != 0 || key&fanDecided == 0 {
			f.put(key, mv.n)
		}
	}
	f.compact()
	return succeeded, failed, wasted
}

// compact drops the states no instance is in.
func (f *fan) compact() {
	out := (*f)[:0]
	for _, st := range *f {
		if st.n > 0 {
			out = append(out, st)
		}
	}
	*f = out
}
