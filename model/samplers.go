package model

import "math"

// source is the uniform generator the stochastic engine draws from. Every
// sampler in this file is written in terms of Float64 alone, so the two generators
// are interchangeable and a sampler asked for one item consumes exactly one
// draw.
type source interface {
	// Float64 returns a uniform number in [0, 1) (pcg) or (0, 1) (minstd).
	Float64() float64
}

// knuthPoisson draws a Poisson variate with mean lambda by Knuth's product
// method: multiply uniforms until the product falls to e^−lambda or below;
// the number of factors minus one is the variate. It consumes k+1 draws for
// a result k. Means above 500, where e^−lambda underflows, are drawn as a sum
// of Poisson variates of mean at most 500 (in order), which is exact.
func knuthPoisson(r source, lambda float64) int64 {
	if lambda <= 0 {
		return 0
	}
	var total int64
	for lambda > 500 {
		total += knuthPoissonL(r, math.Exp(-500))
		lambda -= 500
	}
	return total + knuthPoissonL(r, math.Exp(-lambda))
}

// knuthPoissonL is Knuth's method with l = e^−lambda given.
func knuthPoissonL(r source, l float64) int64 {
	k, p := int64(0), 1.0
	for {
		k++
		p *= r.Float64()
		if p <= l {
			return k - 1
		}
	}
}

// poissonPositive draws a Poisson variate with mean lambda conditioned on
// being at least 1 (inversion from 1; meant for small means).
func poissonPositive(r *rng, lambda float64) int64 {
	if lambda >= 1 {
		for {
			if k := r.poisson(lambda); k > 0 {
				return k
			}
		}
	}
	// P(k | k ≥ 1) = e^−λ λ^k / k! / (1 − e^−λ)
	p := lambda * math.Exp(-lambda) / -math.Expm1(-lambda)
	u := r.Float64()
	k := int64(1)
	for u > p && p > 0 {
		u -= p
		k++
		p *= lambda / float64(k)
	}
	return k
}

// binomial draws the number of successes in n trials of probability p. One
// trial consumes one draw (success when the draw is below p); up to 16 trials
// are drawn one by one; small means use inversion and large ones Hörmann's
// BTRS, all exact.
func binomial(r source, n int64, p float64) int64 { return binomialPow(r, n, p, nil) }

// binomialPow is binomial taking q^n, its inversion's first term, from pw
// (nil: worked out for each draw); the draw is the same either way.
func binomialPow(r source, n int64, p float64, pw *powers) int64 {
	switch {
	case n <= 0 || p <= 0:
		return 0
	case p >= 1:
		return n
	case n <= 16:
		var k int64
		for range n {
			if r.Float64() < p {
				k++
			}
		}
		return k
	case p > 0.5:
		return n - binomialPow(r, n, 1-p, pw)
	case float64(n)*p < 10:
		// Inversion: P(0) = q^n, P(k+1)/P(k) = (n−k)/(k+1) · p/q.
		q := 1 - p
		s := p / q
		a := float64(n+1) * s
		pk := pw.pow(q, n)
		u := r.Float64()
		var k int64
		for u > pk && k < n {
			u -= pk
			k++
			pk *= a/float64(k) - s
			if pk <= 0 {
				break
			}
		}
		return k
	}
	return btrs(r, n, p)
}

// btrs is Hörmann's transformed rejection sampler for the binomial
// ("The generation of binomial random variates", J. Statist. Comput. Simul.
// 46, 1993), valid for p ≤ 0.5 and n·p ≥ 10.
func btrs(r source, n int64, p float64) int64 {
	nf := float64(n)
	q := 1 - p
	spq := math.Sqrt(nf * p * q)
	b := 1.15 + 2.53*spq
	a := -0.0873 + 0.0248*b + 0.01*p
	c := nf*p + 0.5
	vr := 0.92 - 4.2/b
	alpha := (2.83 + 5.1/b) * spq
	lpq := math.Log(p / q)
	m := math.Floor((nf + 1) * p)
	lm, _ := math.Lgamma(m + 1)
	lnm, _ := math.Lgamma(nf - m + 1)
	h := lm + lnm
	for {
		u := r.Float64() - 0.5
		v := r.Float64()
		us := 0.5 - math.Abs(u)
		k := math.Floor((2*a/us+b)*u + c)
		if k < 0 || k > nf {
			continue
		}
		if us >= 0.07 && v <= vr {
			return int64(k)
		}
		lk, _ := math.Lgamma(k + 1)
		lnk, _ := math.Lgamma(nf - k + 1)
		if math.Log(v*alpha/(a/(us*us)+b)) <= h-lk-lnk+(k-m)*lpq {
			return int64(k)
		}
	}
}

// geometricGap returns the number of whole ticks before the first success of
// a per-tick success probability 1 − e^−rate, by inversion of one draw.
func geometricGap(r source, rate float64) int64 {
	u := 1 - r.Float64() // in (0, 1]
	g := math.Floor(-math.Log(u) / rate)
	if g > math.MaxInt64/4 {
		return math.MaxInt64 / 4
	}
	return int64(g)
}

func above(p, l float64) int64 {
	if p > l {
		return 1
	}
	return 0
}

// uniformSplit spreads n instances over whole ticks floor(x), x uniform in
// [lo, hi) and then capped at capT (0 = no cap), into dst. One instance
// takes one draw: x = lo + U × (hi − lo); up to 16 instances, or no more
// than the ticks they can fall in, are drawn one by one, more by sequential
// binomials over the ticks.
func uniformSplit(dst []split, r source, lo, hi, capT float64, n int64) []split {
	dst = dst[:0]
	if hi <= lo {
		return append(dst, split{clampWait(lo+1e-9, capT), n})
	}
	top := hi
	if capT > 0 && capT < hi {
		top = capT
	}
	buckets := int64(math.Ceil(top)) - int64(math.Floor(lo))
	if n <= 16 || n <= buckets {
		for range n {
			dst = append(dst, split{clampWait(lo+r.Float64()*(hi-lo), capT), 1})
		}
		return groupSplits(dst)
	}
	rest, mass := n, 1.0
	width := hi - lo
	for k := int64(math.Floor(lo)); rest > 0; k++ {
		a, b := math.Max(float64(k), lo), math.Min(float64(k+1), hi)
		pk := math.Max(0, b-a) / width
		last := capT > 0 && float64(k+1) > capT
		if last {
			pk = mass // everything at or above the cap
		}
		var m int64
		if pk >= mass || last {
			m = rest
		} else if pk > 0 {
			m = binomial(r, rest, pk/mass)
		}
		if m > 0 {
			dst = append(dst, split{k, m})
		}
		rest -= m
		mass = max(0, mass-pk)
	}
	return dst
}

// hypergeometric draws how many of n items taken without replacement from N,
// K of them marked, are marked. Up to 32 items are drawn one by one (one
// draw each); more are drawn by inversion outward from the mode, with the
// probabilities' ratio recurrence, which is exact up to rounding.
func hypergeometric(r source, total, marked, n int64) int64 {
	switch {
	case n <= 0 || marked <= 0:
		return 0
	case marked >= total:
		return n
	case n >= total:
		return marked
	case n <= 32:
		var k int64
		for left := total; n > 0; n-- {
			if r.Float64()*float64(left) < float64(marked-k) {
				k++
			}
			left--
		}
		return k
	}
	N, K, nf := float64(total), float64(marked), float64(n)
	lo, hi := max(0, n-(total-marked)), min(n, marked)
	mode := min(hi, max(lo, int64((nf+1)*(K+1)/(N+2))))
	lchoose := func(a, b float64) float64 {
		x, _ := math.Lgamma(a + 1)
		y, _ := math.Lgamma(b + 1)
		z, _ := math.Lgamma(a - b + 1)
		return x - y - z
	}
	m := float64(mode)
	pm := math.Exp(lchoose(K, m) + lchoose(N-K, nf-m) - lchoose(N, nf))
	u := r.Float64()
	if u < pm {
		return mode
	}
	u -= pm
	up, down := mode, mode
	pu, pd := pm, pm
	for up < hi || down > lo {
		if up < hi {
			x := float64(up)
			pu *= (K - x) * (nf - x) / ((x + 1) * (N - K - nf + x + 1))
			up++
			if u < pu {
				return up
			}
			u -= pu
		}
		if down > lo {
			x := float64(down)
			pd *= x * (N - K - nf + x) / ((K - x + 1) * (nf - x + 1))
			down--
			if u < pd {
				return down
			}
			u -= pd
		}
	}
	return mode // what rounding left over
}
