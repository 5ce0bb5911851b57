// Package model simulates retry storms: a chain of callers with retry
// policies above one dependency, faults, and the measurements that tell
// whether the system recovered. It is pure: no I/O, no globals, every random
// stream seeded by the caller.
//
// A Scenario is what a user writes (its struct tags carry the TOML keys);
// Scenario.Resolve checks it and returns a Plan — every default filled in,
// every kind typed, every span in ticks — which the engines run and which
// figures and reports read their thresholds from. Run resolves and runs one
// grid cell, its replicates averaged.
//
// Two engines simulate, sharing the Plan, the Result and the parts below,
// and a third solves:
//
//   - "queue" (queue.go): deterministic, counted in cohorts (enqueue tick,
//     attempt), the model of "Retry Storms: Simulate How a 30-Second Blip
//     Becomes an Outage That Never Ends". A chain is flattened to one caller
//     whose attempts are the product of the layers' attempts. Its rows of
//     calls that can still time out are visited through the ones that hold
//     calls (queue_rows.go), so a tick costs what waits, not the timeout's
//     length in ticks.
//   - "stochastic" (stochastic.go): seeded groups of identical calls split
//     by sampling where that is exact in distribution; explicit chains,
//     backoff and jitter, network delay, bursty and closed-loop arrivals,
//     four kinds of dependency (a worker pool among them), cancellation.
//   - "markov" (markov_run.go): no simulation; the single server with
//     retries as the continuous-time Markov chain of "Metafor: analyzing
//     metastability in server systems" (markov_chain.go, every rate in its
//     doc), its stationary distribution, spectral gap and hitting times
//     solved by banded elimination without subtraction (markov_band.go;
//     markov_gap.go for the gap). It models one caller above a FIFO server
//     with a queue_limit, Poisson arrivals and nothing else: each registry
//     entry lists it where it applies, and markovSupports (markov_keys.go)
//     refuses the rest by key. Its results are Result.Markov, the markov_*
//     columns.
//
// # Parts
//
// Each part is a small type in a file of its own, with its own tests:
//
//	arrivals.go         open-loop arrivals: constant, Poisson (closed.go: the closed loop)
//	backoff.go          a caller's waits before its retries: backoff and jitter
//	bounds.go           the range every numeric key declares beside its kind, and its check
//	budget.go           the budget interface, the registry of kinds, scopes
//	budget_*.go         one file per kind: per_tick, ratio, token_bucket, grpc,
//	                    finagle, envoy, aws, adaptive
//	server.go           the dependency's interface (stochastic engine)
//	server_*.go         one file per kind: loss, queue (fifo and lifo), latency,
//	                    pool (workers with a waiting room in front)
//	service.go          service-time laws: their registry, the dependency.service
//	                    table, and the exact split of a group over the ticks its
//	                    calls end in
//	service_*.go        one file per law: constant, exponential, lognormal,
//	                    pareto, empirical
//	admission.go        admission rules of a waiting room: their registry and
//	                    the dependency.admission table
//	admission_*.go      one file per rule: queue_time, codel, adaptive_lifo,
//	                    priority (first tries before retries, in a room apart)
//	credit.go           a server's capacity in whole calls, fractions carried
//	collapse.go         overload collapse
//	network.go          delays between layers
//	health.go           the health rules (queue, goodput) and the verdict
//	series.go           the per-second time series
//	group.go            the stochastic engine's groups of calls and their recycling
//	breaker.go          a layer's circuit breaker
//	limiter.go          a layer's client-side concurrency limit: the registry, the
//	                    table, the rule's interface (limiter_state.go: its state,
//	                    limit_queue.go: the tries waiting for a slot, limiters.go:
//	                    a run's, stochastic_limits.go: where the engine asks them)
//	limiter_*.go        one file per kind: bulkhead, aimd, gradient
//	outcome.go          the kinds of answer and the reasons a try is refused
//	hedge.go            hedged tries: an original and its second copies, the winner and the loser
//	hedger.go           when a layer hedges and how many (latency_window.go: its percentile)
//	latency_histogram.go  user requests' latencies, arrival to answer, for their
//	                    quantiles (measure_latency)
//
// # A tick of the stochastic engine
//
//  1. The tick's new requests are drawn (open loop: constant, or Poisson
//     split over the clients; rng = "minstd" draws Knuth's Poisson variate
//     every tick, even when it is zero). The budgets get the tick's arrivals
//     (the per-tick allowance).
//  2. Events of the tick run in the order they were scheduled: retries whose
//     backoff ends now, calls reaching a lower layer or the dependency after
//     a network delay, answers arriving, closed-loop clients ending their
//     think time. Then the tick's new requests start, after the retries
//     (those were scheduled earlier). A group that starts passes its
//     layer's breaker (see below), then its concurrency limiter (a try
//     beyond the limit fails at once or waits for a slot; waiting tries
//     are let in, oldest first, in the tick after a slot frees), then the
//     budget's gate (retries), counts as sent, and passes its calls down; with no
//     network delay they reach the layer below, and finally the dependency,
//     in the same tick. A loss server answers each call as it comes: the
//     first calls of the tick, up to its capacity, are served, the rest fail
//     at once; a served call fails anyway with failure_probability (drawn
//     only for served calls, and only when that probability is not zero). A
//     server with a waiting room queues the call (a full queue_limit rejects
//     it at once).
//  3. The dependency works: a queueing server serves up to the tick's
//     capacity, oldest first (fifo) or newest first (lifo), skipping calls
//     withdrawn by drop_expired or cancellation; the congestive latency
//     server completes the calls whose latency ends now.
//  4. Hedges and deadlines, in the order they were scheduled: a bottom
//     group whose hedge delay ends now sends second copies of the calls
//     still unanswered (hedge.go); groups whose deadline is this tick and
//     that still wait give up: the caller retries (or fails when its
//     attempts are used up) and, with cancel_abandoned, cancels everything
//     below the abandoned call.
//  5. Health is judged at the end of the tick (health.go).
//
// Ticks in which nothing can happen are jumped over: the calendar keeps a
// bitmap of busy ticks, and arrivals know their next tick. A sparse scenario
// at 1 ms ticks therefore costs about what it costs at 10 ms.
//
// An answer travels back up the chain, taking the network delay at each
// hop. A failure makes the caller retry in tick f + 1 + wait (backoff.go),
// f the tick the failure was seen in, as far as the budget admits; a retry
// due at or after the end of the run is never sent and its request stays
// pending. Timeouts, think times and constant delays are rounded to the
// nearest tick; a try sent in tick s with a timeout of T ticks is answered
// in time up to tick s + T and given up at the end of it. A caller that
// gives up stops waiting; the abandoned subtree keeps running below (its own
// retries included) unless cancel_abandoned is set, and an answer that
// arrives for it is wasted work.
//
// # Where a breaker and a budget sit
//
// A layer's circuit breaker sits inside its retries or outside them
// (breaker.placement), as resilience libraries compose the two policies.
// Inside (inside_retry, the default: failsafe-go's With(retryPolicy,
// circuitBreaker), Resilience4j's Retry around a CircuitBreaker) it guards
// every try, a retry included, and counts every try's outcome: a burst of
// failed first tries opens it before any retry goes. Outside
// (outside_retry: failsafe-go's With(circuitBreaker, retryPolicy),
// Resilience4j's CircuitBreaker around a Retry, the client library of
// "Retries can make an outage worse: designing a retry budget") it is asked
// once per call, by the call's first try, and counts one outcome per call
// when the call ends — a success, or a failure for good: its last try
// failed, the budget refused one of its tries (or the deadline a retry), or
// its error is not retryable. The retries of a call it let through pass without
// asking it, and a call it refuses counts nothing. Calls already let
// through go on with their tries after it opens, so a burst of concurrent
// calls makes every try it has before the breaker has seen one outcome.
// Calls it never hears the end of (cancelled, or still going when the run
// ends) count nothing.
//
// A token bucket (budget.kind = "token_bucket") earns its ratio per success
// (deposit = "success", the FIG. 1 bucket) or per call (deposit =
// "request": once for each call its layer starts, when the first try is
// sent past the breaker, whatever becomes of it), as the client of the
// same article earns per logical call. Which calls count is the budget's scope: a chain
// or client budget counts the user's requests, a layer's budget that
// layer's calls.
//
// With rng = "minstd" (Plan.Single) every request is a group of one and
// calls are handled one at a time in the order above, drawing as they go:
// the order of the "Retries and Storm Risk" article's loop, which is part of
// that generator's definition and reproduces its tables digit for digit.
//
// # Service graphs
//
// A scenario may describe a graph instead of a chain (graph.go): services,
// each with a server of its own or none (graph.service.N.server, a
// dependency's keys), and edges, the calls a service makes to another,
// each with a layer's policy (attempts, timeout, backoff, breaker,
// limiter). An edge without from is an entry point: the users' call. A
// graph may have several, one per service the users call, each taking its
// share of the users' requests (graph.edge.N.share): each request comes in
// through one, drawn for Poisson arrivals and a closed loop's clients (so
// each entry point's arrivals are Poisson at its share of the load),
// apportioned for constant arrivals and bursts (graph_entries.go). A
// service that makes several calls makes them in parallel, needing all,
// any or a quorum of them, or in sequence, each after the one before
// succeeded; with a server of its own, it makes them once its server has
// served the call it answers. The queue and markov engines model a chain
// and refuse a graph by name.
//
// Resolve unfolds the graph from each entry point into a tree of calls (a
// service reached by two paths is called on each, and its one server
// serves both: a shared dependency) and lowers the scenario to the chain
// of those calls: each is a layer of Plan.Chain, its place in the tree a
// GraphNode, and every rule a chain's layer has (its breaker, its
// limiter, its budget scope, the request's deadline passed down)
// applies to it unchanged. A graph of one path whose services have no
// server but the last is a chain, and resolves to the chain's very Plan
// (TestChainAsGraph); every other graph gets a GraphPlan, with the plan
// each service's server runs on.
//
// The engine keeps its unit, the group: n instances of one call's try.
// Passed down, the group's calls go to its service's server, or without
// one straight to the service's own calls (graph_run.go). In sequence, the
// next call starts for the instances whose call before succeeded; one that
// failed for good fails its instance. In parallel, every call starts at
// once for a batch of the group's instances: all n of them for a service
// without a server; for one with a server, those its server has just
// answered, as it may serve a group's calls over several ticks (a FIFO
// server under load) or answer them after different times (a service-time
// law). A batch's instances are counted by state: which of its calls are
// still out and how many succeeded (graph_fan.go). The group holds the
// counts of its first batch, and of a later one once every call made for
// the group itself has been answered; any other batch gets a hop, a group
// of the same call that is no try, which holds its counts: its calls are
// made for it (their retries too), their answers come back to it, and what
// they decide goes on to the group; a caller who gives up on the group
// gives up on the hop's calls too. When answers to one call come back for
// k instances of a batch, which k is drawn by a multivariate
// hypergeometric split over the batch's states in which that call is out.
// The instances of a batch made their calls together, in the same groups,
// so they are exchangeable and the split is exact in distribution
// (TestFanPerBatch: answers to calls made in one tick never decide a
// request served in another), and a fan-out costs a few states per batch
// instead of a group per request. An instance succeeds once need of its
// calls have, and fails once they no longer can; the calls it still has
// out go on (a parallel call once sent is not withdrawn), and a success
// they bring is wasted work. Each service with a server has its own, kept
// together in a serverSet (graph_servers.go): while one of them acts, the
// plan in force is that server's (the run's plan with the service's
// ServerPlan), so the server kinds and the rules of a served call read
// their own server's keys; a caller who gives up leaves its calls waiting
// at a server to be served or discards them as that server's own
// drop_expired says (TestGraphDropExpired: behind one gateway, after an
// outage, the server keeping them serves as many calls for nobody as it
// does alone, and the one dropping them none). A budget may be scoped per
// edge, per caller (the service making the calls; the users', for every
// entry point) or per
// callee (the service called; graph_plan.go's budgets): two services
// retrying into one database then share the database's budget.
//
// The run's health is the goodput the users at the entry points see, all
// of them together; each service's is judged by the same rule on the
// calls made to it (graph_health.go), one per call however many tries it took: over
// health.window, the calls to it that succeeded are at least
// health.goodput × the calls made to it. A call is made when its first try
// starts, over every edge into the service (a first try a breaker,
// limiter, budget or deadline refused was still made), and succeeds when a
// try of it does; every call made should have been answered, so one that
// failed for good, timed out, was withdrawn by a caller who gave up, or is
// still out counts against the service. An entry point's service no
// other service calls is thus judged on the users' requests that come in
// there, as the run is on all of them (health per entry point). A
// service's verdict,
// recovery and collapse are the run's rules applied to its health, and
// aggregate over replicates as the run's do; for draining, what a service
// holds is the backlog of the servers its calls reach (its own and those
// below it, each once): a service without a server has its calls out while
// they wait there. A loss server holds nothing, so a service whose calls
// reach only loss servers and ends unhealthy is stuck, not draining: there
// the entry point's service may be stuck where the run, whose verdict
// counts the users' requests without an answer, is draining.
//
// A graph's results add failed_share, with several entry points the
// requests that came in through each (<service>.requests), per service
// <name>.tries, .retries, .failed, .calls (with a server), .verdict,
// .recovery_s and .collapse_s (with replicates, .recovered_share and its
// interval), for a worker pool its means (below), and per edge but the
// users' calls <from>.<to>.tries, .retries and .failed (graph_columns.go);
// a graph of one path, being a chain, has the chain's columns only. A
// graph's series adds each service's own, a row per row of the run's
// (Series.Services, graph_series.go): the calls made to it, those that
// succeeded and failed for good, the tries sent to it, its own server's
// queue and its health, and for a worker pool the calls it took for a
// caller still waiting and their waits (series.csv's
// <service>.wait_mean_s, PoolServiceColumns; over the rows they sum to
// the run's <service>.wait_mean_s, TestGraphPoolSeries); bands and windows
// summarise the run's rows only.
//
// The cost is the groups: a call of the unfolded tree is a group per tick
// and per retry, where a chain of one layer is one group per tick whatever
// its load; a service with a server that calls others in parallel adds a
// hop for each batch its server answers while calls made for the group
// itself are still out. An hour at 10,000 requests a second through 10
// services and 20 edges (26 calls a request, 19 of them to servers,
// BenchmarkGraph10) opens 38 groups a tick against 27 for a chain of 26
// layers making as many calls for as many requests, one of them to its
// server (BenchmarkChain26Like10); one group per request (as rng =
// "minstd" runs) would open some 260,000 a second. Of those 38, 31 go to
// the five databases (12 of them retries), where the chain's one server
// gets under 2 a tick, and 52 answers a tick reach a fan, to be split
// over its states. Most of the graph's work is its failures: the 19 calls
// to servers failing 1% retry 19 times as often as the chain's one (6.91
// million retries in the hour against 0.36 million), and a retry costs a
// group of its own and the splits of the fans above it, some 2,400
// instructions. A chain whose server fails 16.5% of calls makes as many
// calls and retries as the graph (BenchmarkChain26SameCalls10,
// TestSameCalls10), its retries a dozen or more to a group. Side by side
// (go test -bench), the graph's hour takes 2.86 times as long as
// Chain26Like10's and 1.62 times Chain26SameCalls10's, though it runs
// 4.7 and 3.1 times their instructions: a chain of 26 layers runs some 5
// instructions a nanosecond, each answer climbing 26 nested layers, where
// the graph, at most 4 deep, and a chain of one layer
// (BenchmarkChainLike10) run 9.
//
// A fault that hits a server (outage, degradation, slowdown) names its
// service (fault.service; it may be left out when only one service has a
// server), and that server's plan alone has it; a spike hits the users'
// arrivals. An unforeseen fault (a live explorer's) is taken up at its
// start as a chain's is: the run switches then to the graph resolved with
// the faults started by then, each server to its own plan
// (resolveGraphSwitches, serverSet.adopt).
//
// A [[scenario.change]] is taken up at its tick as a chain's is
// (stoch.adopt): the run follows from then the graph resolved from the
// change's scenario, with the faults known then, so that changes and
// unforeseen faults take turns in time order. Each call follows its
// edge's new policy (attempts, timeout, backoff, breaker, hedge, and the
// budget with its scope) and each server its own new plan; a budget whose
// keys changed, or whose calls did with its scope, starts afresh, as does
// a breaker, and a call whose hedge changed gets a new hedger. A change
// may not alter the graph's shape: its services, its edges (from, to,
// share), how each service calls (calls, need, quorum) and which services
// have a server stay as the run started, and a setting that would alter
// them is refused by its key (graph_change.go), as are a server's keys
// fixed as the dependency's are (queue, latency_slope, network).
// TestGraphChange: raising a call's attempts from 1 to 3 at second 50, its
// server failing every call, makes 1 try per call before and 3 after, and
// the run from second 52 on is the run with 3 attempts from the start.
//
// A call to a service that serves it and calls no other may hedge
// (graph.edge.N.hedge), each such call with a hedger of its own, as a
// chain's bottom layer does; a copy of a call that fans out would copy
// its whole subtree, and is refused (TestHedgedFanOut: hedging each of
// three calls after 50 ms cuts the requests that time out from 2.0% to
// 0.17%, as the exponential answers' tails say). The tries of a call
// (<service>.tries) leave its hedges out; its server's calls count them.
//
// A graph has one network, dependency.network (a service's
// server.network is refused): every call crosses it each way, from the
// users into an entry point as from a caller to the service it calls, as
// a chain's calls cross it from each layer to the next. A call's tries
// reach the service called after the delay (an evDown: launch passes
// them down as it does without a delay, to the service's server or
// straight to the calls it makes), and its answers come back after
// another (reply); a request's deadline goes down with its calls, so a
// service reached after it makes none, and with cancel_abandoned neither
// does one reached by a call its caller gave up on while it crossed
// (TestGraphNetworkLatency, TestGraphNetworkTimeout,
// TestGraphNetworkDeadline, TestGraphNetworkCancel: through three edges
// of 100 ms with servers of constant latency, every request takes six
// delays and its path's latencies exactly). The backlog the run counts as
// drained, its first server's capacity times what is left of the entry
// edge's timeout, leaves out the network's way down to that server and
// back, as a chain's leaves out its way down the chain.
//
// A service's server may be a worker pool (server.workers), each
// pool freeing its workers in events of its own (TestGraphPools), and
// measuring itself as a chain's pool does: its service has the pool's
// means as columns of its own, <service>.in_system_mean, .wait_mean_s and
// .service_mean_s, averaged over the replicates that have them
// (TestGraphPoolMeans: pools of 50 workers holding a call 100 ms, at 100
// and 300 calls a second, wait 0 s and hold their load times their mean
// service time, some 10 and 30 calls, on average, as Little's law says;
// the mean service is 0.1 s but for the calls the run's end cuts short).
//
// Not modelled yet in a graph other than a chain, and refused by key:
// rng = "minstd",
// retry_at, the flat chain, budget.scope = "dependency", the queue health
// rule, initial.abandoned, flaky requests.
//
// # Healthy, recovered and the verdict
//
// Health is judged where the user is, at the edge of the chain. For a
// dependency with a waiting room and a user who gives up, healthy means
// that the calls waiting are at most capacity × (the top layer's timeout −
// the service latency − the network's round trip down the chain): a new
// request is answered before the user gives up, whatever a lower layer's
// longer timeout. Otherwise (a loss server, the congestive latency server,
// a user who waits forever) it means that the successes over the last
// health.window are at least health.goodput × the arrivals. A run has
// recovered when it is healthy from some time after the fault to its end;
// recovery_s counts from the fault's end (0 when the fault never made it
// unhealthy). A run that ends unhealthy is stuck or draining, as its
// backlog's trend over the run's last quarter says, and a run with nothing
// to judge after the fault is not judged (verdict.go, end_watch.go).
//
// # A tick of the queue engine
//
// New requests arrive, then the retries due now as far as the budget
// allows (a queue limit rejects the excess at once); the dependency serves
// up to its capacity, oldest first (or newest first); a call served within
// its caller's timeout is a success, one served later is wasted work
// (with drop_expired it is discarded instead); callers whose attempt has
// waited a whole timeout give up and retry in the next tick plus the
// backoff. Steady ticks are jumped over exactly, so an hour with millions
// of queued calls costs a few cohorts per tick. It reproduces the four rows
// of the 30-second blip article exactly (recovery 66 s, never, 95 s, 36 s).
//
// # Overload collapse
//
// Above capacity a server may do less useful work (dependency.collapse):
// with overload x = demand / capacity, demand being the calls waiting
// (demand = "queue") or the calls offered over window (demand =
// "offered"), the tick's capacity is multiplied by max(floor, 1 − slope ×
// (x − 1)) (collapse.go). Without it, a server that drops expired work
// drains after any blip under every policy, because every call it serves
// is useful.
//
// # Jitter steps
//
// Exact jitter splits a failing group over every tick of its wait; in a
// nested chain the parts cannot merge again (two tries sent at different
// ticks have different deadlines and callers), so after a few rounds the
// bottom layer holds groups of one call and a storm costs its count of
// calls. backoff.jitter_step is a named approximation: the wait is drawn
// in steps of that length and taken at the step's middle, so a group
// splits over range / step parts. It keeps the mean wait and the spread
// at the step's resolution; a step of a quarter or half of the backoff's
// base leaves the result columns within their replicate spread of the
// exact draws (TestJitterStepApproximates), and a coarser one is named by
// `stormlab validate`. Explore with steps; confirm a finding with exact
// draws.
//
// # Kinds and their registries
//
// Every part with several rules — arrivals, backoff, jitter, circuit
// breaker, concurrency limiter, retry budget, dependency, network delay,
// fault, health rule — has one registry of kinds in its file (budgetKinds
// in budget.go, breakerKinds in breaker.go, ...), listed by Families (kind.go). An entry
// is a Kind: the name a file writes, one line of doc, the engines that model
// it, and its own keys — a parameter struct whose toml and doc tags name
// and describe them, holding their defaults, with a bounds method declaring
// their ranges (a budget's, a breaker's), or the names of the keys of a
// table all its family's kinds share (a fault's capacity). Everything that
// lists kinds derives from the registries: the values Validate allows, the
// queue engine's support check, `stormlab keys` and the key reference in
// experiments/README.md, the report's scenario table, the explorer's form and the
// tests' lists. A registry is built once per process (sync.OnceValue) and
// shared, read only, as is the table of the scenario's parsed tags
// (field_tag.go): every run validates its scenario against them. A table
// whose kind owns keys of its own (a budget, a breaker, a concurrency
// limiter, a service-time law, an admission rule) holds its kind and its
// parameters as fields; the rules they follow (an empty kind, a kind's
// defaults, switching kind, the checks Validate makes) are its family's
// kindTable's (kind_table.go), which its KindTable methods call.
//
// # Adding a budget kind
//
// A retry budget kind is one file and one line. The file holds its
// parameters, its Kind, and its state, a type with the four methods of the
// budget interface (budget.go; one that follows time or the tick's
// arrivals also has ticker's tick). For example, a budget that lets a
// fixed number of retries through per run and then refuses every retry
// would be budget_fixed.go:
//
//	package model
//
//	// FixedParams are the keys of a fixed budget.
//	type FixedParams struct {
//		Retries float64 `toml:"retries" doc:"retries the run may make"`
//	}
//
//	func (p *FixedParams) bounds(dst []Bound) []Bound {
//		return append(dst, Bound{"retries", "", Range{0, 1e9, ""}, &p.Retries})
//	}
//
//	func fixedKind() budgetKind {
//		return budgetKind{Kind: Kind{Name: "fixed", Doc: "the first retries retries of a run pass, no other",
//			Engines: OnStochastic, Params: FixedParams{Retries: 100}}, make: newFixedBudget, more: "retries"}
//	}
//
//	// fixedBudget lets the first retries of a run through.
//	type fixedBudget struct{ left int64 }
//
//	func newFixedBudget(b *BudgetPlan, _ *rng) budget {
//		return &fixedBudget{left: int64(b.Params.(FixedParams).Retries)}
//	}
//
//	func (b *fixedBudget) send(retry bool, n int64) int64 { return n }
//	func (b *fixedBudget) succeed(int64, bool, bool)     {}
//	func (b *fixedBudget) end(bool, int64)               {}
//
//	func (b *fixedBudget) fail(k int64, timeout, last bool) int64 {
//		if last {
//			return 0
//		}
//		ok := min(k, b.left)
//		b.left -= ok
//		return ok
//	}
//
// and the line is its entry in budgetKinds:
//
//	fixedKind(),
//
// It is then usable in a file (budget = { kind = "fixed", retries = 50 }),
// printed by `stormlab keys`, checked by `stormlab validate` (its range;
// refused by name on the queue engine, which its Engines leave out), offered
// by the explorer's form, run at both ends of its range by TestBounds, and
// checked by TestBudgetsMonotone (a larger value of the key named by more
// never refuses more retries). A check function in its Kind takes the
// kind's own rules beyond its ranges (see finagleKind), and a test of its
// arithmetic step by step belongs in budget_test.go;
// cmd/stormlab's TestAddABudgetKind builds a copy of the module with this
// very file and line and finds the kind everywhere above. A server, a
// breaker or a concurrency limiter kind is added alike, as a file and an
// entry of serverKinds, breakerKinds or limiterKinds (a limiter's file
// holds its rule: its limit at a tick, and what the samples of the tries
// that end do to it).
package model
