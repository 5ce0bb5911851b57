package model

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// boundsBase is the scenario every numeric key is tried in: a dependency at
// 300 calls/s with 200 requests/s, three attempts of 100 ms, an outage of
// 0.5 s after 1 s, 4 s of 10 ms ticks. Its spans stay within their ranges
// when it is scaled to ticks of 1 µs or of 1 h.
func boundsBase(engine string) Scenario {
	sc := Default()
	sc.Engine = engine
	sc.Tick = ms(10)
	sc.Duration = Duration(4 * time.Second)
	sc.Load = 200
	sc.Dependency.Capacity = 300
	l := DefaultLayer()
	l.Attempts, l.Timeout = 3, ms(100)
	sc.Layer = []Layer{l}
	sc.Fault = []Fault{{Kind: "outage", Start: Duration(time.Second), Length: ms(500), Factor: 1}}
	sc.Health.Window = ms(100)
	return sc
}

// boundsCase is one key at one end of its range, on one engine.
type boundsCase struct {
	r      KeyRange
	end    float64
	engine string
}

func (c boundsCase) String() string {
	kind := ""
	if c.r.Kind != "" {
		kind = " (" + c.r.Kind + ")"
	}
	return fmt.Sprintf("%s%s = %s on %s", c.r.Path, kind, c.r.end(c.end), c.engine)
}

// scenario is the base with the key at its end: the key's kind chosen,
// the part that reads it switched on, and the run rescaled to a tick at
// which the end fits when it is a tick longer than the base's or a
// duration. The shortest tick runs the base as it is: 400,000 ticks.
func (c boundsCase) scenario(t *testing.T) Scenario {
	sc := boundsBase(c.engine)
	path := c.r.Path
	switch {
	case path == "tick" && Seconds(c.end) > sc.Tick:
		scaleSpans(&sc, Seconds(c.end))
	case path == "duration":
		scaleSpans(&sc, Duration(time.Duration(Seconds(math.Min(3600, math.Max(1e-6, c.end/400)))).Round(time.Microsecond)))
	case strings.HasPrefix(path, "budget."):
		if err := sc.Budget.SetTableKind(c.r.Kind); err != nil {
			t.Fatal(err)
		}
	case strings.HasPrefix(path, "layer.0.breaker."):
		if err := sc.Layer[0].Breaker.SetTableKind(c.r.Kind); err != nil {
			t.Fatal(err)
		}
	case strings.HasPrefix(path, "layer.0.limiter."):
		if err := sc.Layer[0].Limiter.SetTableKind(c.r.Kind); err != nil {
			t.Fatal(err)
		}
		sc.Layer[0].Limiter.Scope = "layer"
		switch q := sc.Layer[0].Limiter.Params.(type) { // the least limits, so that every max_limit is one
		case AIMDParams:
			q.InitialLimit, q.MinLimit = 1, 1
			sc.Layer[0].Limiter.Params = q
		case GradientParams:
			q.InitialLimit, q.MinLimit = 1, 1
			sc.Layer[0].Limiter.Params = q
		}
		if path == "layer.0.limiter.queue_limit" || path == "layer.0.limiter.queue_timeout" {
			sc.Layer[0].Limiter.Full = "queue"
		}
	case strings.HasPrefix(path, "fault.0.") && c.r.Kind != "":
		sc.Fault[0].Kind = c.r.Kind
	case strings.HasPrefix(path, "layer.0.backoff."):
		sc.Layer[0].Backoff = Backoff{Kind: "exponential", Base: ms(20), Factor: 2, Jitter: "none"}
		if path == "layer.0.backoff.jitter_step" {
			sc.Layer[0].Backoff.Jitter = "full"
		}
	case strings.HasPrefix(path, "layer.0.hedge."):
		sc.Layer[0].Hedge = Hedge{Delay: ms(30), MaxShare: 0.1}
	case path == "dependency.network.delay":
		sc.Dependency.Network.Kind = "constant"
	case path == "dependency.latency_slope":
		sc.Dependency.Capacity = 0 // the latency server
	case path == "dependency.workers":
		sc.Dependency.Capacity, sc.Dependency.Latency = 0, ms(50) // the worker pool
	case strings.HasPrefix(path, "dependency.service."):
		sc.Dependency.Capacity, sc.Dependency.Workers = 0, 4 // a worker pool of that law
		if err := sc.Dependency.Service.SetTableKind(c.r.Kind); err != nil {
			t.Fatal(err)
		}
		if p, ok := sc.Dependency.Service.Params.(LognormalParams); ok { // the other key leaves room
			if path == "dependency.service.median" {
				p.P99 = LongestWait
			} else {
				p.Median = Duration(time.Microsecond)
			}
			sc.Dependency.Service.Params = p
		}
		if _, ok := sc.Dependency.Service.Params.(EmpiricalParams); ok { // every percentile at the end
			e := Seconds(c.end)
			sc.Dependency.Service.Params = EmpiricalParams{P50: e, P90: e, P99: e, P999: e, Max: e}
			return sc
		}
	case strings.HasPrefix(path, "dependency.admission."):
		if err := sc.Dependency.Admission.SetTableKind(c.r.Kind); err != nil {
			t.Fatal(err)
		}
		if p, ok := sc.Dependency.Admission.Params.(CoDelParams); ok { // the interval leaves room for the target
			if path == "dependency.admission.target" {
				p.Interval = LongestWait
			} else {
				p.Target = 0
			}
			sc.Dependency.Admission.Params = p
		}
	case strings.HasPrefix(path, "dependency.collapse."):
		sc.Dependency.Collapse = Collapse{Slope: 0.5, Floor: 0.1}
	case path == "dependency.flaky_failures":
		sc.Dependency.FlakyShare = 0.5
	case path == "think":
		sc.Arrivals, sc.Clients = "closed", 20
	case path == "layers":
		sc.Layer[0].Attempts = 1 // the depth alone: 16 layers of 3 attempts are more than the chain's limit
	case path == "replicates":
		sc.Duration = ms(200) // 10,000 runs of 20 ticks
	case path == "initial.backlog":
		sc.Layer[0].Attempts, sc.Load = 1, 0 // the largest backlog is every call a run may make
	case strings.HasPrefix(path, "shape.0."):
		sc.Shape = []Point{{At: 0, Load: sc.Load}}
	case strings.HasPrefix(path, "change.0."):
		sc.Change = []Change{{At: Duration(2 * time.Second), Set: map[string]any{"load": 100}}}
	}
	setKey(t, &sc, c.r, c.end)
	if len(sc.Change) > 0 {
		then := sc
		then.Change, then.Load = nil, 100
		sc.Change[0].Then = &then
	}
	return sc
}

// scaleSpans makes tick the scenario's tick, every span keeping its length
// in ticks.
func scaleSpans(sc *Scenario, tick Duration) {
	f := float64(tick) / float64(sc.Tick)
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch {
		case v.Type() == reflect.TypeFor[Duration]():
			v.SetInt(int64(math.Round(float64(v.Int()) * f)))
		case v.Kind() == reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case v.Kind() == reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(sc).Elem())
	sc.Tick = tick
}

// setKey sets the numeric key of sc at r.Path to x; a key of a kind's
// parameters is set on a copy of them, stored back.
func setKey(t *testing.T, sc *Scenario, r KeyRange, x float64) {
	t.Helper()
	v := reflect.ValueOf(sc).Elem()
	var store func()
	for _, seg := range strings.Split(r.Path, ".") {
		if v.Kind() == reflect.Slice {
			i, err := strconv.Atoi(seg)
			if err != nil || i >= v.Len() {
				t.Fatalf("%s: no entry %s", r.Path, seg)
			}
			v = v.Index(i)
			continue
		}
		if kt, ok := v.Addr().Interface().(KindTable); ok && !hasKey(v, seg) {
			pv := reflect.New(reflect.TypeOf(kt.TableParams())).Elem()
			pv.Set(reflect.ValueOf(kt.TableParams()))
			store = func() { kt.SetTableParams(pv.Interface()) }
			v = pv
		}
		v = fieldByKey(t, v, seg)
	}
	defer func() {
		if store != nil {
			store()
		}
	}()
	switch {
	case r.Duration:
		v.SetInt(int64(Seconds(x)))
	case r.Whole:
		v.SetInt(int64(x))
	default:
		v.SetFloat(x)
	}
}

// hasKey reports whether the table v has a field named key.
func hasKey(v reflect.Value, key string) bool {
	for i := 0; i < v.NumField(); i++ {
		if k, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("toml"), ","); k == key {
			return true
		}
	}
	return false
}

func fieldByKey(t *testing.T, v reflect.Value, key string) reflect.Value {
	t.Helper()
	for i := 0; i < v.NumField(); i++ {
		if k, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("toml"), ","); k == key {
			return v.Field(i)
		}
	}
	t.Fatalf("%s has no key %q", v.Type(), key)
	return reflect.Value{}
}

// TestBounds runs every numeric key of the scenario at both ends of its
// declared range, on both engines, its list derived from the declarations
// (a numeric key without one fails it): each run must stay within the
// cost estimated for it (the ticks it runs, the calls it makes), end (a
// deadline far beyond any of them is only a safety net: a model loop that
// never asks the guard does not see the context), and, cancelled half-way
// through, stop at the next question to its guard. An end an engine
// refuses is fine when the refusal names a key (the engine does not model
// the key, or the value breaks a rule of the key's own); some engine must
// run every end, except where the key's own rule (or an engine that does
// not model the key) refuses it on both.
func TestBounds(t *testing.T) {
	all := boundsBase("stochastic")
	all.Shape = []Point{{}}
	all.Change = []Change{{}}
	ranges, undeclared := Ranges(&all)
	if len(undeclared) > 0 {
		t.Fatalf("numeric keys without a declared range (declare one beside the key's kind): %s", strings.Join(undeclared, ", "))
	}
	checkBoundKeys(t, reflect.TypeFor[Scenario]())
	for _, r := range ranges {
		for _, end := range []float64{r.Min, r.Max} {
			name := r.Path + "=" + r.end(end)
			if r.Kind != "" {
				name = r.Kind + "/" + name
			}
			t.Run(name, func(t *testing.T) {
				ran, own := 0, 0
				for _, engine := range []string{"queue", "stochastic"} {
					c := boundsCase{r: r, end: end, engine: engine}
					sc := c.scenario(t)
					p, err := sc.Resolve()
					if err != nil {
						var fe *FieldError
						if !errors.As(err, &fe) {
							t.Fatalf("%v: refused without naming a key: %v", c, err)
						}
						if strings.Contains(fe.Msg, "must be ") && strings.HasSuffix(fe.Path, r.Path) && strings.Contains(fe.Msg, r.Ends()) {
							t.Fatalf("%v: refused by its own range: %v", c, err)
						}
						// The key's own rule, or an engine that does not
						// model what the case asks for.
						if fe.Path == r.Path || strings.Contains(fe.Msg, "needs engine") {
							own++
						}
						t.Logf("%v: refused: %v", c, err)
						continue
					}
					runBounded(t, c, p)
					ran++
				}
				if ran == 0 && own < 2 {
					t.Errorf("no engine runs %s at %s", r.Path, r.end(end))
				}
			})
		}
	}
}

// checkBoundKeys fails when a table of the scenario declares a range that
// is empty, or for a key that is not the one its value is.
func checkBoundKeys(t *testing.T, typ reflect.Type) {
	seen := map[reflect.Type]bool{}
	var walk func(typ reflect.Type)
	walk = func(typ reflect.Type) {
		if seen[typ] || typ == reflect.TypeFor[Duration]() {
			return
		}
		seen[typ] = true
		table := reflect.New(typ)
		keys := map[any]string{}
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			k, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			keys[table.Elem().Field(i).Addr().Interface()] = k
			switch f.Type.Kind() {
			case reflect.Struct:
				walk(f.Type)
			case reflect.Slice:
				if f.Type.Elem().Kind() == reflect.Struct {
					walk(f.Type.Elem())
				}
			}
		}
		if b, ok := table.Interface().(bounded); ok {
			for _, bd := range b.bounds(nil) {
				if k := keys[bd.At]; k != bd.Key {
					t.Errorf("%s declares a range for %q at its key %q", typ.Name(), bd.Key, k)
				}
				if !(bd.Min <= bd.Max) {
					t.Errorf("%s.%s: the range %v to %v is empty", typ.Name(), bd.Key, bd.Min, bd.Max)
				}
			}
		}
	}
	walk(typ)
}

// runBounded runs every replicate of p under a guard that counts its
// ticks, then again cancelled half-way through, and checks both.
func runBounded(t *testing.T, c boundsCase, p *Plan) {
	t.Helper()
	cost := p.Cost(false)
	var ticks int64
	var calls float64
	safe(t, c, func(ctx context.Context) {
		for r := range p.Replicates {
			g := newGuard(ctx, 0)
			m, _, _ := engineOf(p)(p, ReplicateSeed(1, r), false, g)
			if g.stop {
				t.Errorf("%v: the safety net's deadline stopped it after %d ticks", c, ticks+g.ticks)
				return
			}
			ticks += g.ticks
			calls += m.Calls
			if !(m.Calls >= 0 && m.Requests >= 0 && m.Successful >= 0 && m.Failed >= 0 && m.Successful+m.Failed <= m.Requests) {
				t.Errorf("%v: counts out of range: %v requests, %v calls, %v successful, %v failed", c, m.Requests, m.Calls, m.Successful, m.Failed)
			}
		}
	})
	if ticks > cost.Ticks {
		t.Errorf("%v: ran %d ticks, more than the %d estimated", c, ticks, cost.Ticks)
	}
	if calls > cost.Calls {
		t.Errorf("%v: made %.0f calls, more than the %.0f estimated", c, calls, cost.Calls)
	}
	if ticks < 2 {
		return
	}
	// Cancelled when it has run half its ticks (of the first replicate, or
	// of the replicate under way then), it must stop at once: no tick
	// after the one the cancellation came in, and ctx's error.
	safe(t, c, func(ctx context.Context) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		half, done := ticks/2, int64(0)
		var at int64 = -1
		for r := range p.Replicates {
			g := newGuard(ctx, 0)
			g.asked = func() {
				if at < 0 && done+g.ticks >= half {
					cancel()
					at = done + g.ticks
				}
			}
			engineOf(p)(p, ReplicateSeed(1, r), false, g)
			done += g.ticks
			if at >= 0 {
				if done > at {
					t.Errorf("%v: cancelled at tick %d, it ran to tick %d", c, at, done)
				}
				if !errors.Is(g.err(), context.Canceled) {
					t.Errorf("%v: cancelled, its guard says %v", c, g.err())
				}
				return
			}
		}
		t.Errorf("%v: %d ticks on the second run, never half of %d", c, done, ticks)
	})
}

// engineOf is the engine function that runs p.
func engineOf(p *Plan) engine {
	if p.Engine == EngineStochastic {
		return runStochastic
	}
	return runQueue
}

// safe runs f and fails the test if it has not returned after a deadline
// far beyond any run here; f's context ends then too.
func safe(t *testing.T, c boundsCase, f func(ctx context.Context)) {
	t.Helper()
	const limit = 5 * time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(ctx)
	}()
	select {
	case <-done:
	case <-time.After(limit + 10*time.Second):
		t.Fatalf("%v: still running after %v, its context long ended: a loop that never asks the guard", c, limit)
	}
}

// TestBudgetsMonotone: a larger budget never refuses more retries, in the
// same scenario with the same seed, as long as the failures it answers are
// the same: against a dependency that fails every call at once. (Against
// one that recovers, a larger budget may let a storm grow that asks for,
// and is refused, more retries than a small one is ever asked for: in the
// base scenario a bucket of 100 tokens refuses 427 retries, one of 10 257.)
// For every budget kind, the key whose larger values let more retries
// through (its capacity: a bucket's tokens, a share, a quota) goes from one
// end of its range to the other through every power of ten between, on
// both engines where the engine models the kind; the retries refused must
// never rise.
func TestBudgetsMonotone(t *testing.T) {
	for _, k := range budgetKinds() {
		if k.make == nil {
			continue // none
		}
		var r Bound
		pv := reflect.New(reflect.TypeOf(k.Params))
		pv.Elem().Set(reflect.ValueOf(k.Params))
		for _, bd := range pv.Interface().(bounded).bounds(nil) {
			if bd.Key == k.more {
				r = bd
			}
		}
		if r.Key == "" {
			t.Errorf("budget kind %s: more = %q names none of its keys", k.Name, k.more)
			continue
		}
		values := []float64{r.Min}
		for x := math.Pow(10, math.Floor(math.Log10(math.Max(r.Min, 1e-3)))+1); x < r.Max; x *= 10 {
			values = append(values, x)
		}
		values = append(values, r.Max)
		for _, engine := range []string{"queue", "stochastic"} {
			prev, prevX := math.Inf(1), 0.0
			for _, x := range values {
				sc := boundsBase(engine)
				sc.Layer[0].Attempts = 4
				sc.Dependency.Capacity, sc.Dependency.Queue, sc.Fault = 0, "none", nil
				sc.Budget.SetTableKind(k.Name)
				kr := keyRange(&r)
				kr.Path = "budget." + k.more
				setKey(t, &sc, kr, x)
				p, err := sc.Resolve()
				if err != nil {
					if fe, ok := err.(*FieldError); ok && fe.Path == "budget.kind" {
						break // the engine does not model the kind
					}
					t.Fatalf("%s %s = %v on %s: %v", k.Name, k.more, x, engine, err)
				}
				m, _, _ := engineOf(p)(p, 1, false, nil)
				if m.RefusedBudget > prev {
					t.Errorf("%s on %s: %s = %v refuses %v retries, %v = %v refused %v", k.Name, engine, k.more, x, m.RefusedBudget, k.more, prevX, prev)
				}
				t.Logf("%s on %s: %s = %v refuses %v, %v of %v requests succeed", k.Name, engine, k.more, x, m.RefusedBudget, m.Successful, m.Requests)
				prev, prevX = m.RefusedBudget, x
			}
		}
	}
}

// TestWindowBounds: a window's from and to are refused outside their
// declared range, with it, and accepted at its ends in a run that long
// (but for a window from the end of the longest run, which holds nothing).
func TestWindowBounds(t *testing.T) {
	sc := boundsBase("queue")
	scaleSpans(&sc, Duration(time.Hour))
	sc.Duration = LongestRun
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range (&Window{}).bounds(nil) {
		r := keyRange(&b)
		for _, c := range []struct {
			x  float64
			ok bool
		}{{r.Min, true}, {r.Max, true}, {r.Min - 3600, false}, {r.Max + 3600, false}} {
			if b.Key == "to" && c.x == r.Min || b.Key == "from" && c.x == r.Max {
				continue // a window ends after it starts, and before the run does
			}
			w := Window{Name: "w", From: 0, To: LongestRun, Columns: []string{"successes"}}
			*w.bounds(nil)[i].At.(*Duration) = Seconds(c.x)
			err := CheckWindow(&w, p)
			want := b.Key + ": must be " + r.Text() + ", got " + Seconds(c.x).String()
			switch {
			case c.ok && err != nil:
				t.Errorf("%s = %v: %v", b.Key, Seconds(c.x), err)
			case !c.ok && (err == nil || err.Error() != want):
				t.Errorf("%s = %v: %v, want %q", b.Key, Seconds(c.x), err, want)
			}
		}
	}
}

// TestTickRings: a span a run keeps a list per tick of, allocated when it
// starts, is refused beyond MaxTickRing ticks, at its key: a day's timeout,
// an uncapped exponential backoff or a long collapse window at 1 ms ticks.
func TestTickRings(t *testing.T) {
	long := func(engine string) Scenario {
		sc := boundsBase(engine)
		sc.Tick, sc.Duration = ms(1), Duration(24*time.Hour)
		sc.Load = 1
		return sc
	}
	for _, c := range []struct {
		name string
		set  func(sc *Scenario)
		path string
	}{
		{"timeout", func(sc *Scenario) { sc.Layer[0].Timeout = Duration(2 * time.Hour) }, "layer.0.timeout"},
		{"backoff", func(sc *Scenario) {
			sc.Layer[0].Attempts = 27
			sc.Layer[0].Backoff = Backoff{Kind: "exponential", Base: Duration(time.Second), Factor: 2, Jitter: "none"}
		}, "layer.0.backoff.cap"},
		{"collapse", func(sc *Scenario) {
			sc.Engine = "stochastic"
			sc.Dependency.Collapse = Collapse{Slope: 0.5, Window: Duration(2 * time.Hour), Demand: "offered"}
		}, "dependency.collapse.window"},
	} {
		sc := long("queue")
		c.set(&sc)
		_, err := sc.Resolve()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Path != c.path || !strings.Contains(fe.Msg, "more than the 4194304") {
			t.Errorf("%s: %v, want it refused at %s", c.name, err, c.path)
		}
	}
}
