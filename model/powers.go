package model

import "math"

// powers remembers q^n, the first term of the binomial's inversion
// (binomialPow), for the n drawn so far: a run draws how many of n served
// calls fail for every group served, n varies over a few hundred values
// and q with the server, and math.Pow costs more than the rest of the
// draw. A value remembered is math.Pow's own, so a draw is the same with
// it or without.
type powers struct {
	by []power // by n, up to maxPowers
}

// power is q^n for the q last asked with that n (q 0: none yet; the
// inversion's q is at least one half).
type power struct{ q, v float64 }

// maxPowers bounds the n remembered: q^n for a larger n is worked out
// each time.
const maxPowers = 4096

// pow returns q^n as math.Pow works it out; on a nil pw, every time.
func (pw *powers) pow(q float64, n int64) float64 {
	if pw == nil || n >= maxPowers {
		return math.Pow(q, float64(n))
	}
	if n >= int64(len(pw.by)) {
		pw.by = append(pw.by, make([]power, int(n)+1-len(pw.by))...)
	}
	e := &pw.by[n]
	if e.q != q {
		e.q, e.v = q, math.Pow(q, float64(n))
	}
	return e.v
}
