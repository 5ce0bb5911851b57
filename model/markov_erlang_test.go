package model

import (
	"math"
	"testing"
)

// erlang is the M/M/c/K queue in closed form: its stationary distribution
// (Erlang's formulas), and for a birth–death chain the expected times from
// empty to full and from full to empty.
type erlang struct {
	lambda, mu float64
	c, k       int
}

// logp is log π_n up to a constant.
func (e erlang) logp() []float64 {
	l := make([]float64, e.k+1)
	for n := 1; n <= e.k; n++ {
		l[n] = l[n-1] + math.Log(e.lambda/(float64(min(n, e.c))*e.mu))
	}
	return l
}

func (e erlang) pi() []float64 {
	l := e.logp()
	top := l[0]
	for _, x := range l {
		top = max(top, x)
	}
	p := make([]float64, len(l))
	sum := 0.0
	for n, x := range l {
		p[n] = math.Exp(x - top)
		sum += p[n]
	}
	for n := range p {
		p[n] /= sum
	}
	return p
}

// up is the expected time from 0 to K.
func (e erlang) up() float64 { return e.upTo(e.k) }

// upTo is the expected time from 0 to k: Σ_{n<k} (Σ_{j≤n} π_j) / (λ π_n).
func (e erlang) upTo(k int) float64 {
	l, t := e.logp(), 0.0
	for n := 0; n < k; n++ {
		for j := 0; j <= n; j++ {
			t += math.Exp(l[j]-l[n]) / e.lambda
		}
	}
	return t
}

// down is the expected time from K to 0.
func (e erlang) down() float64 { return e.downTo(0) }

// downTo is the expected time from K to k: Σ_{n>k} (Σ_{j≥n} π_j) / (μ_n π_n).
func (e erlang) downTo(k int) float64 {
	l, t := e.logp(), 0.0
	for n := e.k; n > k; n-- {
		for j := n; j <= e.k; j++ {
			t += math.Exp(l[j]-l[n]) / (float64(min(n, e.c)) * e.mu)
		}
	}
	return t
}

// TestMarkovErlang: without an orbit the chain is the M/M/c/K queue, and
// its stationary distribution (and the queue's, Queue), mean, blocking probability and hitting
// times (empty to full, full to empty, empty to the high mode, full to the
// low mode) agree with the closed forms within 1e-9 (relative for the
// times);
// for one worker its spectral gap agrees with the M/M/1/K's, λ + μ −
// 2√(λμ)·cos(π/(K+1)).
func TestMarkovErlang(t *testing.T) {
	long(t)
	for _, e := range []erlang{{8, 10, 1, 5}, {9.5, 10, 1, 99}, {12, 10, 1, 40}, {25, 10, 3, 60}, {2.5, 1, 4, 1000}, {2.5, 1, 1, 1000}, {0.4, 1, 1, 1000}, {50, 1, 64, 400}} {
		p := MarkovPlan{Arrival: e.lambda, Service: e.mu, Workers: e.c, Limit: e.k, Orbit: 0, Timeout: 1, Retries: 0, Alpha: metaforAlpha,
			High: float64(e.c) * e.mu, Horizon: 3600}
		c := newMarkovChain(p)
		got := c.stationary()
		want := e.pi()
		mean, high := 0.0, 0.0
		for n, w := range want {
			if d := math.Abs(got[c.index(n, 0)] - w); d > 1e-9 {
				t.Errorf("%+v: π(%d) = %.15g, Erlang %.15g", e, n, got[c.index(n, 0)], w)
			}
			mean += float64(n) * w
			if float64(n) > p.High {
				high += w
			}
		}
		m, notes := analyseMarkov(p)
		if len(notes) > 0 {
			t.Errorf("%+v: %v", e, notes)
		}
		for n, w := range want {
			if d := math.Abs(m.Queue[n] - w); d > 1e-9 {
				t.Errorf("%+v: the queue's distribution at %d is %.15g, Erlang %.15g", e, n, m.Queue[n], w)
			}
		}
		if d := math.Abs(m.QueueMean - mean); d > 1e-9 {
			t.Errorf("%+v: mean queue %.15g, Erlang %.15g", e, m.QueueMean, mean)
		}
		if d := math.Abs(m.HighP - high); d > 1e-9 {
			t.Errorf("%+v: P(high) %.15g, Erlang %.15g", e, m.HighP, high)
		}
		if d := math.Abs(got[c.index(e.k, 0)] - want[e.k]); d > 1e-9 {
			t.Errorf("%+v: blocking %.15g, Erlang %.15g", e, got[c.index(e.k, 0)], want[e.k])
		}
		if !sameTime(m.FillS, e.up()) {
			t.Errorf("%+v: fill %.15g s, closed form %.15g", e, m.FillS, e.up())
		}
		if !sameTime(m.DrainS, e.down()) {
			t.Errorf("%+v: drain %.15g s, closed form %.15g", e, m.DrainS, e.down())
		}
		if h := int(p.High); h < e.k {
			if !sameTime(m.TipS, e.upTo(h+1)) {
				t.Errorf("%+v: to the high mode %.15g s, closed form %.15g", e, m.TipS, e.upTo(h+1))
			}
			if !sameTime(m.RecoverS, e.downTo(h)) {
				t.Errorf("%+v: back to the low mode %.15g s, closed form %.15g", e, m.RecoverS, e.downTo(h))
			}
		}
		if e.c == 1 {
			gap := e.lambda + e.mu - 2*math.Sqrt(e.lambda*e.mu)*math.Cos(math.Pi/float64(e.k+1))
			if r := math.Abs(m.Gap-gap) / gap; r > 1e-9 {
				t.Errorf("%+v: gap %.15g, M/M/1/K %.15g", e, m.Gap, gap)
			}
		}
		if m.States != float64(e.k+1) {
			t.Errorf("%+v: %g states, want %d", e, m.States, e.k+1)
		}
	}
}

// sameTime reports whether two expected times agree within 1e-9,
// relative: both +Inf (beyond a float64: 2.5^1000 s) agree.
func sameTime(got, want float64) bool {
	if math.IsInf(want, 1) {
		return math.IsInf(got, 1)
	}
	return math.Abs(got-want)/want <= 1e-9
}
