package model

import (
	"math"
	"math/rand/v2"
	"time"
)

// The queue engine is the deterministic model of "Retry Storms: Simulate How
// a 30-Second Blip Becomes an Outage That Never Ends", generalised. Requests
// travel in cohorts: every call enqueued in the same tick with the same
// attempt number is one cohort, so an hour with millions of queued calls costs
// a few cohorts per tick. One tick, in order:
//
//  1. New requests arrive (attempt 1), then the retries due this tick, as far
//     as the budget allows; a queue limit rejects calls beyond it at once (the
//     caller sees the error now and may retry from the next tick).
//  2. The dependency serves up to its capacity, oldest first (fifo) or newest
//     first (lifo). A call served within its caller's timeout is a success;
//     one served later is wasted work. With drop_expired, calls whose caller
//     gave up are discarded instead of served. A loss server (queue = "none")
//     fails the calls beyond the tick's capacity at once.
//  3. Callers whose attempt, enqueued timeout ticks ago, is still waiting give
//     up; the attempt stays queued, and the request retries in the next tick
//     plus its backoff, or fails when its attempts are used up.
//
// An attempt enqueued in tick e is therefore served usefully in ticks
// e..e+timeout, and its retry joins the queue in tick e+timeout+1.
//
// A chain of layers is flattened to one caller with the product of the
// layers' attempts and the bottom layer's timeout: the count every layer's
// retries add up to when every call fails.

// cohort is a group of identical calls: enqueued in the same tick, on the
// same attempt, still waiting (n of them).
type cohort struct {
	enq     int32
	attempt int32
	n       int64
}

// retry is a group of retries due in a given tick.
type retry struct {
	attempt int32
	n       int64
}

// queueSim is the state of one queue-engine run.
type queueSim struct {
	sc          *Scenario
	tickS       float64
	ticks       int
	timeout     int // ticks a caller waits; -1 = forever
	maxAttempts int32
	delay       []int // backoff in ticks before attempt i+2 (index = attempt-1 of the failed one)
	lifo, loss  bool
	limit       int64
	healthQueue bool    // health rule: queue (true) or goodput
	healthyQ    float64 // queue rule: the most waiting calls a healthy system has
	rng         *rand.Rand

	q      []cohort // live cohorts in enqueue order; q[head:] is the waiting room
	head   int
	starts []int     // ring: index in q of the first cohort of tick t (t mod len)
	due    [][]retry // ring: retries due in tick t (t mod len)
	queued int64

	arrAcc, capAcc float64
	m              Metrics
	firstSent      int64 // first attempts sent so far (ratio budget)
	late           int64 // retries due after the end of the run
	retriesSent    int64
	win            []float64 // goodput rule: ring of successes and arrivals per tick
}

func runQueue(sc *Scenario, seed uint64, series bool) (Metrics, *Series, []string) {
	s := newQueueSim(sc, seed)
	return s.run(series)
}

func newQueueSim(sc *Scenario, seed uint64) *queueSim {
	tick := time.Duration(sc.Tick)
	layers := sc.ChainLayers()
	bottom := layers[len(layers)-1]
	s := &queueSim{
		sc:          sc,
		tickS:       sc.Tick.Seconds(),
		ticks:       int(time.Duration(sc.Duration) / tick),
		timeout:     int(time.Duration(bottom.Timeout) / tick),
		maxAttempts: int32(sc.FlatAttempts()),
		lifo:        sc.Dependency.Queue == "lifo",
		loss:        sc.Dependency.Queue == "none",
		limit:       int64(sc.Dependency.QueueLimit),
		rng:         rand.New(rand.NewPCG(seed, SplitMix(seed))),
	}
	if bottom.Timeout == 0 {
		s.timeout = -1
	}
	rule := sc.Health.Rule
	if rule == "" {
		rule = "queue"
		if s.loss || s.timeout < 0 {
			rule = "goodput"
		}
	}
	s.healthQueue = rule == "queue"
	s.healthyQ = sc.Dependency.Capacity * bottom.Timeout.Seconds()

	// Backoff before each retry, in ticks, from the top layer's policy (the
	// flat caller has one policy).
	b := layers[0].Backoff
	maxDelay := 0
	s.delay = make([]int, s.maxAttempts)
	for i := range s.delay {
		var d float64
		switch b.Kind {
		case "constant":
			d = b.Base.Seconds()
		case "exponential":
			d = b.Base.Seconds() * math.Pow(b.Factor, float64(i))
			if b.Cap > 0 {
				d = math.Min(d, b.Cap.Seconds())
			}
		}
		s.delay[i] = int(math.Min(math.Round(d/s.tickS), float64(s.ticks)))
		maxDelay = max(maxDelay, s.delay[i])
	}
	s.due = make([][]retry, maxDelay+2)
	s.starts = make([]int, max(s.timeout, 0)+2)
	if !s.healthQueue {
		s.win = make([]float64, 2*max(1, int(time.Duration(sc.Health.Window)/tick)))
	}
	return s
}

// capacityAt is the calls the dependency can serve in tick t, before
// collapse, as a real number (fractions carry over to later ticks).
func (s *queueSim) capacityAt(t int) float64 {
	c := s.sc.Dependency.Capacity
	now := Duration(time.Duration(t) * time.Duration(s.sc.Tick))
	for _, f := range s.sc.Fault {
		if now < f.Start || now >= f.Start+f.Length {
			continue
		}
		switch f.Kind {
		case "outage":
			c = 0
		case "degradation":
			c = math.Min(c, f.Capacity)
		case "slowdown":
			c /= f.Factor
		}
	}
	return c * s.tickS
}

// arrivalsAt is the mean number of new requests in tick t.
func (s *queueSim) arrivalsAt(t int) float64 {
	r := s.sc.Load
	now := Duration(time.Duration(t) * time.Duration(s.sc.Tick))
	for _, f := range s.sc.Fault {
		if f.Kind == "spike" && now >= f.Start && now < f.Start+f.Length {
			r *= f.Factor
		}
	}
	return r * s.tickS
}

// take returns the whole part of acc+x and keeps the fraction in acc, so a
// rate of 0.5 per tick gives 0, 1, 0, 1, ...
func take(acc *float64, x float64) int64 {
	*acc += x
	n := math.Floor(*acc + 1e-9)
	*acc -= n
	if *acc < 0 {
		*acc = 0
	}
	return int64(n)
}

func (s *queueSim) run(series bool) (Metrics, *Series, []string) {
	var (
		ser      *Series
		bin      SeriesRow
		binTicks = max(1, int(math.Round(1/s.tickS)))
	)
	if series {
		ser = &Series{Step: float64(binTicks) * s.tickS, Rows: make([]SeriesRow, 0, (s.ticks+binTicks-1)/binTicks)}
	}
	fStart, fEnd, hasFault := s.sc.FaultWindow()
	tick := time.Duration(s.sc.Tick)
	from, to := 0, 0
	if hasFault {
		from = int(time.Duration(fStart) / tick)
		to = int(time.Duration(fEnd) / tick)
	}
	lastBad := -1
	var windowCalls int64

	for t := 0; t < s.ticks; t++ {
		var row SeriesRow
		capT := s.capacityAt(t)

		// 1. arrivals, then the retries due now.
		var arrivals int64
		if s.sc.Arrivals == "poisson" {
			arrivals = poisson(s.rng, s.arrivalsAt(t))
		} else {
			arrivals = take(&s.arrAcc, s.arrivalsAt(t))
		}
		s.starts[t%len(s.starts)] = len(s.q)
		s.m.Requests += float64(arrivals)
		row.Requests = float64(arrivals)
		s.firstSent += arrivals
		sent := s.send(t, 1, arrivals, &row)
		room := int64(math.MaxInt64)
		switch s.sc.Budget.Kind {
		case "per_tick":
			room = int64(math.RoundToEven(s.sc.Budget.Ratio * float64(arrivals)))
		case "ratio":
			room = max(0, int64(math.Floor(s.sc.Budget.Ratio*float64(s.firstSent)+1e-9))-s.retriesSent)
		}
		slot := t % len(s.due)
		for _, r := range s.due[slot] {
			n := min(r.n, room)
			room -= n
			if refused := r.n - n; refused > 0 {
				s.m.RetriesRefused += float64(refused)
				s.m.Failed += float64(refused)
				row.Refused += float64(refused)
				row.Failures += float64(refused)
			}
			s.retriesSent += n
			row.Retries += float64(n)
			sent += s.send(t, r.attempt, n, &row)
		}
		s.due[slot] = s.due[slot][:0]
		s.m.Calls += float64(sent)
		row.Calls = float64(sent)
		s.m.PeakCalls = math.Max(s.m.PeakCalls, float64(sent))
		if t >= from && t < to {
			windowCalls += sent
		}

		// 2. the dependency works.
		c := take(&s.capAcc, capT)
		row.Capacity = float64(c) / s.tickS
		if sl := s.sc.Dependency.Collapse.Slope; sl > 0 && c > 0 && s.queued > c {
			keep := math.Max(s.sc.Dependency.Collapse.Floor, 1-sl*(float64(s.queued)/float64(c)-1))
			c = int64(math.Floor(float64(c) * keep))
		}
		s.serve(t, c, &row)

		// 3. callers give up on attempts still waiting after the timeout.
		if s.timeout >= 0 && t-s.timeout >= 0 {
			e := t - s.timeout
			lo := s.starts[e%len(s.starts)]
			hi := s.starts[(e+1)%len(s.starts)]
			for i := max(lo, s.head); i < hi && i < len(s.q); i++ {
				if co := s.q[i]; co.n > 0 && int(co.enq) == e {
					row.Timeouts += float64(co.n)
					s.fail(t, co.attempt, co.n, &row)
				}
			}
			s.mergeAbandoned(max(lo, s.head), min(hi, len(s.q)))
		}
		s.compact()

		// health
		s.m.PeakQueue = math.Max(s.m.PeakQueue, float64(s.queued))
		row.Queue = float64(s.queued)
		row.Unhealthy = !s.healthy(t, &row)
		if t >= from && row.Unhealthy {
			lastBad = t
		}
		if ser != nil {
			row.InFlight = s.m.Requests - s.m.Successful - s.m.Failed
			bin.add(&row)
			if (t+1)%binTicks == 0 || t == s.ticks-1 {
				bin.T = float64(t/binTicks*binTicks) * s.tickS
				bin.Capacity /= float64(min(binTicks, t%binTicks+1))
				ser.Rows = append(ser.Rows, bin)
				bin = SeriesRow{}
			}
		}
	}

	m := s.m
	m.Pending = m.Requests - m.Successful - m.Failed
	base := s.sc.Load
	m.PeakLoadX = ratio(m.PeakCalls/s.tickS, base)
	if to > from {
		m.WindowCalls = float64(windowCalls) / (float64(to-from) * s.tickS)
		m.WindowRateX = ratio(m.WindowCalls, base)
	}
	m.Recovered = lastBad != s.ticks-1
	m.RecoveryS = math.NaN()
	if m.Recovered {
		m.RecoveryS = 0
		if lastBad >= 0 {
			m.RecoveryS = math.Max(0, float64(lastBad+1)*s.tickS-fEnd.Seconds())
		}
	}
	return m, ser, nil
}

// send puts n calls of the given attempt on the dependency in tick t and
// returns n. A full queue or a loss server rejects what does not fit.
func (s *queueSim) send(t int, attempt int32, n int64, row *SeriesRow) int64 {
	if n <= 0 {
		return 0
	}
	accept := n
	if s.limit > 0 {
		accept = max(0, min(n, s.limit-s.queued))
	}
	if rejected := n - accept; rejected > 0 {
		s.fail(t, attempt, rejected, row)
	}
	if accept > 0 {
		if k := len(s.q) - 1; k >= s.head && s.q[k].enq == int32(t) && s.q[k].attempt == attempt {
			s.q[k].n += accept
		} else {
			s.q = append(s.q, cohort{enq: int32(t), attempt: attempt, n: accept})
		}
		s.queued += accept
	}
	return n
}

// fail records that n attempts failed in tick t: they retry after the backoff
// or, with no attempts left, the request fails.
func (s *queueSim) fail(t int, attempt int32, n int64, row *SeriesRow) {
	if attempt >= s.maxAttempts {
		s.m.Failed += float64(n)
		row.Failures += float64(n)
		return
	}
	at := t + 1 + s.delay[attempt-1]
	if at >= s.ticks {
		s.late += n // due after the run: still pending when it ends
		return
	}
	slot := &s.due[at%len(s.due)]
	*slot = append(*slot, retry{attempt: attempt + 1, n: n})
}

// serve lets the dependency complete up to c waiting calls in tick t.
func (s *queueSim) serve(t int, c int64, row *SeriesRow) {
	expired := func(co *cohort) bool { return s.timeout >= 0 && t-int(co.enq) > s.timeout }
	if s.sc.Dependency.DropExpired {
		for s.head < len(s.q) && (s.q[s.head].n == 0 || expired(&s.q[s.head])) {
			s.queued -= s.q[s.head].n
			s.q[s.head].n = 0
			s.head++
		}
	}
	work := func(co *cohort) {
		k := min(c, co.n)
		if expired(co) {
			s.m.WastedServed += float64(k)
			row.Wasted += float64(k)
		} else {
			s.m.Successful += float64(k)
			row.Successes += float64(k)
		}
		s.m.Served += float64(k)
		row.Served += float64(k)
		co.n -= k
		s.queued -= k
		c -= k
	}
	if s.lifo {
		for i := len(s.q) - 1; i >= s.head && c > 0; i-- {
			if s.q[i].n > 0 {
				work(&s.q[i])
			}
		}
		// Trim served cohorts off the top; ticks whose cohorts are gone
		// start where the stack now ends.
		for len(s.q) > s.head && s.q[len(s.q)-1].n == 0 {
			s.q = s.q[:len(s.q)-1]
		}
		for i := range s.starts {
			s.starts[i] = min(s.starts[i], len(s.q))
		}
	} else {
		for s.head < len(s.q) && c > 0 {
			if work(&s.q[s.head]); s.q[s.head].n == 0 {
				s.head++
			}
		}
	}
	if s.loss {
		// A loss server keeps no queue: what it could not serve failed now.
		for i := s.head; i < len(s.q); i++ {
			if n := s.q[i].n; n > 0 {
				s.q[i].n = 0
				s.queued -= n
				s.fail(t, s.q[i].attempt, n, row)
			}
		}
		s.head = len(s.q)
	}
}

// mergeAbandoned folds the cohorts q[lo:hi], one tick's calls whose callers
// have all given up, into one: their attempt numbers no longer matter, only
// how many are still waiting. A storm's backlog then costs one cohort per
// tick instead of one per tick and attempt.
func (s *queueSim) mergeAbandoned(lo, hi int) {
	if hi-lo < 2 {
		return
	}
	var n int64
	for i := lo; i < hi; i++ {
		n += s.q[i].n
	}
	s.q[lo].n, s.q[lo].attempt = n, 0
	removed := hi - lo - 1
	s.q = append(s.q[:lo+1], s.q[hi:]...)
	for i, st := range s.starts {
		if st >= hi {
			s.starts[i] = st - removed
		}
	}
}

// compact drops served cohorts from the front of q once they are half of it.
func (s *queueSim) compact() {
	for s.head < len(s.q) && s.q[s.head].n == 0 {
		s.head++
	}
	if s.head < 1024 || s.head < len(s.q)/2 {
		return
	}
	n := copy(s.q, s.q[s.head:])
	s.q = s.q[:n]
	for i := range s.starts {
		s.starts[i] = max(0, s.starts[i]-s.head)
	}
	s.head = 0
}

// healthy applies the health rule at the end of tick t.
func (s *queueSim) healthy(t int, row *SeriesRow) bool {
	if s.healthQueue {
		return float64(s.queued) <= s.healthyQ+1e-9
	}
	w := len(s.win) / 2
	i := t % w
	s.win[2*i], s.win[2*i+1] = row.Successes, row.Requests
	if t+1 < w {
		return true
	}
	var ok, arr float64
	for j := 0; j < w; j++ {
		ok += s.win[2*j]
		arr += s.win[2*j+1]
	}
	return ok >= s.sc.Health.Goodput*arr-1e-9
}

func (r *SeriesRow) add(o *SeriesRow) {
	r.Requests += o.Requests
	r.Calls += o.Calls
	r.Retries += o.Retries
	r.Successes += o.Successes
	r.Failures += o.Failures
	r.Timeouts += o.Timeouts
	r.Refused += o.Refused
	r.Served += o.Served
	r.Wasted += o.Wasted
	r.Capacity += o.Capacity
	r.Queue, r.InFlight = o.Queue, o.InFlight
	r.Unhealthy = r.Unhealthy || o.Unhealthy
}

// poisson draws a Poisson variate with mean lambda: Knuth's product method
// for small means, a rounded normal approximation above 30.
func poisson(r *rand.Rand, lambda float64) int64 {
	if lambda <= 0 {
		return 0
	}
	if lambda > 30 {
		return max(0, int64(math.Round(lambda+math.Sqrt(lambda)*r.NormFloat64())))
	}
	l, k, p := math.Exp(-lambda), int64(0), 1.0
	for {
		p *= r.Float64()
		if p <= l {
			return k
		}
		k++
	}
}
