package model

import (
	"math"
	"sync"
)

// The sequential loss loop is the engine's run for the system of the
// "Retries and Storm Risk" article and its kin: rng = "minstd" (one call at a
// time), one caller (chain = "flat" or a single layer), a loss server with no
// network delay, latency or collapse on offered demand, open-loop Poisson
// arrivals, no budget or a ratio budget shared by every client, and no
// series. Every call is then answered in the tick it is sent, so a tick is:
// draw the tick's new requests; send the retries due now, in the order they
// were scheduled, and then the new requests, the first ones up to the tick's
// capacity being served (and with failure_probability failing anyway, one
// draw each); for each call that failed, fail the request for good or
// schedule its retry after one draw of its wait. These are the steps of the
// immediate-answer path (fastSend and fastRetry), with the same draws in the
// same order; a test compares the three paths.
//
// Pending retries wait in a ring of per-tick lists (their delay is bounded,
// see seqHorizon); the goodput rule reads per-tick records in a second ring.
// Ticks run in seqLoop.run, a loop that calls nothing, reads draws straight
// from the generator's buffer and keeps its counts in local variables;
// ticks in which no call fails — most of them — take a shorter loop of
// their own. A tick run cannot finish without calling something (more draws
// than the buffer holds, a ring slot out of room, a fractional capacity, a
// wait it does not compute) goes to seqLoop.slowTick, the same steps
// written plainly.

// seqItem is a pending retry: the attempt it will be and the wait, in ticks,
// that preceded it (decorrelated jitter draws the next wait from it).
type seqItem struct {
	attempt int32
	wait    int32
}

// seqWait is the wait before a retry, by failed attempt: fixed ticks, or
// floor(min(capT, lo + U × span)) with span = hi − lo as waitOne computes
// it.
type seqWait struct {
	lo, span, capT float64
	fixed          int64
}

// seqRec is a tick's successes and requests, for the goodput rule.
type seqRec struct{ ok, arr int64 }

// seqMargin is the fewest unused draws run starts a tick with.
const seqMargin = 64

// seqLoop is the state of a run on the sequential loss loop.
type seqLoop struct {
	s *stochSim
	m *Minstd

	// Pending retries: ring slot t&mask lists, in the order they were
	// scheduled, the retries due in tick t, at items[slot<<shift:][:n[slot]].
	// Every slot has room for 1<<shift; most is at least the most any slot
	// holds.
	mask  int64
	shift uint
	most  int32
	n     []int32
	items []seqItem

	attempts int32
	waits    []seqWait // by failed attempt − 1; nil with decorrelated jitter
	quick    bool      // run computes the waits: waits != nil and lo ≥ 0
	failP    float64
	useRatio bool
	ratio    float64
	ticks    int64

	firsts, retries int64 // tries sent so far, for the ratio budget
	c               counts

	// The goodput rule: tick t's record is rec[t&rmask]; the running sums
	// cover the wr ticks before hAt, the next tick to judge (ticks before 0
	// count as zero). Ticks from hFrom on may be unhealthy: judging is
	// false when none can be.
	judging        bool
	rec            []seqRec
	rmask          int64
	wr, hAt        int64
	sumOK, sumArr  int64
	good           float64
	hFrom, lastBad int64

	lam, capC float64 // the segment's e^−λ and capacity per tick
	capT      int64   // ... as whole calls; −1: fractional, or a fraction carried in
}

// seqBufs are a run's buffers, kept in seqPool for later runs.
type seqBufs struct {
	n     []int32
	items []seqItem
	rec   []seqRec
	waits []seqWait
}

var seqPool = sync.Pool{New: func() any { return new(seqBufs) }}

// sized returns b resliced to n, or a new slice if b is too short.
func sized[T any](b []T, n int64) []T {
	if int64(cap(b)) < n {
		return make([]T, n)
	}
	return b[:n]
}

// seqHorizon returns the most ticks ahead a retry is scheduled on the
// sequential loss loop; ok is false when the loop does not apply.
func (s *stochSim) seqHorizon() (h int64, ok bool) {
	if !s.fast || !s.seq || s.ms == nil || s.closed || s.constant || s.perClient || s.offered != nil ||
		(s.bk != bkNone && s.bk != bkRatio) || s.sc.Load <= 0 {
		return 0, false
	}
	for i := range s.segs {
		if lam := s.lambda(&s.segs[i]); !(lam > 0 && lam <= 500) {
			return 0, false // no draws in a tick, or a mean drawn in parts
		}
	}
	l := &s.lay[0]
	longest := float64(s.ticks)
	if l.waits != nil {
		longest = 0
		for _, w := range l.waits {
			x := float64(w.fixed)
			if w.fixed < 0 {
				x = w.hi // lo + U × (hi − lo) < hi, rounded at most to hi
				if w.capT > 0 {
					x = math.Min(x, w.capT)
				}
			}
			longest = math.Max(longest, x)
		}
	} else if l.cap > 0 {
		longest = math.Max(l.cap, l.base)
	}
	// A retry is due 1 + wait ticks ahead, and rounding may put
	// lo + U × (hi − lo) an ulp above hi: one tick more. Longer horizons
	// and goodput windows would make the rings large: the immediate-answer
	// path's calendar keeps far events in a heap instead.
	h = int64(math.Min(longest, float64(s.ticks))) + 2
	return h, h < 1<<12 && min(s.gp.w, s.ticks) < 1<<14
}

// runSeq runs the whole scenario on the sequential loss loop and leaves its
// counts where metrics reads them.
func (s *stochSim) runSeq() {
	l := &s.lay[0]
	q := &seqLoop{s: s, m: s.ms, attempts: l.attempts, failP: s.failP, useRatio: s.bk == bkRatio, ratio: s.bRatio,
		ticks: s.ticks, lastBad: s.lastBad}
	bufs := seqPool.Get().(*seqBufs)
	size := int64(4)
	for size <= s.seqH {
		size <<= 1
	}
	q.mask, q.shift = size-1, 4
	q.n, q.items = sized(bufs.n, size), sized(bufs.items, size<<q.shift)
	clear(q.n)
	if l.waits != nil {
		q.waits = sized(bufs.waits, int64(len(l.waits)))
		q.quick = true
		for a, w := range l.waits {
			q.waits[a] = seqWait{lo: w.lo, span: w.hi - w.lo, capT: w.capT, fixed: w.fixed}
			q.quick = q.quick && (w.fixed >= 0 || w.lo >= 0)
		}
	}
	// The goodput rule judges ticks from the fault's start on, once a whole
	// window has passed (the queue rule never finds a loss server
	// unhealthy). Its sums are of whole numbers, so they equal gpWindow's
	// float sums exactly.
	w := s.gp.w
	q.hFrom, q.good = max(s.from, w-1), s.gp.g
	q.judging = !s.healthQ && q.hFrom < s.ticks
	rsize := int64(1024)
	if q.judging {
		q.wr = w
		for rsize < 2*w {
			rsize <<= 1
		}
	}
	// Records are written before they are read, but for those of the wr
	// ticks before the run, zero.
	q.rec, q.rmask = sized(bufs.rec, rsize), rsize-1
	clear(q.rec[rsize-q.wr:])

	// The fault window's calls are the calls sent before its end less
	// those sent before its start.
	wFrom, wTo := min(max(s.from, 0), s.ticks), min(max(s.to, 0), s.ticks)
	var callsFrom, callsTo int64
	m := s.ms
	for i := range s.segs {
		sg := &s.segs[i]
		q.lam = math.Exp(-s.lambda(sg))
		q.capC = sg.capRate / s.tps
		// A whole number of calls per tick from no credit is what credit
		// gives, and it leaves no fraction behind.
		q.capT = sg.perTick
		if s.capAcc != 0 {
			q.capT = -1
		}
		for t := sg.from; t < sg.to; {
			if t == wFrom {
				callsFrom = q.c.calls
			}
			if t == wTo {
				callsTo = q.c.calls
			}
			if q.capT >= 0 && q.quick {
				if m.n-m.i < seqMargin {
					m.fill()
				}
				// Stop at the window's ends, and before records the
				// goodput rule still needs are overwritten.
				stop := min(sg.to, t+q.rmask+1-q.wr)
				if t < wFrom {
					stop = min(stop, wFrom)
				} else if t < wTo {
					stop = min(stop, wTo)
				}
				t2 := q.run(t, stop)
				if t2 == t {
					// Tick t may need more room in a ring slot than
					// there is: the most a slot holds may have gone down
					// since it was noted, or the ring may need to grow.
					// Or it may need more draws.
					q.most = 0
					for _, k := range q.n {
						q.most = max(q.most, k)
					}
					if 2*q.most > 1<<q.shift {
						q.grow()
					}
					m.fill()
					t2 = q.run(t, stop)
				}
				q.judge(t2)
				if t2 > t {
					t = t2
					continue
				}
			}
			q.slowTick(t)
			t++
			q.judge(t)
		}
	}
	if s.ticks == wTo {
		callsTo = q.c.calls
	}
	if wTo > wFrom {
		q.c.windowCalls = callsTo - callsFrom
	}
	b := &s.budgets[0]
	b.firsts, b.retries = q.firsts, q.retries
	s.c = q.c
	s.lastBad = q.lastBad
	*bufs = seqBufs{n: q.n, items: q.items, rec: q.rec, waits: q.waits}
	seqPool.Put(bufs)
}

// judge moves the goodput window up to tick end, noting unhealthy ticks.
func (q *seqLoop) judge(end int64) {
	if !q.judging {
		return
	}
	rec, rmask, wr, good := q.rec, q.rmask, q.wr, q.good
	sumOK, sumArr, lastBad := q.sumOK, q.sumArr, q.lastBad
	t := q.hAt
	for e := min(end, q.hFrom); t < e; t++ {
		cur, old := rec[t&rmask], rec[(t-wr)&rmask]
		sumOK += cur.ok - old.ok
		sumArr += cur.arr - old.arr
	}
	for ; t < end; t++ {
		cur, old := rec[t&rmask], rec[(t-wr)&rmask]
		sumOK += cur.ok - old.ok
		sumArr += cur.arr - old.arr
		if float64(sumOK) < good*float64(sumArr)-1e-9 {
			lastBad = t
		}
	}
	q.hAt = t
	q.sumOK, q.sumArr, q.lastBad = sumOK, sumArr, lastBad
}

// push schedules a retry for tick due.
func (q *seqLoop) push(due int64, it seqItem) {
	i := due & q.mask
	k := q.n[i]
	if k == 1<<q.shift {
		q.grow()
	}
	q.items[i<<q.shift+int64(k)] = it
	q.n[i] = k + 1
	q.most = max(q.most, k+1)
}

// grow doubles the room of every ring slot.
func (q *seqLoop) grow() {
	old, shift := q.items, q.shift
	q.shift++
	q.items = make([]seqItem, len(q.n)<<q.shift)
	for i, k := range q.n {
		copy(q.items[i<<q.shift:], old[i<<shift:i<<shift+int(k)])
	}
}

// slowTick runs tick t one step at a time.
func (q *seqLoop) slowTick(t int64) {
	s, m := q.s, q.m
	l := &s.lay[0]
	n := m.poissonL(q.lam)
	capLeft := q.capT
	if capLeft < 0 {
		capLeft = s.credit(q.capC)
	}
	slot := t & q.mask
	r := int64(q.n[slot])
	sent := r + n
	q.c.requests += n
	q.c.calls += sent
	q.c.peakCalls = max(q.c.peakCalls, sent)
	served := min(sent, capLeft)
	q.c.served += served
	var ok int64
	for i := range sent {
		// Sending a call counts it for the budget.
		if i < r {
			q.retries++
		} else {
			q.firsts++
		}
		if i < served && (q.failP == 0 || !(m.Float64() < q.failP)) {
			ok++
			continue
		}
		// The call failed: the request fails for good when its attempts
		// are used up or the ratio budget refuses the retry, and otherwise
		// the retry is scheduled after one draw of its wait.
		attempt, prev := int32(1), int32(0)
		if i < r {
			it := q.items[slot<<q.shift+i]
			attempt, prev = it.attempt, it.wait
		}
		if attempt >= q.attempts {
			q.c.failed++
			continue
		}
		if q.useRatio && !(float64(q.retries) <= q.ratio*float64(q.firsts)) {
			q.c.refused++
			q.c.failed++
			continue
		}
		d := s.waitOne(l, attempt, prev)
		if due := t + 1 + d; due < q.ticks {
			if d > q.mask-1 {
				panic("stochastic engine: a retry beyond the sequential loop's horizon")
			}
			q.push(due, seqItem{attempt + 1, int32(min(d, math.MaxInt32))})
		}
	}
	q.n[slot] = 0
	q.c.ok += ok
	if q.capT < 0 {
		s.spend(served)
	}
	q.rec[t&q.rmask] = seqRec{ok, n}
}

// run runs ticks from t on, up to end, and returns the first tick it did
// not run: one it starts with fewer than seqMargin draws left, or one that
// might need more draws than the buffer holds or more room in a ring slot.
// Its steps are slowTick's; it calls nothing, so that its state stays in
// registers, and runs the ticks in which no call fails in a loop of their
// own. The caller has made sure capT ≥ 0 and q.quick.
func (q *seqLoop) run(t, end int64) int64 {
	m := q.m
	f := m.b // the draws' float64 bits
	gi, avail := m.i, m.n
	lam, capT := q.lam, q.capT
	lbits := math.Float64bits(lam)
	ringN, mask := q.n, q.mask
	rec, rmask := q.rec, q.rmask
	// Ticks with more than capQ calls have calls that fail: with
	// failure_probability, every tick.
	capQ := capT
	if q.failP > 0 {
		capQ = -1
	}
	// Counts: requests and retries sent, the most calls in a tick, calls
	// not served, and served calls that failed anyway.
	var reqs, rets, peak, unserved, bad int64
	c := &q.c

	for t < end {
		// Ticks in which no call fails.
		var n, r, slot, g int64
		for ; t < end; t++ {
			if avail-gi < seqMargin {
				goto out
			}
			// 1. The tick's new requests, by Knuth's product method. The
			// product of two draws is at most the first, so it is above
			// lam only if both products are: then the rarer longer run
			// goes on one draw at a time; else there are one or no
			// requests, as the first draw says (compared as bits, which
			// order as positive floats do, to keep the next tick's start
			// off the floating-point unit).
			var k, e int
			p := math.Float64frombits(f[gi]) * math.Float64frombits(f[gi+1])
			if p > lam {
				k, e = 2, gi+2
				for ; e < avail; k++ {
					p *= math.Float64frombits(f[e])
					e++
					if p <= lam {
						break
					}
				}
				if p > lam {
					goto out // out of draws
				}
			} else {
				if f[gi] > lbits {
					k = 1
				}
				e = gi + k + 1
			}
			// 2. The retries due now, then the new requests: all served,
			// all successful.
			s := t & mask
			x := int64(ringN[s])
			sent := x + int64(k)
			if sent > capQ {
				n, r, slot, g = int64(k), x, s, int64(e)
				break
			}
			gi = e
			ringN[s] = 0
			reqs += int64(k)
			rets += x
			peak = max(peak, sent)
			rec[t&rmask] = seqRec{sent, int64(k)}
		}
		if t == end {
			break
		}

		// 2. Tick t, in which calls fail: n new requests after r retries;
		// the first capT are served. Calls from i on fail: those not
		// served, and with failure_probability any served call, one draw
		// each, and a retry takes a draw for its wait.
		sent := r + n
		served := min(sent, capT)
		i, draws := served, sent-served
		if capQ < 0 {
			i, draws = 0, sent+served
		}
		if int64(avail)-g < draws || int64(q.most)+sent-i > int64(1)<<q.shift {
			break
		}
		gi = int(g)
		f0, r0 := q.firsts+reqs, q.retries+rets
		reqs += n
		rets += r
		peak = max(peak, sent)
		unserved += sent - served
		ok := served
		shift := q.shift
		for ; i < sent; i++ {
			if i < served {
				u := math.Float64frombits(f[gi])
				gi++
				if !(u < q.failP) {
					continue
				}
				ok--
				bad++
			}
			attempt := int32(1)
			if i < r {
				attempt = q.items[slot<<shift+i].attempt
			}
			if attempt >= q.attempts {
				c.failed++
				continue
			}
			// The ratio budget counts the tries sent so far, this one
			// included.
			if q.useRatio && !(float64(r0+min(i+1, r)) <= q.ratio*float64(f0+max(0, i+1-r))) {
				c.refused++
				c.failed++
				continue
			}
			wd := &q.waits[attempt-1]
			d := wd.fixed
			if d < 0 {
				// clampWait, for x ≥ 0, where converting truncates as
				// floor does
				x := wd.lo + math.Float64frombits(f[gi])*wd.span
				gi++
				if wd.capT > 0 && x > wd.capT {
					x = wd.capT
				}
				d = 1e15
				if x < 1e15 {
					d = int64(x)
				}
			}
			if due := t + 1 + d; due < q.ticks {
				if d > mask-1 {
					panic("stochastic engine: a retry beyond the sequential loop's horizon")
				}
				j := due & mask
				k := ringN[j]
				q.items[j<<shift+int64(k)] = seqItem{attempt + 1, int32(min(d, math.MaxInt32))}
				ringN[j] = k + 1
				q.most = max(q.most, k+1)
			}
		}
		ringN[slot] = 0
		rec[t&rmask] = seqRec{ok, n}
		t++
	}
out:
	m.i = gi
	c.requests += reqs
	c.calls += reqs + rets
	c.served += reqs + rets - unserved
	c.ok += reqs + rets - unserved - bad
	c.peakCalls = max(c.peakCalls, peak)
	q.firsts += reqs
	q.retries += rets
	return t
}
