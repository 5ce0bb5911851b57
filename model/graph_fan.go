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
	s := *f
	for i := range s {
		if s[i].key == key {
			s[i].n += n
			return
		}
	}
	*f = append(s, fanState{key, n})
}

// answer takes k answers to call j (of m, need of which must succeed),
// successes (ok) or failures, for instances drawn among those with call j
// out, and reports how many instances they decide: succeeded, failed; and
// wasted, the successes that reach an instance already decided. An
// instance succeeds once need of its calls have succeeded and fails once
// too many have failed for need to be reached; a decided instance whose
// calls have all answered is forgotten.
func (f *fan) answer(r source, j int, k int64, ok bool, m int, need int32) (succeeded, failed, wasted int64) {
	a := fanAnswer{bit: fanKey(1) << (uint(j) & 15), ok: ok, m: int32(m), need: need}
	total, first, several := f.waiting(a.bit)
	if k > total {
		panic("stochastic engine: more answers to a parallel call than instances waiting for it")
	}
	if k == 0 {
		return 0, 0, 0
	}
	var by [4]int64 // instances by the verdict of their answer
	if several {
		f.split(r, k, total, a, &by)
	} else {
		// Every instance waiting for call j is in one state: no split.
		by[f.move(first, k, a)] += k
		if (*f)[first].n == 0 {
			f.compact()
		}
	}
	return by[decidedOK], by[decidedFailed], by[wastedOK]
}

// waiting counts the instances with the call of bit out, total, and
// reports the first state they are in and whether another has some too.
// Not inlined: the loop alone keeps its values in registers.
//
//go:noinline
func (f fan) waiting(bit fanKey) (total int64, first int, several bool) {
	first = -1
	for i := range f {
		if f[i].key&bit != 0 {
			if first >= 0 {
				return total + f[i:].count(bit), first, true
			}
			total, first = f[i].n, i
		}
	}
	return total, first, false
}

// count is the instances with the call of bit out.
func (f fan) count(bit fanKey) (n int64) {
	for i := range f {
		if f[i].key&bit != 0 {
			n += f[i].n
		}
	}
	return n
}

// split draws which of the instances waiting for a.bit, total of them,
// the k answers reach, by a multivariate hypergeometric split over the
// states in their order, and moves them, counting them by verdict in by:
// of the instances waiting, the k answered or, when fewer, the total − k
// left waiting (either choice is uniform, so the split is the same in
// distribution, and a hypergeometric draw costs less the fewer it draws).
// A state's answered instances move as they are drawn: to a state
// without a.bit out, so never to one still to be drawn from, and a state
// they create goes after those.
func (f *fan) split(r source, k, total int64, a fanAnswer, by *[4]int64) {
	flip := total-k < k
	left := k
	if flip {
		left = total - k
	}
	for i, states := 0, len(*f); i < states && total > 0; i++ {
		st := (*f)[i]
		if st.key&a.bit == 0 {
			continue
		}
		n := st.n
		x := left
		if total > n {
			x = hypergeometric(r, total, n, left)
		}
		total -= n
		left -= x
		if flip {
			x = n - x // answered: the ones not left waiting
		}
		if x > 0 {
			by[f.move(i, x, a)] += x
		}
	}
	f.compact()
}

// fanAnswer is an answer to one of a fan's calls: the call's bit, whether
// it succeeded, and how many calls the instances made (m) and need.
type fanAnswer struct {
	bit     fanKey
	ok      bool
	m, need int32
}

// A fanVerdict is what an answer does to the instance it reaches.
type fanVerdict uint8

const (
	decidedOK     fanVerdict = iota // it succeeds
	decidedFailed                   // it fails
	wastedOK                        // a success for an instance already decided
	undecided                       // nothing yet
)

// move moves x instances of state i, answered by a, to the state the
// answer puts them in (forgetting them when decided with no call out),
// and returns its verdict; a state it empties stays until compact.
func (f *fan) move(i int, x int64, a fanAnswer) fanVerdict {
	st := &(*f)[i]
	st.n -= x
	key := st.key &^ a.bit
	v := undecided
	switch {
	case key&fanDecided != 0:
		if a.ok {
			v = wastedOK
		}
	case a.ok:
		key += 1 << fanOKShift
		if key.ok() >= a.need {
			key, v = key|fanDecided, decidedOK
		}
	default:
		answered := a.m - int32(bits.OnesCount32(uint32(key.out())))
		if answered-key.ok() > a.m-a.need {
			key, v = key|fanDecided, decidedFailed
		}
	}
	if key.out() != 0 || key&fanDecided == 0 {
		f.put(key, x)
	}
	return v
}

// compact drops the states no instance is in.
func (f *fan) compact() {
	s := *f
	k := 0
	for i := range s {
		if s[i].n > 0 {
			s[k] = s[i]
			k++
		}
	}
	*f = s[:k]
}
