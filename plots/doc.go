// Package plots renders an experiment's figures for design reviews, with
// gonum/plot, in memory, at slide size: a 16:9 PNG of 1600 × 900 px and the
// same drawing as SVG, from a sweep.Grid, its results and spec.Figure
// requests. Every figure has a title, a subtitle and a caption of the key
// parameters of its cells, axis labels with units and a legend in a column
// on the right. What a figure says about the scenario (the healthy queue
// limit, the rule of thumb, the fault window, the attempts a request may
// make, the timeout the user waits) is what the cells' resolved plans say.
//
// Each kind of figure is a type of its own (kinds.go lists them) that holds
// the axes it needs, the cells it draws, its drawing, and its findings for
// the report:
//
//   - "phase": the metastability phase diagram. One rectangle per cell over
//     two numeric axes (spanning halfway to its neighbours), coloured by a
//     metric on one sequential scale shared by all panels (log scale when
//     the values span orders of magnitude), "never recovers" in red, one
//     panel per value of a third axis, and optionally the rule of thumb
//     blip = capacity × timeout / load, drawn where it falls within the
//     values tried and otherwise placed in the caption ("lies below the
//     smallest blip tried"). Replicated results are coloured by the share
//     of replicates that recovered; cells aborted at the memory cap are
//     grey. Its findings never claim more than the grid's spacing shows.
//   - "lines": a metric against one axis, a line per value of another, a
//     panel per value of a third; cells that never recover sit in a "never"
//     band above the top, marked with crosses, a row for each line when
//     several lines reach it.
//   - "bars": a metric as bars, a group per value of one axis (which may
//     name configurations rather than numbers; values of cells beside the
//     grid come last), a bar per value of another, a panel per value of a
//     third. Bars without a value are hatched red up to a "never" band;
//     replicated results are means with ± one standard deviation; few bars
//     carry their values, and long category names wrap.
//   - "series": per cell that recorded a time series, the calls per second
//     offered to the dependency (with its capacity) above the queue (with the
//     healthy limit where the queue rule judges health), the fault window
//     shaded, log scales when the cells
//     differ by orders of magnitude; a long run also gets a column with its
//     first minutes.
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
// committed and compared.
package plots
