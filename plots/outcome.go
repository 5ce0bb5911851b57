package plots

import (
	"fmt"
	"image/color"
	"math"

	"github.com/stormlab/stormlab/model"
)

// The verdict in words, for every sentence, table and legend that says how a
// run ended: one place, so that "never recovers" is never written of a run
// that was still draining, and "recovered" never of one nobody asked
// anything of.

// Outcome says how a single run (or a cell's replicates together) ended,
// for a sentence: "recovered 12 s after the fault ended", "healthy as soon
// as the fault ended", "healthy at the end of the run" (no fault),
// "stuck: unhealthy at the end of the 1h run, its backlog no longer
// shrinking", "still draining when the 1h run ended: a backlog of 3,645
// falling by 1.0 a second, about 61 min more", "not judged: no request
// arrived after the fault".
func Outcome(r *model.Result, triggered bool, run model.Duration) string {
	switch r.Verdict {
	case model.NotJudged:
		if triggered {
			return "not judged: no request arrived after the fault"
		}
		return "not judged: no request arrived after the first tick"
	case model.Recovered:
		switch {
		case !triggered || math.IsNaN(r.RecoveryS):
			return "healthy at the end of the run"
		case r.RecoveryS == 0:
			return "healthy as soon as the fault ended"
		}
		return fmt.Sprintf("recovered %s s after the fault ended", Number(r.RecoveryS))
	case model.Draining:
		return fmt.Sprintf("still draining when the %v run ended: %s", run, Drain(r))
	}
	return fmt.Sprintf("stuck: unhealthy at the end of the %v run, its backlog no longer shrinking", run)
}

// Drain says how fast a draining run's backlog fell at the end of the run:
// "a backlog of 3,645 falling by 1.0 a second, about 61 min more". The
// backlog is the calls waiting (or in flight) at the dependency; at a loss
// server, which holds none, the requests still waiting for an answer.
func Drain(r *model.Result) string {
	s := fmt.Sprintf("a backlog of %s falling by %s a second", Number(math.Round(r.EndBacklog)), Number(roundTo(r.DrainRate, 1)))
	if left := r.DrainLeftS; !math.IsNaN(left) {
		s += fmt.Sprintf(", about %s more", Span(left))
	}
	return s
}

// Span writes a number of seconds as a rounded span: "45 s", "12 min",
// "3.2 h".
func Span(s float64) string {
	switch {
	case s < 120:
		return fmt.Sprintf("%.0f s", s)
	case s < 7200:
		return fmt.Sprintf("%.0f min", s/60)
	}
	return fmt.Sprintf("%.1f h", s/3600)
}

// roundTo rounds x to d decimals.
func roundTo(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}

// stuckShare is the share of a cell's runs that count as metastable: those
// that did not recover, in a cell whose verdict is stuck (a cell whose runs
// that did not recover are all still draining counts none).
func stuckShare(r *model.Result) float64 {
	if r.Verdict != model.Stuck {
		return 0
	}
	return 1 - r.RecoveredShare
}

// cellState is what a figure's cell shows: its value, or instead how its
// run ended.
type cellState uint8

const (
	valueCell     cellState = iota
	stuckCell               // unhealthy at the end, the backlog no longer shrinking
	drainingCell            // unhealthy at the end, still draining
	notJudgedCell           // no demand after the fault
	abortedCell             // stopped at the memory cap
)

// stateOf is the state of a cell that did not recover.
func stateOf(v model.Verdict) cellState {
	switch v {
	case model.Draining:
		return drainingCell
	case model.NotJudged:
		return notJudgedCell
	}
	return stuckCell
}

// colour is the state's one colour in every figure of a grid's cells: a
// strong red for stuck, apart from the yellow-green-blue recovery scale; an
// orange for still draining, apart from the scale's light end; a light pink
// for not judged; grey for aborted.
func (cs cellState) colour() color.Color {
	switch cs {
	case drainingCell:
		return phaseDrainingColour()
	case notJudgedCell:
		return notJudgedColour()
	case abortedCell:
		return abortedColour()
	}
	return stuckColour()
}

// legend is the state's legend entry.
func (cs cellState) legend() string {
	switch cs {
	case drainingCell:
		return "still draining when the run ends\n(a longer run would recover)"
	case notJudgedCell:
		return "not judged\n(no demand after the fault)"
	case abortedCell:
		return "aborted at the memory cap"
	}
	return "stuck: never recovers\n(backlog no longer shrinking)"
}

// caption is the state's sentence in a caption.
func (cs cellState) caption() string {
	switch cs {
	case drainingCell:
		return "Orange: unhealthy when the run ends but its backlog still falling, slower than the run (a longer run would see it recover)."
	case notJudgedCell:
		return "Pink: not judged, no request arrived after the fault."
	case abortedCell:
		return "Grey: aborted at the memory cap, no value."
	}
	return "Red: stuck, never recovers (unhealthy at the end, the backlog no longer shrinking)."
}

// phaseDrainingColour is the colour of "still draining" in the figures of a
// grid's cells (the regions figure has a palette of its own).
func phaseDrainingColour() color.Color { return color.RGBA{R: 0xfd, G: 0xae, B: 0x61, A: 0xff} }

// stuckColour is the colour of "stuck: never recovers".
func stuckColour() color.Color { return color.RGBA{R: 0xd7, G: 0x19, B: 0x1c, A: 0xff} }

// notJudgedColour is the colour of a cell with no verdict.
func notJudgedColour() color.Color { return color.RGBA{R: 0xf1, G: 0xb6, B: 0xda, A: 0xff} }

// abortedColour marks a cell aborted at the memory cap: a light grey,
// apart from the recovery scale and the verdicts' colours.
func abortedColour() color.Color { return color.Gray{Y: 0xcc} }
