// Package plots renders an experiment's figures for design reviews, with
// gonum/plot, in memory, at slide size: a 16:9 PNG of 1600 × 900 px and the
// same drawing as SVG. Every figure has a title, a subtitle and a caption of
// the key parameters of its cells, axis labels with units and a legend in a
// column on the right; some kinds also say what they find, for the report.
//
// A figure is drawn from plain data, in the spirit of gonum's plotter.XYer:
// a Table holds the grid's axes, a row per cell (its values on the axes,
// its model.Result and its Facts, the key parameters as the cell's resolved
// plan states them: the healthy queue limit, the rule of thumb, the fault
// window, the attempts a request may make, the timeout the user waits) and
// the result columns a figure may draw. Table.Draw and Table.Findings take
// it as it is, so a kind can be drawn and tested from numbers. Render,
// Findings, Check, Spans and Tipping take a grid and its results instead:
// adapter.go, the one file that reads a grid's cells and their plans,
// builds the tables for them.
//
// # Kinds of figure
//
// A [[figure]]'s kind names one of these. Kinds is the registry, the one
// list of them: this list, spec.Figure.Kind's doc and experiments/README.md's list are
// written from it (go test ./plots -run TestKindLists -update), and a test
// fails when one of them disagrees.
//
//   - "phase" (x (numeric), y (numeric); optional: panel): the metastability
//     phase diagram: a rectangle per cell over two numeric axes coloured by
//     the metric (recovery_s unless another is named), cells stuck, still
//     draining or not judged in colours of their own, a panel per value of
//     panel; rule_of_thumb = true adds blip ≈ capacity × timeout / load
//   - "lines" (x (numeric), line; optional: panel): the metric against a
//     numeric x, a line per value of line, a panel per value of panel; cells
//     without a value sit in a band above the top
//   - "bars" (x; optional: line, panel): the metric as bars, a group per
//     value of x (names or numbers; cells beside the grid last), a bar per
//     value of line, a panel per value of panel; replicates as means ± one
//     standard deviation
//   - "series" (no axes): for each cell that records a series: calls per
//     second at the dependency with its capacity above its queue with the
//     healthy limit, fault windows shaded; band = true draws replicates as
//     their mean and 10th–90th percentile
//   - "hysteresis" (no axes): goodput and health against the load offered, on
//     a load shape that rises and then falls: the way up solid, the way down
//     dashed, the loads at which the system tipped and came back marked
//   - "collapse" (x (numeric); optional: line): the time to collapse without
//     a fault (collapse_s) against a numeric x on a log scale, a line per
//     value of line, beside the share of replicates that collapsed
//   - "graph" (optional: x): a service graph's diagram, one per value of x
//     (at most 6): each service coloured by its verdict (the column
//     service.verdict), each call's arrow by its tries per user request (the
//     column from.to.tries, and the entry service's tries for the users'
//     call, over requests); for a [scenario.graph] of more than one path
//     whose results have the per-service verdicts; metric is not read
//
// # Files
//
// Each kind is a type in a file of its own that draws (phase.go), beside a
// file of what it says, its title, caption and findings (phase_text.go).
// The regions figure of a boundary search (regions.go) is drawn from the
// experiment's searches rather than a [[figure]]. A graph figure's
// diagrams are plain data too (Diagram, diagram_layout.go, drawn by
// diagram_draw.go), which graph_table.go reads from a table's cells: the
// graph from their facts, the states and tries from their columns.
// outcome.go holds the verdicts in words and colours, one place for
// "stuck", "still draining", "not judged" and "aborted".
//
// # Axes
//
// Phase and lines figures place an axis's values by index (evenly spaced,
// not to scale, ticks labelled with the values: "10ms", "250ms", "1s") when
// they are uneven, the largest gap between neighbours more than three times
// the smallest; the axis label and the caption say so. Even grids (load
// 50..95 step 1) stay linear, and curves drawn in the axes' units, such as
// the rule of thumb, pass through the same placement. Tick labels never
// overlap: those of an axis placed by index alternate between two lines
// where that is enough, and labels are thinned otherwise.
//
// The same inputs always give the same bytes, so rendered figures can be
// committed and compared; each kind has a golden image in testdata.
package plots
