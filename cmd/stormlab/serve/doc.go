// Package serve is stormlab's live explorer: one local web page over the
// same engines as stormlab run. A reader picks an experiment (and one of
// its policies), watches its run streamed second by second — offered load,
// goodput, retries as a share of traffic, queue, requests in flight and a
// status (healthy, overloaded, metastable, recovering) — injects faults and
// changes the retry policy while it runs, asks for the phase diagram around
// the point being explored, and exports what was found as an experiment
// file that stormlab run reproduces exactly.
//
// A live run is a setup (experiment, policy, seed, chain depth) and a list
// of timed interventions: a fault added at the moment it was asked for, or
// a [[scenario.change]] of policy keys. The engines are deterministic for a
// seed, and nothing a scenario holds after a moment changes the run before
// it, so the server keeps no engine state: it writes the run as the
// experiment file it would export, reads it back with the experiments
// loader (which validates an intervention exactly as it validates a file)
// and simulates it ahead of the page, from the start, in chunks. When an
// intervention arrives at second t the run is simulated again with it; the
// seconds before t come out as they were and streaming goes on from t.
//
// The page is embedded (assets/, with uPlot vendored under assets/vendor),
// works offline, and each browser tab gets its own run. The server writes
// nothing: exports are downloads.
package serve
