package lab

import (
	"context"
	"fmt"
	"math"
	"net"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/stormlab/stormlab/model"
)

// Options are how a lab run is made.
type Options struct {
	// Speed runs the scenario this many times faster: every span divided,
	// every rate multiplied.
	Speed float64
	// Windows are the experiment's [[window]] spans, measured on the run's
	// series as on the model's.
	Windows []model.Window
	// Progress, when set, is given the run's series so far (its whole
	// bins, judged by the model's health rule) each time a bin ends, from
	// the goroutine RunCell runs in: the live explorer draws it as it comes.
	Progress func(*model.Series)
}

// Run is one cell run on the real stack: its result, as the model's
// result of the same cell is laid out (one replicate), and how well the
// machine kept up.
type Run struct {
	Result model.Result
	Keep   Keep
	Notes  []string // where the real libraries' semantics differ from the model's kinds
}

// Keep is how well the machine kept up with a run: the load generator's
// lag in the scenario's seconds (99th percentile, largest), the most either
// may be for the run to be reported, the share of the machine's CPU the
// process used, and how the real stack kept the model's ticks: of the
// Crossings (calls reaching a server, answers reaching a caller), the
// Behind ones came in a later tick than the model has them in, the latest
// BehindMost ticks late. The model's hops take no time, so a count that
// depends on the order of events within a tick (which retry a budget pays
// for, which call finds a breaker open) holds only while none is behind.
type Keep struct {
	LagP99, LagMax     float64
	LimitP99, LimitMax float64
	CPU                float64
	Crossings, Behind  int64
	BehindMost         int64
}

// Behindness says, for a report or a note, how many crossings came late
// and what that means for the counts; "" when none did.
func (k Keep) Behindness() string {
	if k.Behind == 0 {
		return ""
	}
	ticks := "ticks"
	if k.BehindMost == 1 {
		ticks = "tick"
	}
	return fmt.Sprintf("The real stack fell behind the model's ticks: %d of its %d calls and answers crossed a hop in a later tick than the model has them in, the latest %d %s late. A count that depends on the order of events within a tick may differ for that reason.", k.Behind, k.Crossings, k.BehindMost, ticks)
}

// lagLimits are the most a run's generator may lag, in the scenario's
// seconds, at its 99th percentile and at worst: a quarter of the time the
// user waits for a try, and all of it (a quarter of a second and a second
// for a user who waits forever), and never less than two ticks.
func lagLimits(p *model.Plan) (p99, most float64) {
	wait := 1.0
	if t := p.Chain[0].Timeout; t > 0 {
		wait = float64(t) * p.TickS
	}
	return max(wait/4, 2*p.TickS), max(wait, 2*p.TickS)
}

// Distorted says why a run cannot be reported, the machine not keeping
// up, or "" when it can: the generator started requests later than its
// limits, or the process used 95% of the machine's CPU.
func (k Keep) Distorted() string {
	switch {
	case k.LagP99 > k.LimitP99:
		return fmt.Sprintf("the load generator fell behind: its 99th-percentile lag was %.3f s of the scenario's time (at most %.3f s, a quarter of the user's timeout, is reported)", k.LagP99, k.LimitP99)
	case k.LagMax > k.LimitMax:
		return fmt.Sprintf("the load generator fell behind: its largest lag was %.3f s of the scenario's time (at most %.3f s, the user's timeout, is reported)", k.LagMax, k.LimitMax)
	case k.CPU > 0.95:
		return fmt.Sprintf("the machine's CPU was saturated: the lab used %.0f%% of it", 100*k.CPU)
	}
	return ""
}

// RunCell runs one cell of an experiment, resolved in p, on real gRPC
// services on loopback: the dependency, a service per layer below the
// edge, and the load generator with the edge layer's client. seed seeds
// the load, the jitter and the dependency's draws.
func RunCell(ctx context.Context, p *model.Plan, seed uint64, opt Options) (*Run, error) {
	if why := unsupported(p); len(why) > 0 {
		return nil, &supportError{why}
	}
	if !(opt.Speed > 0) {
		return nil, fmt.Errorf("lab: speed must be above 0, got %v", opt.Speed)
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	clk := newClock(opt.Speed, p.TickS, p.Ticks)
	k := newCounters(clk)
	phases := runPhases(p, seed)
	apart := false // some phase keeps state per client
	for _, ph := range phases {
		apart = apart || ph.budgets.b.PerClient()
	}
	var notes []string

	var servers []*grpc.Server
	var conns []*grpc.ClientConn
	var mu sync.Mutex
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
		for _, s := range servers {
			s.Stop()
		}
	}()
	serve := func(h hopServer) (string, error) {
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", err
		}
		if p.Network.Kind != model.NetworkNone {
			h = newNetwork(h, p, clk, k, model.SplitMix(seed^uint64(4+len(servers))<<16))
		}
		s := grpc.NewServer(grpc.ForceServerCodec(rawCodec{}))
		s.RegisterService(hopService(), h)
		servers = append(servers, s)
		go s.Serve(lis)
		return lis.Addr().String(), nil
	}
	dial := func(addr, cfg string) (*grpc.ClientConn, error) {
		opts := []grpc.DialOption{
			grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithDefaultCallOptions(grpc.ForceCodec(rawCodec{})),
			grpc.WithStatsHandler(tryStats{}),
		}
		if cfg != "" {
			opts = append(opts, grpc.WithDefaultServiceConfig(cfg))
		}
		c, err := grpc.NewClient(addr, opts...)
		if err == nil {
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
		return c, err
	}

	dep := newDependency(p, clk, k, model.SplitMix(seed^2))
	addr, err := serve(dep)
	if err != nil {
		return nil, err
	}
	var top *caller
	for i := len(p.Chain) - 1; i >= 0; i-- {
		c, err := newCaller(p, phases, i, addr, clk, k, seed, dial)
		if err != nil {
			return nil, err
		}
		if c.native {
			notes = appendOnce(notes, "gRPC's retry throttling runs in grpc-go's own retries (a retryPolicy and retryThrottling in the service config); gRPC jitters every wait uniformly in [0, backoff), so a retry the model sends in the next tick is sent within one tick")
		}
		if i == 0 {
			top = c
			break
		}
		if addr, err = serve(&layer{below: c, cancel: p.Cancel}); err != nil {
			return nil, err
		}
	}
	for _, ph := range phases {
		for _, l := range ph.p.Chain {
			if l.Hedge.Delay > 0 {
				notes = appendOnce(notes, hedgeNote)
			}
		}
		if ph.p.FatalShare > 0 || ph.p.Pushback > 0 {
			notes = appendOnce(notes, finalNote)
		}
		if ph.budgets.on() && ph.p.Budget.Kind != "grpc" {
			notes = appendOnce(notes, budgetNote(ph.p.Budget.Kind))
		}
	}
	gen := newGenerator(p, clk, k, top, phases, apart, model.SplitMix(seed^3))

	var ru0 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	wall0 := time.Now()
	clk.begin()
	go dep.work(ctx)
	done := make(chan struct{})
	go func() {
		gen.run(ctx)
		close(done)
	}()
	end := time.NewTimer(time.Until(clk.at(p.Ticks)))
	defer end.Stop()
	poll := time.NewTicker(clk.wallTicks(1) + time.Millisecond)
	defer poll.Stop()
	binTicks := max(1, int64(math.Round(1/p.TickS)))
	var shown int64 // the bins given to opt.Progress
wait:
	for {
		select {
		case <-ctx.Done():
			break wait
		case <-end.C:
			break wait
		case <-poll.C:
			// a burst is over once every request is answered and no try is
			// in flight: the rest of the run would count nothing
			if p.Arrivals == model.ArriveBurst && gen.done() && k.inFlight.Load() == 0 {
				break wait
			}
			if bins := min(clk.tick(), p.Ticks) / binTicks; opt.Progress != nil && bins > shown {
				shown = bins
				queues := k.queues()
				opt.Progress(series(p, k, queues, health(p, k, queues, bins*binTicks), bins*binTicks))
			}
		}
	}
	if err := context.Cause(ctx); err != nil && err != context.Canceled {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	endRun(dep, stop, func() {
		<-done
		gen.wg.Wait()
	})
	var ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := (tv(ru1.Utime) + tv(ru1.Stime) - tv(ru0.Utime) - tv(ru0.Stime)) / (time.Since(wall0).Seconds() * float64(runtime.NumCPU()))
	lp99, lmax := gen.lag()
	if n := k.late.Load(); n > 0 {
		notes = append(notes, fmt.Sprintf("%d tries through gRPC's own retries took longer than their layer's per-try timeout, which gRPC cannot enforce (a service config's timeout bounds the whole call): where the model gives up on such a try and retries, gRPC waits", n))
	} else if p.Budget.Kind == "grpc" {
		notes = appendOnce(notes, "gRPC's retryPolicy has no per-try timeout; no try through it took longer than its layer's, so the model's timeout never made a difference here")
	}
	l99, lmost := lagLimits(p)
	r := &Run{Result: measure(p, k, opt.Windows), Keep: Keep{LagP99: lp99, LagMax: lmax, LimitP99: l99, LimitMax: lmost, CPU: cpu,
		Crossings: k.crossings.Load(), Behind: k.behind.Load(), BehindMost: k.behindMost.Load()}, Notes: notes}
	return r, nil
}

// endRun ends a run whose time is up (or a burst whose requests are all
// answered), in the order that keeps its last ticks as the model has
// them: the dependency serves the ticks its work loop has not reached,
// and records their waiting room, while the calls in it still wait; then
// stop stops the callers and wait returns once every request has ended.
// Stopping the callers first withdraws every waiting call, and a run stuck
// with a full waiting room would end on an empty one: judged by the queue
// rule, recovered in its last tick.
func endRun(dep *dependency, stop context.CancelFunc, wait func()) {
	dep.finish()
	stop()
	wait()
}

func tv(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// runPhase is a stretch of the run under one plan: the run's plan from its
// start, each change's from its tick on, with the budgets then (a change
// that leaves the budget alone keeps its state, as in the model).
type runPhase struct {
	from    int64
	p       *model.Plan
	budgets *budgetGate
}

func runPhases(p *model.Plan, seed uint64) []runPhase {
	out := []runPhase{{0, p, newBudgetGate(p, model.SplitMix(seed^1))}}
	for i, ch := range p.Changes {
		prev := out[len(out)-1]
		b := prev.budgets
		if ch.Plan.Budget != prev.p.Budget {
			b = newBudgetGate(ch.Plan, model.SplitMix(seed^uint64(i+2)<<8))
		}
		out = append(out, runPhase{ch.At, ch.Plan, b})
	}
	return out
}

// newCaller makes layer i's client, whose calls go to addr.
func newCaller(p *model.Plan, phases []runPhase, i int, addr string, clk *clock, k *counters, seed uint64,
	dial func(addr, cfg string) (*grpc.ClientConn, error)) (*caller, error) {
	lp := p.Chain[i]
	c := &caller{layer: i, lp: lp, clock: clk, k: k, seed: seed,
		state: map[stateKey]*clientState{}, breakers: map[stateKey]failsafe.Policy[any]{}}
	grpcHere := p.Budget.Kind == "grpc" && (p.Budget.Scope != model.ScopeDependency || i == len(p.Chain)-1)
	for j, ph := range phases {
		b := ph.budgets
		if ph.p.Budget.Kind == "grpc" {
			b = newBudgetGate(&model.Plan{}, 0) // gRPC's own throttle, or none above the dependency's
		}
		from := j
		if j > 0 && ph.p.Chain[i].Breaker == c.phases[j-1].lp.Breaker {
			from = c.phases[j-1].breakerFrom
		}
		c.phases = append(c.phases, phase{from: ph.from, lp: ph.p.Chain[i], budgets: b, breakerFrom: from, hedging: hedgingOf(c.phases, ph.p, i, clk, k)})
	}
	if !grpcHere {
		conn, err := dial(addr, "")
		if err != nil {
			return nil, err
		}
		c.conn = func(int) *grpc.ClientConn { return conn }
		return c, nil
	}
	cfg, err := nativeConfig(lp, p.Budget.Params.(model.GRPCParams), clk)
	if err != nil {
		return nil, fmt.Errorf("layer %d: %w", i, err)
	}
	c.native = true
	if p.Budget.Scope != model.ScopeClient {
		conn, err := dial(addr, cfg)
		if err != nil {
			return nil, err
		}
		c.conn = func(int) *grpc.ClientConn { return conn }
		return c, nil
	}
	// one channel, and so one throttle, per client
	conns := make([]*grpc.ClientConn, p.Clients)
	for j := range conns {
		if conns[j], err = dial(addr, cfg); err != nil {
			return nil, err
		}
	}
	c.conn = func(cl int) *grpc.ClientConn { return conns[cl] }
	return c, nil
}

// measure turns the counters into the model's result of one replicate,
// judged by the model's own health rule and verdict.
func measure(p *model.Plan, k *counters, ws []model.Window) model.Result {
	queues := k.queues()
	var m model.Metrics
	binTicks := max(1, int64(math.Round(1/p.TickS)))
	var peakBin, bin int64
	j := model.NewJudge(p)
	unhealthy := observe(j, p, k, queues, p.Ticks)
	for t := range p.Ticks {
		calls := k.at(cCalls, t)
		m.PeakCalls = max(m.PeakCalls, float64(calls))
		m.PeakQueue = max(m.PeakQueue, float64(queues[t]))
		bin += calls
		if (t+1)%binTicks == 0 || t == p.Ticks-1 {
			peakBin = max(peakBin, bin)
			bin = 0
		}
	}
	m.Requests = float64(k.total(cRequests))
	m.Calls = float64(k.total(cCalls))
	m.Successful = float64(k.total(cOK))
	m.Failed = float64(k.total(cFailed))
	m.Pending = m.Requests - m.Successful - m.Failed
	m.RefusedBudget = float64(k.total(cRefusedBudget))
	m.RefusedBreaker = float64(k.total(cRefusedBreaker))
	m.RefusedPushback = float64(k.total(cRefusedPushback))
	m.NotRetryable = float64(k.total(cNotRetryable))
	m.RetriesRefused = m.RefusedBudget + m.RefusedBreaker + m.RefusedPushback
	m.Served = float64(k.total(cServed))
	m.WastedServed = float64(k.total(cWasted))
	m.Hedges = float64(k.total(cHedges))
	m.Allowed = float64(p.Allowed)
	base := p.BaseRate()
	m.PeakLoadX = ratioOf(float64(peakBin)/(float64(binTicks)*p.TickS), base)
	m.CallsPerS = m.Calls / (float64(p.Ticks) * p.TickS)
	if p.Fault.To > p.Fault.From {
		m.WindowCalls = float64(k.sum(cCalls, p.Fault.From, p.Fault.To)) / (float64(p.Fault.To-p.Fault.From) * p.TickS)
		m.WindowRateX = ratioOf(m.WindowCalls, base)
		m.WindowPerTick = m.WindowCalls * p.TickS
	}
	m.LatencyP50, m.LatencyP95, m.LatencyP99 = math.NaN(), math.NaN(), math.NaN()
	m.ErrorLatencyP50, m.ErrorLatencyP99 = math.NaN(), math.NaN()
	// a pool's means and the calls an admission rule shed: the lab runs
	// neither (refused by name), so they are not measured
	m.InSystemMean, m.WaitMeanS, m.ServiceMeanS, m.Shed = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	j.Verdict(&m)
	s := series(p, k, queues, unhealthy, p.Ticks)
	r := model.Result{Metrics: m, Replicates: 1, Series: s}
	if m.Recovered() {
		r.RecoveredShare = 1
	}
	if len(ws) > 0 {
		r.Windows = model.WindowValues(s, ws, p)
	}
	return r
}

// observe gives the model's health rule, j, the counters' ticks [0,
// upto): whether each was unhealthy.
func observe(j *model.Judge, p *model.Plan, k *counters, queues []int64, upto int64) []bool {
	var requests, answered int64
	unhealthy := make([]bool, upto)
	for t := range upto {
		arr, ok, failed := k.at(cRequests, t), k.at(cOK, t), k.at(cFailed, t)
		requests += arr
		answered += ok + failed
		work := queues[t]
		if !p.Server.Queues() {
			work = requests - answered
		}
		unhealthy[t] = j.Observe(t, ok, arr, queues[t], work)
	}
	return unhealthy
}

// health is the health rule's verdict on each of the ticks [0, upto), a
// judge of its own replaying them.
func health(p *model.Plan, k *counters, queues []int64, upto int64) []bool {
	return observe(model.NewJudge(p), p, k, queues, upto)
}

func ratioOf(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}
