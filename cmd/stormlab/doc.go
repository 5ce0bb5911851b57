// Stormlab runs retry-storm experiments. An experiment is a TOML file: a
// scenario (callers and their retry policies, a dependency, a fault) and a
// grid over any of its parameters. stormlab runs every cell of the grid as
// a seeded simulation on a worker pool and writes, per experiment,
// results.csv, report.md and figures: phase diagrams (where the system
// tips, where it recovers, how long it takes) and time series.
//
// Usage:
//
//	stormlab run [-out DIR] [-j N] [-figures=false] [-refine] [-max-memory SIZE] [-shard K/N|auto] [-set PATH=VALUE ...] FILE.toml ...
//	stormlab merge [-out DIR] [-figures=false] [-j N] SHARD_DIR ...
//	stormlab check [-j N] [-max-memory SIZE] [-baseline DIR] [FILE.toml ...]
//	stormlab validate [-set PATH=VALUE ...] FILE.toml ...
//	stormlab keys
//	stormlab serve [-addr HOST:PORT] [-allow-host NAME,...] [FILE.toml ...]
//	stormlab import [-o FILE] [-format NAME] FILE ...
//	stormlab lab [-out DIR] [-speed X] [-figures=false] [-set PATH=VALUE ...] FILE.toml ...
//
// Flags may come before, between or after the files. "stormlab COMMAND -h"
// prints a command's flags and examples in short and exits 0; this manual
// is the whole of it, printed by "go doc ./cmd/stormlab" at the root of a
// checkout, or "go doc github.com/stormlab/stormlab/cmd/stormlab" anywhere
// in it. In a checkout, "make build" leaves the command at bin/stormlab,
// and "make install" puts it on the PATH.
//
// Every command loads and checks all its files (every key, every grid cell,
// every figure) before it runs anything, so bad input writes nothing.
//
// # stormlab run
//
// Run runs every cell of each experiment and writes DIR/<name>/:
// results.csv (a row per cell, in grid order), series.csv for cells that
// record a time series, tipping.csv for an experiment with a [tipping]
// search, report.md, each figure as PNG and SVG, and a .stormlab marker;
// then the index DIR/README.md. report.md records the command that
// regenerates it, with every -set. A line on stdout per experiment says
// how many cells and searches it ran, in how long, and where it went. The
// warnings its cells carry, cells stopped at the memory cap, and claims of
// its findings that its results do not bear out go to stderr, as report.md
// lists them in its notes.
//
// Flags:
//
//   - -out DIR: write under DIR. Without it, DIR is reports for a run that
//     regenerates its reports whole and out for one that does not (see
//     Where reports go). An empty -out is bad usage.
//   - -j N: simulate up to N cells at once; the default is the number of
//     CPUs. Results never depend on it, except which cells stop at the
//     memory cap. Less than 1 is bad usage.
//   - -figures=false: write the CSVs and report.md without figures, the
//     fastest way to the numbers.
//   - -refine: run every cell again at half its tick and report the
//     verdicts that change (see Refining the tick).
//   - -max-memory SIZE: bound the memory the process takes (see Memory).
//   - -shard K/N|auto: run only shard K of N of the cells and write a shard
//     folder for stormlab merge (see Shards and merge).
//   - -set PATH=VALUE: override a key of the files, repeatable (see
//     Overrides).
//
// Examples:
//
//	stormlab run experiments/blip-30s.toml
//	stormlab run -j 1 -out /tmp/r experiments/blip-*.toml
//	stormlab run -set scenario.dependency.capacity=110 -set 'grid.budget=[0, 0.1]' experiments/budget-headroom.toml
//	stormlab run -set scenario.layer.0.timeout=2s experiments/blip-30s.toml
//	stormlab run -set grid.blip=5s experiments/blip-phase.toml   # one blip length
//	stormlab run -refine experiments/blip-30s.toml
//
// # Where reports go
//
// DIR defaults to reports for a run that regenerates a report whole, as
// "stormlab run FILE.toml" does. A run that does less never replaces a
// committed report: with -set (it changes the files), -shard (a part of
// the cells), -figures=false (no figures) or -refine (more columns), DIR
// defaults to out, which git ignores, and the run says so on stderr. An
// experiment whose cells or searches stop at the memory cap is found
// partial only when it has run; it is then written under out too, with a
// line on stderr. -out DIR writes where it says in every case.
//
// stormlab writes only into folders it made. An existing DIR/<name>
// without the .stormlab marker (a source folder, .git, anything else) is
// refused with exit code 2 and nothing is removed; so is an existing
// DIR/README.md whose first line is not the index's marker (an HTML
// comment naming stormlab), so "run -out ." in a project refuses to touch
// its README. stormlab checks all this, and that DIR is a folder it can
// write in or create, before it simulates anything. Folders are written
// beside the old ones and swapped in by rename: an interrupted run never
// leaves a half-written baseline, and a write that fails leaves nothing
// behind.
//
// An experiment's name is its file's name without .toml, unless the file's
// name key says otherwise: a letter or digit, then letters, digits, "-",
// "_" or ".", at most 100 of them, and neither testdata nor README.md (in
// any case). Two files of one name in a command are bad input.
//
// # Overrides
//
// -set PATH=VALUE (run, validate) overrides any key of the file by its
// dotted path: seed=9, scenario.load=80, scenario.layer.0.timeout=2s,
// policy.1.attempts=9, grid.load=90 (an axis set to one value becomes a
// single cell), grid.blip=[5, 10]. VALUE is read as a TOML value, or as a
// string when it is not one (30s, fifo). A bare scenario key (load=80)
// means scenario.load. An entry of a list of tables (layer, fault, policy)
// is named by its index, however the file writes the list; the index one
// past the end adds an entry. A flag is one PATH=VALUE on one line: a
// value with a line break is refused (exit 2), since TOML would read its
// other lines as keys of their own. "stormlab keys" lists the scenario's
// keys.
//
// # Refining the tick
//
// -refine runs every cell again at half its tick and adds the verdict
// there to results.csv (refined_recovered, refined_recovery_s,
// tick_flip); report.md lists the cells whose verdict changes, which hang
// on the tick rather than on the system, and the line on stdout counts
// them. Halving keeps every span that was a whole number of ticks one
// (the queue engine needs that); a tick of an odd number of nanoseconds,
// or a run that would exceed 100,000,000 ticks at half the tick, cannot be
// refined and is bad input.
//
// # Memory
//
// -max-memory SIZE (run, check) bounds the memory the process takes
// beyond its baseline, what it holds before the first cell starts (the
// binary, the runtime, the loaded experiments). SIZE is a number and a
// unit: 500MB, 2GB (1 MB = 2^20 bytes; KB, MB, GB, TB, or KiB, MiB...) or
// a bare number of bytes; 0 is no cap. The default is half the machine's
// memory (MemTotal in /proc/meminfo, 8 GB assumed where there is none).
//
// The Go runtime's memory limit is set to SIZE above the baseline, so the
// collector works harder rather than let the heap pass it, and the cells
// running at once (-j, or fewer when the sweep has fewer cells) share SIZE
// equally. What counts against a cell's share is its simulation state as
// the engines count it (groups of calls, scheduled events, queued calls,
// cohorts, series rows), times 1.5 for what the heap holds beyond that
// count (lists grown by doubling, buffers kept for reuse), times 2 for the
// collector's room: each cell may hold a third of its share as state.
//
// A cell that reaches its share stops there: its row in results.csv has
// every metric empty and the reason in an aborted column, report.md lists
// it in its notes, stderr says how the cap was shared, the other cells run
// to the end, everything is written (under out, see Where reports go) and
// the exit code is 1. A boundary search whose cell reaches it stops as
// aborted. Since the share follows -j, which cells stop, and when, can
// depend on it. stormlab validate estimates each experiment's worst cell
// beforehand.
//
// # Progress and interrupts
//
// A progress bar appears on stderr when it is a terminal and a sweep (or
// an experiment's searches) takes over a second; stormlab is quiet
// otherwise. Ctrl-C stops a run within a tick of simulated time, even
// inside one huge cell: the experiments already finished stay written,
// with their index, the others keep their old folders, and the exit code
// is 130. A second Ctrl-C kills the process.
//
// # Shards and merge
//
// A large grid, such as a phase diagram with 20 replicates per cell at
// 10,000 requests/s over an hour, is tens of CPU-hours. stormlab does not
// run a cluster of its own: it splits an experiment into shards that the
// batch engines already at hand start as N copies of one command with an
// index (a Kubernetes Indexed Job, a Slurm job array, a CI matrix), and
// merges them back into exactly what a single run writes:
//
//	stormlab run -shard 0/2 experiments/blip-phase.toml   # on one machine: writes out/blip-phase.shard-0-of-2/
//	stormlab run -shard 1/2 experiments/blip-phase.toml   # on another:     writes out/blip-phase.shard-1-of-2/
//	stormlab merge out/blip-phase.shard-0-of-2 out/blip-phase.shard-1-of-2
//
// "run -shard K/N" runs shard K (counted from 0) of N of each experiment's
// cells and writes DIR/<name>.shard-K-of-N/ (DIR is out unless -out says
// otherwise), and no report. -j, -set, -refine and -max-memory work as
// without it; -figures belongs to the merge and is bad usage here. The
// boundary searches of a [tipping] section are not sharded: merge runs
// them.
//
// Which cells a shard runs is fixed by the grid and N alone, so every
// machine computes the same split: cells are dealt most expensive first
// (the model's estimate: ticks × replicates), each to the shard with the
// least estimated work so far, and cells of equal estimate in the order of
// a hash of their parameters rather than in grid order, since neighbouring
// cells tend to cost alike in ways no estimate sees (past a tipping point
// a storm never recovers and costs many times a cell that does). With
// equal estimates the deal is round-robin, so shards differ by at most one
// cell.
//
// A shard folder holds shard.json (experiment, file, K and N, cell counts,
// -set values, flags, the stormlab build and the fingerprint),
// experiment.toml (the file as the shard read it), rows.csv (the shard's
// results.csv rows, each led by its grid index in a cell column) and
// results.gob (every number exactly, for the merge: six decimals of CSV
// would not redraw the same figures). The fingerprint is a SHA-256 of the
// file's content, the -set values, the flags that shape the results
// (-refine, -max-memory) and the build (module version, commit, Go
// release, platform; and the executable's hash when no clean commit is
// recorded), since the bytes of a number are only promised for one build.
//
// A rerun skips a shard whose folder is complete with the same fingerprint
// (its results match its manifest and no cell stopped at the memory cap),
// so a preempted array redoes only what was lost.
//
// -shard auto takes K and N from the environment, and only when asked:
// from a Kubernetes Indexed Job, JOB_COMPLETION_INDEX with the Job's
// completions in STORMLAB_SHARD_COUNT (Kubernetes gives a pod its index
// but not the count, so the manifest sets it); from a Slurm job array,
// SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT
// (one range with step 1, such as --array=0-3 or 1-4). Without them it is
// exit 2. A run without -shard in such an environment runs every cell and
// says so on stderr. A CI matrix passes -shard K/N itself. The folder
// cmd/stormlab/recipes holds a Kubernetes Indexed Job and its merge Job, a
// Slurm array and its merge script, and a GitHub Actions matrix; the
// command's tests run each recipe's commands with the variables its engine
// sets, against a single run byte for byte.
//
// # stormlab merge
//
// Merge checks that the folders are every shard of one run: one experiment
// and file, the same N, build, content, -set values and flags, each
// folder's fingerprint matching what it holds, each shard exactly once. A
// shard missing or given twice, shards of two experiments or of different
// -set values, a different build: exit 1, one line naming the problem and
// the folders, and nothing written. It then writes DIR/<name>/ and
// DIR/README.md byte for byte as "stormlab run" with the same file, -set
// values and flags (and -out DIR, when given) writes them, running the
// experiment's boundary searches itself. The experiment file is not
// needed: each shard holds a copy.
//
// Flags:
//
//   - -out DIR: write under DIR. Without it, DIR defaults as for run:
//     reports, or out when the report is not whole (shards run with -set or
//     -refine, -figures=false, cells stopped at the memory cap). An -out
//     whose report folder would hold a shard merged is bad usage.
//   - -figures=false: write the CSVs and report.md without figures.
//   - -j N: run the experiment's boundary searches on up to N cells at
//     once; the default is the number of CPUs.
//
// Examples:
//
//	stormlab merge out/blip-phase.shard-*-of-2
//	stormlab merge -out /tmp/r -figures=false out/blip-phase.shard-*-of-2
//
// # stormlab check
//
// Check regenerates each experiment (default: every experiments/*.toml)
// and compares its results.csv, series.csv and tipping.csv with the
// baselines in DIR/<name>/: numbers within the experiment's tolerance,
// booleans and text exactly. It prints a line per experiment, then every
// deviation (experiment, file, cell, column, baseline, now), and exits 1
// if there is any. An experiment without a baseline folder gets one line
// saying how to create it ("stormlab run FILE.toml", then commit
// reports/<name>), and exit 1.
//
// Flags:
//
//   - -baseline DIR: compare with the baselines under DIR (default
//     reports). A folder that does not exist is bad usage.
//   - -j N: simulate up to N cells at once; the default is the number of
//     CPUs.
//   - -max-memory SIZE: bound the memory the process takes, as for run
//     (see Memory).
//
// Examples:
//
//	stormlab check
//	stormlab check experiments/blip-30s.toml
//
// # stormlab validate
//
// Validate parses and validates each experiment (every key, every grid
// cell) without running it, and prints what running it takes: its cells,
// the ticks they simulate and the live state of its worst cell (an
// estimate from above, to hold against -max-memory, with a line when it is
// more than a cell's share of the default at the default -j). It names
// every span shorter than a few ticks, where a verdict may hang on the
// tick ("stormlab run -refine" shows whether it does), and every
// jitter_step coarser than half its backoff base, beyond which that
// approximation is untested.
//
// Flags:
//
//   - -set PATH=VALUE: override a key of the files, repeatable, as for run
//     (see Overrides).
//
// Example:
//
//	stormlab validate experiments/*.toml
//
// # stormlab keys
//
// Keys prints the scenario key reference, generated from the code, as
// Markdown. It takes no arguments.
//
// Example:
//
//	stormlab keys
//
// # stormlab serve
//
// Serve serves the live explorer, one local page over the same engines:
// pick an experiment (default: every experiments/*.toml, which it reads
// once; a page names an experiment, never a file) and one of its
// policies, watch the run second by second, fail the dependency or change
// the retry policy while it runs, ask for the phase diagram around the
// point reached, and export the run as an experiment file that stormlab
// run reproduces exactly, with its series.csv and its chart. It writes
// nothing: the exports are downloads. It gives each browser tab its own
// run (a reload comes back to it), runs at most 16 at once, ends a run a
// minute after its page goes, stops a run at 15 simulated minutes, takes
// at most 100 faults and changes per run, each costing the run from then
// on, and refuses one whose run could outgrow 256 MB or make more than
// 1e9 calls (the engine's estimates from above). A markov experiment or
// policy has no run to stream (its engine solves a chain): the page shows
// its chain instead, for any cell of its grid — the verdict, the markov_*
// columns stormlab run writes for that cell and the stationary
// distribution of the calls at the server. A service graph's run is
// streamed as a chain's, with a drawing of the graph (the users, a box per
// service, an arrow per call) whose boxes are coloured by each service's
// health as the rows come, and a fault may hit any service with a server
// (the export writes its fault.service), and the policy form changes the
// edge picked (caller → callee) or a service's server. Ctrl-C stops it.
//
// Flags:
//
//   - -addr HOST:PORT: listen there (default 127.0.0.1:8080). A host other
//     than a loopback address or localhost (0.0.0.0, :PORT, [::]) opens
//     the page to the network: serve prints the address it listens on and
//     a warning. An address it cannot listen on is bad usage.
//   - -allow-host NAME,...: the names, besides 127.0.0.1, ::1 and
//     localhost, that a request may be addressed to. Wherever it listens,
//     the server refuses any other name in a request's Host (and a page
//     of another site by its Origin), so that a web page elsewhere cannot
//     reach it through a name it controls.
//
// Examples:
//
//	stormlab serve
//	stormlab serve experiments/server-60.toml
//	stormlab serve -addr 127.0.0.1:9000 experiments/*.toml
//
// # stormlab import
//
// Import translates the retry configuration a team ships into scenario
// keys: a gRPC service config (JSON: methodConfig's timeout, retryPolicy
// and hedgingPolicy, retryThrottling), an Envoy bootstrap's static
// resources, or a route configuration, virtual host or route with the
// clusters it sends to (YAML or JSON:
// retry_policy, the route timeout, circuit_breakers' retry_budget and
// max_retries), an Istio VirtualService (http[].retries and timeout), a
// Linkerd ServiceProfile (routes' isRetryable and timeout, retryBudget) or
// an AWS shared config file (retry_mode, max_attempts). Each file's format
// is told from its content unless -format names it; a YAML file may hold
// several documents, and the files of one command are read together, so
// an Envoy route finds its cluster in another file.
//
// It prints a [[policy]] table per caller the files set up (a gRPC method
// config, an Envoy or Istio route, a Linkerd route, an AWS profile), to
// paste into an experiment on the stochastic engine: the keys of the edge
// layer (layer.0), the budget and the deadline, each under a comment
// naming the fields it comes from (file:line:column, the field and its
// value, or "unset" and the default that applies) and the published
// semantics it follows, where they differ from stormlab's; then a comment
// line per field that stormlab does not model, saying why. No field is
// dropped: one that no translation reads is named too. AWS settings are
// named without their values, since the file may hold credentials. The
// mapping, field by field, is the section "Importing real configuration"
// of experiments/README.md. Before it prints anything, import loads the
// experiment the keys make, as stormlab validate does.
//
// Flags:
//
//   - -o FILE: write a whole experiment file instead, a placeholder system
//     (load, dependency, a 10 s outage) with the imported policies as its
//     policy axis, which stormlab validate accepts; set the system to
//     yours. FILE must not exist: import writes a new file only, and
//     whole (written beside it, then linked into place), making its folder
//     if need be.
//   - -format NAME: read every file as grpc, envoy, istio, linkerd or aws.
//
// Bad input (a syntax error, a field the format does not have, a value out
// of its range, a file of no known format) is one line naming the file,
// line:column, the field and what is allowed, and exit 2, with nothing
// written:
//
//	stormlab: grpc.json:9:9: methodConfig[0].retryPolicy.maxAttempts: must be 2 or more (gRFC A6; gRPC takes a value above 5 as 5), got 1
//
// Examples:
//
//	stormlab import experiments/importer/testdata/grpc.json
//	stormlab import experiments/importer/testdata/envoy-route.yaml experiments/importer/testdata/envoy-clusters.yaml
//	stormlab import -o out/imported.toml experiments/importer/testdata/istio.yaml
//	stormlab import -format aws experiments/importer/testdata/aws-config
//
// # stormlab lab
//
// Lab runs an experiment's cells on a real stack on loopback, in real time,
// beside the model, and writes DIR/<name>/lab/: lab.csv (results.csv's
// columns measured on the real stack, a row per cell run, led by its grid
// index in a cell column), series.csv (the lab's per-second series), a
// figure per cell with the model's series and the lab's overlaid (PNG and
// SVG), and report.md, which sets each compared column's two values side
// by side with its tolerance and why, says how well the machine kept up,
// and lists where the real libraries' semantics differ from the model's
// kinds. It runs the cells the file's [lab] section selects (every cell
// without one; experiments/README.md describes the section) and compares
// the columns it names; a line on stderr per cell says how many agree, and
// a line on stdout per experiment where it went. A disagreement is
// reported, not an error.
//
// The stack: each layer of the chain below the edge is a gRPC service
// (grpc-go) whose handler calls the layer below; every layer's client
// retries with failsafe-go's retry policy (the model's waits, jitter
// included) and circuit breaker, composed per try or per call as the
// breaker's placement says; a per-try timeout is a gRPC deadline on each
// try; a budget of kind grpc is gRPC's own retryPolicy and retryThrottling
// from a generated service config, and every other budget kind is the
// model's own, asked by the client one try at a time. A hedging layer runs
// each try through failsafe-go's hedge policy (grpc-go has no hedging: it
// ignores a service config's hedgingPolicy): one copy after the hedge
// delay, the first success winning and the loser's call cancelled, the
// delay (fixed, or a percentile of recent successes) and the cap on the
// hedges' share the model's own hedger's, each hedge charged to the retry
// budget as the model charges it. The dependency is a gRPC server serving
// the scenario's capacity tick by tick (its faults, slowdowns and
// degradations included, queue discipline and limit, expired work dropped
// or served, collapse law) and answering after its service latency in
// whole ticks; the network delay is a sleep before each hop handles a call
// and before its answer goes back; the load is a generator of the
// scenario's arrivals (open loop, its load shape included, or closed loop:
// a client's next request a think time after its answer). Callers abandon
// work below them only where the scenario cancels it. An answer not to
// retry is INVALID_ARGUMENT (the scenario's fatal share of the
// dependency's errors) or UNAVAILABLE with gRPC's grpc-retry-pushback-ms
// trailer at −1 (its pushback); a layer passes either on up, and no caller
// retries it. What the lab cannot run yet (the queue engine, the latency
// server, hedging or pushback with gRPC's retry throttling, changes of
// anything but the callers' policies, a service graph with fan-out or
// several servers) is refused with exit code 2, by
// name, before anything runs.
//
// A run the machine cannot keep up with is not reported: when the load
// generator starts a tick's requests later than a quarter of the user's
// per-try timeout at its 99th percentile, or later than the whole timeout
// at worst (in the scenario's time), or the process takes 95% of the
// machine's CPU, lab writes nothing, says why, and exits 1. Every call
// carries the tick the model has it reach its server in, and every answer
// the tick the model has its caller see it in (the network's delays
// added); the report says how many came in a later tick, and how late. The
// model's hops take no time, so a count that follows from the order of
// events within a tick (which retry a budget pays for, which call finds a
// breaker open) is the model's only while none does.
//
// Flags:
//
//   - -out DIR: write DIR/<name>/lab/ (default out, which git ignores).
//     DIR/<name> is created when missing; one stormlab did not write is
//     refused (exit 2).
//   - -speed X: run the scenario X times faster, every span divided and
//     every rate multiplied; the default is the [lab] section's speed, or
//     1. From 0.01 to 1000.
//   - -figures=false: write the CSVs and report.md without figures.
//   - -set PATH=VALUE: override a key of the files, repeatable, as for run
//     (see Overrides).
//
// Examples:
//
//	stormlab lab experiments/one-hop.toml
//	stormlab lab -speed 0.5 experiments/chain-breaker.toml
//	stormlab lab -figures=false -out /tmp/lab experiments/one-hop.toml
//
// The FIG. 1 experiments (server-60, switch-to-budget) run their [lab]
// cells at speed 5, two minutes of real time, and need a machine that is not
// busy with other work: on one that is, the generator falls behind and the
// run is refused.
//
// # Exit codes
//
//   - 0: ok (and -h, which prints a command's usage).
//   - 1: a failure, a deviation from the baselines, an experiment without
//     a baseline, cells stopped at the memory cap, shards that do not make
//     one run, a lab run the machine could not keep up with.
//   - 2: bad usage or bad input only, and nothing is written.
//   - 130: interrupted by Ctrl-C.
//
// Bad input gets one line naming the file, line:column and key (with the
// nearest valid key for an unknown one):
//
//	stormlab: experiments/x.toml:7:12: scenario.dependency.capacity: must be a number from 0 to 1e+09 calls/s, got -5
//	stormlab: experiments/x.toml:3:1: grid: load (46) × blip (61) × policy (4) expand to 11224 cells, more than max_cells = 10000; use coarser steps or raise max_cells
//	stormlab: experiments/x.toml:4:1: scenario.laod: unknown key (did you mean "load"?); [scenario] accepts engine, tick, duration, load, ...
package main
