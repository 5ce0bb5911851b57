// Package serve is stormlab's live explorer: one local web page over the
// same engines as stormlab run. A reader picks an experiment (and one of
// its policies), watches its run streamed second by second — offered load,
// goodput, retries as a share of traffic, queue, requests in flight and a
// status (healthy, overloaded, metastable, recovering) — injects faults and
// changes the retry policy while it runs, asks for the phase diagram around
// the point being explored, and exports what was found as an experiment
// file that stormlab run reproduces exactly.
//
// # A run and its file
//
// A live run is a setup (experiment, policy, seed, chain depth; a graph has
// none) and a list
// of timed interventions: a fault added at the moment it was asked for, or
// a [[scenario.change]] of policy keys. The run's file — the experiment it
// exports — is the one source of what it is: the server writes it, reads it
// back with the experiments loader (which validates an intervention exactly
// as it validates a file) and runs the plan the loader makes.
//
// # The engine: a run resumed, never redone
//
// Each run holds a live engine (model.Stepper) over its file at the
// longest a run may last, standing at the last row streamed. The stream
// advances it as rows fall due: one row at a time at 1× and 10×, a frame's
// batch at full speed. An intervention replans it at that row: the engine
// goes on under the new plan as the file with the intervention runs from
// the start, so an intervention costs the run from then on, never its
// past. A fault added live is unforeseen (model/unforeseen.go): the run
// takes it up at its start, as it takes up a change, and the exported file
// marks it so; stormlab run on the export gives the rows streamed, byte for
// byte. If the engine is lost (its page went while it ran), it is built
// again from the file and run to the row streamed.
//
// # Bounds
//
// A run takes at most 100 interventions (answered with that limit), may
// last 15 simulated minutes, and is refused when its state could outgrow
// 256 MB (the engine's estimate from above). Every stretch of simulation
// has a deadline (20 s) and ends with its page's stream: closing the run
// or the page stops it; a phase diagram has two minutes and ends with its
// run. Request bodies must arrive within 5 s. At most 16
// runs live at once, each ended a minute after its page goes.
//
// # The real stack
//
// POST /api/runs/{id}/lab (optional body {"speed": X}) runs the run's
// file as its export gives it — over the experiment's length or the rows
// streamed, if longer, with every fault and change made so far, the faults
// added live planned from the start — on the real stack (the lab package:
// gRPC services on loopback), its load seeded as the model's run of the
// file is, at X times the scenario's speed (default: the experiment's
// [lab] speed, else 1). It answers 202 and sends "lab" events: the lab's
// series so far, second by second, which the page draws over the model's;
// at its end the lab's verdict beside the model's on the same file, with
// a note when the real stack fell behind the model's ticks, or in words
// why there is none (the machine could not keep up, by the lab's own
// checks). A scenario the lab cannot run is refused (400) with the lab's
// reason. One lab run at a time per server (another is answered 503); it
// stops with POST /api/runs/{id}/lab/stop, a reset, or the run's end.
//
// # Transport
//
// The page reads its run's events (state, rows, end, problem, around) over
// a WebSocket, GET /api/runs/{id}/socket, each a JSON document {"event":
// name, "data": ...}. A browser holds at most six HTTP/1.1 connections to
// a host; a Server-Sent Events stream per tab held one each, and a seventh
// tab received nothing. WebSockets are not counted among the six, so every
// tab streams; the same events stay available as Server-Sent Events at
// GET /api/runs/{id}/events for other clients.
//
// # Errors
//
// Bad input is answered 400 with one line: the loader's message, with the
// exported file's line and key, for API users. The page asks for JSON
// (Accept: application/json) and gets {"field": ..., "message": ...}: the
// field as its request named it ("length", "seed", "budget.max_tokens")
// and a sentence without a file, line or Go type, which it shows beside
// that field until the field changes. Values a run cannot mean are refused
// with what would be taken: a fault of no length or longer than what is
// left of the run, a degradation not below the capacity, a slowdown or a
// spike not above 1, a spike that could make more calls than a live run may
// (1e9, by the engine's bound from above; the largest factor taken is
// named).
//
// # The page
//
// Each marker is a numbered badge on the first chart (badges close
// together stack; none leaves the plot) with its text in the list under
// it. A tab remembers its run (sessionStorage): a reload attaches to the
// same run, which waits 5 s for it after its page goes (close?soon). The
// phase diagram around the point sweeps the length of the run's fault —
// the last one injected, else the experiment's own, else an outage.
//
// # A setup the markov engine solves
//
// A markov experiment (or policy) is a chain solved, not a run: it has no
// series to stream, no fault to inject and no policy to change while it
// runs, and POST /api/runs refuses it, naming what gives its results. The
// experiment list names the setups the markov engine solves (solved); for
// them the page asks POST /api/solve (a setup, and "cell": the index of
// one of its grid cells, 0 for the first) and shows, in place of the run,
// the chain's verdict, the markov_* columns stormlab run writes for that
// cell and the stationary distribution of the calls at the server, with a
// choice of cell and the command that sweeps the whole grid.
//
// # A service graph
//
// A scenario that describes a service graph (scenario.graph) streams as a
// chain's does: the same Stepper, over the graph's plan. Its state carries
// "graph", the drawing's description — the services in the file's order
// (name, whether it has a server of its own, that server's capacity, how
// it makes its calls) and the edges (from, "" for the users' entry point,
// to, attempts) — and, but in a graph of one path (which runs as the chain
// it is, per_service false), each row carries "services": each service's
// calls made to it, succeeded, failed for good, tries, its server's queue
// and whether its health held over the row (model.Stepper's Services, the
// rows of Series.Services). The row's own calls, retries and queue then sum
// every server's, its status is the users' at the entry point, weighed
// without a capacity (each server has its own), and the page says so. The
// page draws the graph as SVG (services as boxes in columns by their depth
// below the users, calls as arrows from caller to callee) and colours each
// box by that service's health in the last row, its numbers in the box and
// on hover, outlining the boxes a fault added hits ("fault_on" gives the
// service of each of the state's "faults"). It has no chain depth (a setup's layers is refused, by the
// loader: a graph replaces the chain). Its policy changes as a chain's
// does, by the experiment's policies or by keys, each edge's keys under
// graph.edge.N (the form's caller keys on the edge picked, by caller →
// callee, or on every edge), a server's under graph.service.N.server (the
// form's capacity and drop expired work on the service picked: a change
// of graph.service.N.server.drop_expired, as the chain's control is one of
// dependency.drop_expired, each server then dropping the calls waiting at
// it by its own setting), and the budget's with its scope
// (edge, caller or callee); the state's graph then draws each edge's
// attempts in force. The export writes the change as a
// [[scenario.change]], which the model takes up at its tick as the live
// engine did (model: "Service graphs"); a change that would alter the
// graph's shape (its services, who calls whom, how) is refused naming its
// key. A fault names the service whose
// server it hits (fault.service: the page offers the services with a
// server; a spike names none, and with one server a fault may leave it
// out), checked by the loader as a file's is; a degradation is checked
// against that server's capacity. Added live, it is unforeseen, as a
// chain's: the graph's run switches at its start to the graph resolved
// with it, each server taking up its own plan (model/unforeseen.go), so
// the export, which writes fault.service, runs as the live run ran, the
// services' rows and series.csv's <service>.<column> columns included (a
// worker pool's waits too: the drawing's "pool" marks such a service). The
// phase diagram around the point sweeps the last fault's length on the
// service it hit; in a graph of several servers, before any fault, it asks
// for one. The real stack (lab) refuses a graph of fan-out or several
// servers, by name.
//
// # Who may call it
//
// A request addressed to a name other than a loopback address, localhost
// or a name in Options.AllowHosts is refused (400), wherever the server
// listens, and so is one from a page of another site (its Origin, 403):
// a web page elsewhere cannot reach the server through a name it rebinds
// to this machine.
//
// The page is embedded (assets/, with uPlot vendored under assets/vendor),
// works offline, and each browser tab gets its own run. The server writes
// nothing: exports are downloads.
package serve
