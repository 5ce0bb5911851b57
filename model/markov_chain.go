package model

import "math"

// markovChain is the generator of the markov engine's continuous-time
// Markov chain, stored sparse: for each state the states it jumps to and
// the rates, and its total rate out.
//
// A state is (n, o): n calls at the server (waiting or in service, 0..K)
// and o timed-out calls in the orbit, waiting to be retried (0..O). The
// chain is the single-server model of Metafor ("Metafor: analyzing
// metastability in server systems"), with its rates:
//
//   - a new request arrives at rate λ and joins the queue: (n, o) → (n+1, o);
//     a full queue (n = K) loses it;
//   - a worker finishes a call at rate min(n, c)·μ: (n, o) → (n−1, o);
//   - a new request that will time out (probability t(n), below) also puts
//     a retry in the orbit, at rate α·λ·t(n): (n, o) → (n+1, o+1), for
//     0 < n < K and o < O (a full orbit loses it). The request itself stays
//     in the queue: work a caller gave up on is still served. This rate adds
//     to λ rather than splitting it, as in Metafor's generator, so the queue
//     sees λ·(1 + α·t(n)) arrivals;
//   - each call in the orbit leaves it after an exponential time of mean T
//     (the timeout): it retries with probability R/(R+1) and gives up with
//     probability 1/(R+1), so it retries at rate ν_r = R/((R+1)·T) and gives
//     up at rate ν_d = 1/((R+1)·T). A retry joins the queue and leaves the
//     orbit if it will be served in time, o·ν_r·(1 − t(n)): (n, o) → (n+1,
//     o−1), and stays in the orbit if it will time out again, o·ν_r·t(n):
//     (n, o) → (n+1, o); giving up is (n, o) → (n, o−1) at o·ν_d. A retry
//     that finds the queue full is lost and leaves the orbit: at n = K the
//     orbit empties at o·(ν_r + ν_d);
//   - t(n), the chance that a call which finds n calls at the server times
//     out, is Metafor's bound by Chebyshev's inequality on the sum of n
//     exponential service times at rate r = min(n, c)·μ (mean n/r, standard
//     deviation √n/r): (σ/(T − mean))² when T − mean > σ, else 1; t(0) = 0.
//
// Where the chain approximates the simulation: arrivals are Poisson; a
// timeout is not a clock per call but the probability t(n) read when the
// call arrives, itself a bound rather than the exact tail; a retry's wait
// (backoff and the timeout it follows) is exponential with mean T; the
// attempts a request has made are not tracked (every call in the orbit
// retries with the same probability R/(R+1)); the orbit is bounded. At a
// full queue Metafor serves at min(K+1, c)·μ; this chain at min(K, c)·μ,
// the same unless the workers outnumber the queue's places.
type markovChain struct {
	plan  MarkovPlan
	inner int // states of the inner index: the smaller of K+1 and O+1
	// orbitInner: the index is n·(O+1) + o (the orbit inner), else
	// o·(K+1) + n; the smaller inner dimension keeps the band narrow.
	orbitInner bool
	ptr        []int32   // state i's jumps are to[ptr[i]:ptr[i+1]]
	to         []int32   // target states
	rate       []float64 // their rates, per second
	out        []float64 // each state's total rate out
}

// newMarkovChain builds the generator of the chain p describes.
func newMarkovChain(p MarkovPlan) *markovChain {
	c := &markovChain{plan: p, orbitInner: p.Orbit <= p.Limit}
	c.inner = p.Limit + 1
	if c.orbitInner {
		c.inner = p.Orbit + 1
	}
	n := p.States()
	c.ptr = make([]int32, 1, n+1)
	c.to = make([]int32, 0, 6*n)
	c.rate = make([]float64, 0, 6*n)
	c.out = make([]float64, n)
	tail := markovTail(p)
	R := float64(p.Retries)
	retry, giveUp := R/((R+1)*p.Timeout), 1/((R+1)*p.Timeout)
	for i := range n {
		q, o := c.level(i)
		add := func(q2, o2 int, r float64) {
			if r > 0 {
				c.to = append(c.to, int32(c.index(q2, o2)))
				c.rate = append(c.rate, r)
				c.out[i] += r
			}
		}
		t, fo := tail[q], float64(o)
		switch {
		case q < p.Limit:
			add(q+1, o, p.Arrival+fo*retry*t)
			if o < p.Orbit {
				add(q+1, o+1, p.Alpha*p.Arrival*t)
			}
			if o > 0 {
				add(q+1, o-1, fo*retry*(1-t))
				add(q, o-1, fo*giveUp)
			}
		case o > 0:
			add(q, o-1, fo*(retry+giveUp))
		}
		if q > 0 {
			add(q-1, o, float64(min(q, p.Workers))*p.Service)
		}
		c.ptr = append(c.ptr, int32(len(c.to)))
	}
	return c
}

// markovTail is t(n) for n = 0..K: the chance that a call which finds n
// calls at the server times out, Metafor's Chebyshev bound.
func markovTail(p MarkovPlan) []float64 {
	t := make([]float64, p.Limit+1)
	for q := 1; q <= p.Limit; q++ {
		r := float64(min(q, p.Workers)) * p.Service
		mean, sd := float64(q)/r, math.Sqrt(float64(q))/r
		if p.Timeout-mean > sd {
			k := sd / (p.Timeout - mean)
			t[q] = k * k
		} else {
			t[q] = 1
		}
	}
	return t
}

// states is the number of states.
func (c *markovChain) states() int { return len(c.out) }

// index is the state (q calls at the server, o in the orbit).
func (c *markovChain) index(q, o int) int {
	if c.orbitInner {
		return q*c.inner + o
	}
	return o*c.inner + q
}

// level is the calls at the server and in the orbit of state i.
func (c *markovChain) level(i int) (q, o int) {
	if c.orbitInner {
		return i / c.inner, i % c.inner
	}
	return i % c.inner, i / c.inner
}
