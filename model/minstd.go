package model

import (
	"math"
	"sync"
)

// MINSTD modulus and multiplier (Park and Miller's "minimal standard"
// generator with the multiplier 48271 of their 1993 revision).
const (
	minstdM = 2147483647 // 2^31 − 1
	minstdA = 48271
)

// Minstd is the Park-Miller generator: state ← state × 48271 mod (2^31 − 1),
// and each draw is the new state divided by 2^31 − 1. It is the generator of
// the "Retries and Storm Risk" article; scenario rng = "minstd" selects it so
// that article's tables can be reproduced digit for digit. Draws are worked
// out ahead, a block at a time, which changes nothing in the sequence.
type Minstd struct {
	i, n int                // b[i:n] are the draws worked out and not used yet
	next uint64             // the state of the draw after b[n−1]
	b    *[minstdCap]uint64 // the draws' float64 bits, from minstdBufs; nil before the first draw and after release
}

// minstdBufs keeps draw buffers for the generators of later runs.
var minstdBufs = sync.Pool{New: func() any { return new([minstdCap]uint64) }}

const (
	minstdBlock = 128             // draws worked out at a time
	minstdCap   = 4 * minstdBlock // draws held
)

// NewMinstd seeds a Minstd with seed mod (2^31 − 1). A seed that is a
// multiple of 2^31 − 1 would leave the generator stuck at zero; it is
// replaced by 1.
func NewMinstd(seed uint64) *Minstd {
	s := seed % minstdM
	if s == 0 {
		s = 1
	}
	return &Minstd{next: minstdStep(s)}
}

// minstdStep is one step of the recurrence.
func minstdStep(s uint64) uint64 { return mulmod(s, minstdA) }

// minstdA4 = 48271^4 mod (2^31 − 1): four steps at once.
const minstdA4 = 1914720637

// mulmod returns s × a mod (2^31 − 1) for s and a in 1..2^31−2, without a
// division. With x = s × a < 2^62, y = (x mod 2^31) + ⌊x / 2^31⌋ ≡ x (as
// 2^31 ≡ 1) and y ≤ 2 × (2^31 − 1); y is neither 2^31 − 1 nor twice it, as
// x is not a multiple of the prime 2^31 − 1. So y mod (2^31 − 1) is y below
// 2^31 and y − 2^31 + 1 above, which the second fold computes without a
// comparison.
func mulmod(s, a uint64) uint64 {
	x := s * a
	y := (x & minstdM) + (x >> 31)
	return (y & minstdM) + (y >> 31)
}

// fill moves the unused draws to the front of b and works out new ones
// after them, a block at a time, while a block fits.
func (m *Minstd) fill() {
	if m.b == nil {
		m.b = minstdBufs.Get().(*[minstdCap]uint64)
	}
	k := copy(m.b[:], m.b[m.i:m.n])
	for ; k+minstdBlock <= minstdCap; k += minstdBlock {
		m.block((*[minstdBlock]uint64)(m.b[k : k+minstdBlock]))
	}
	m.i, m.n = 0, k
}

// block works out the next minstdBlock draws into b (as float64 bits), in
// four interleaved lanes (state j+4 = state j × 48271^4), which gives the
// same sequence.
func (m *Minstd) block(b *[minstdBlock]uint64) {
	s0 := m.next
	s1 := minstdStep(s0)
	s2 := minstdStep(s1)
	s3 := minstdStep(s2)
	for j := 0; j < minstdBlock; j += 4 {
		v := (*[4]uint64)(b[j : j+4])
		v[0], v[1] = math.Float64bits(minstdFloat(s0)), math.Float64bits(minstdFloat(s1))
		v[2], v[3] = math.Float64bits(minstdFloat(s2)), math.Float64bits(minstdFloat(s3))
		s0, s1, s2, s3 = mulmod(s0, minstdA4), mulmod(s1, minstdA4), mulmod(s2, minstdA4), mulmod(s3, minstdA4)
	}
	m.next = s0
}

// minstdFloat returns s / (2^31 − 1) rounded to nearest, for s in
// 1..2^31−2, without a division when s ≥ 2^22. In binary, s / (2^31 − 1) =
// s × 2^−31 / (1 − 2^−31) is s's 31 bits repeated forever after the point,
// so ⌊s / (2^31 − 1) × 2^63⌋ = s × (2^32 + 2) + ⌊s / 2^30⌋. For s ≥ 2^22 that
// integer has at least 32 + 23 = 55 significant bits, so its last bit lies
// below the round bit of a float64's 53, where only whether anything is
// left matters — and the infinite rest is never zero. Setting that bit
// therefore makes the conversion to float64 (round to nearest) round exactly
// as the true quotient does; the product by 2^−63 is exact. (The test
// TestMinstdFloat checks every s.)
func minstdFloat(s uint64) float64 {
	if s < 1<<22 {
		return float64(int64(s)) / minstdM
	}
	return float64(int64(s*(1<<32+2)|1)) * 0x1p-63
}

// release hands the draw buffer back for other generators; the next draw
// works it out again, from the state of the first unused draw (recovered as
// in Next).
func (m *Minstd) release() {
	if m.b == nil {
		return
	}
	if m.i < m.n {
		m.next = uint64(math.Round(math.Float64frombits(m.b[m.i]) * minstdM))
	}
	minstdBufs.Put(m.b)
	m.b, m.i, m.n = nil, 0, 0
}

// Next advances the state and returns it, in 1..2^31−2. The state is
// recovered from the draw: u = state / (2^31 − 1) rounded to 53 bits is off
// by a relative 2^−53 at most, so u × (2^31 − 1) is within 2^−21 of the
// state, which rounding recovers exactly.
func (m *Minstd) Next() uint64 {
	return uint64(math.Round(m.Float64() * minstdM))
}

// Float64 advances the state and returns state / (2^31 − 1), in (0, 1).
func (m *Minstd) Float64() float64 {
	if m.i < m.n {
		u := math.Float64frombits(m.b[m.i])
		m.i++
		return u
	}
	return m.refill()
}

// refill is Float64 when no draw is worked out.
func (m *Minstd) refill() float64 {
	m.fill()
	u := math.Float64frombits(m.b[m.i])
	m.i++
	return u
}

// poissonL is knuthPoissonL on a Minstd without the interface call. It
// forms the first four products at once (in the same order, so the same
// numbers) and counts those above l, which avoids a hard-to-predict branch
// per draw; the rare longer run goes on one draw at a time.
func (m *Minstd) poissonL(l float64) int64 {
	if m.i+4 <= m.n {
		b := (*[4]uint64)(m.b[m.i : m.i+4])
		p1 := math.Float64frombits(b[0])
		p2 := p1 * math.Float64frombits(b[1])
		p3 := p2 * math.Float64frombits(b[2])
		if p4 := p3 * math.Float64frombits(b[3]); p4 <= l {
			k := above(p1, l) + above(p2, l) + above(p3, l)
			m.i += int(k) + 1
			return k
		}
	}
	k, p := int64(0), 1.0
	for {
		p *= m.Float64()
		if p <= l {
			return k
		}
		k++
	}
}
