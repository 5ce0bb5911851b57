package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A diagram draws a service graph: a box per service coloured by how it
// ended, an arrow per call whose width and colour say how many tries it
// sent per user request (its amplification). The users are on the left and
// every call goes to the right (diagram_layout.go).

// healthyColour fills a service that was healthy at the end of its run.
func healthyColour() color.Color { return color.RGBA{R: 0xa6, G: 0xd9, B: 0x6a, A: 0xff} }

// serviceFill is the fill of a service in state s.
func serviceFill(s cellState) color.Color {
	if s == valueCell {
		return healthyColour()
	}
	return s.colour()
}

// serviceLegend is the legend's text for a service in state s; faultless:
// no cell drawn has a fault, so a service unhealthy at the end recovered
// from nothing.
func serviceLegend(s cellState, faultless bool) string {
	switch {
	case s == valueCell:
		return "healthy at the end of the run"
	case s == stuckCell && faultless:
		return "unhealthy at the end, with no fault"
	}
	return s.legend()
}

// ampScale maps an amplification to an arrow's width and colour: ×1 a
// thin grey, up to top a thick dark red.
type ampScale struct{ top float64 }

// newAmpScale is the one scale of the diagrams drawn side by side: to
// their largest amplification, at least ×3 so that a graph without
// retries is not drawn alarming.
func newAmpScale(ds []*Diagram) ampScale {
	top := 3.0
	for _, d := range ds {
		for _, e := range d.Calls {
			if !math.IsNaN(e.Amplification) {
				top = max(top, e.Amplification)
			}
		}
	}
	return ampScale{top: top}
}

// at is the share of the scale a is at, 0 for ×1 (or less) and 1 at its top.
func (s ampScale) at(a float64) float64 {
	if math.IsNaN(a) || a <= 1 {
		return 0
	}
	return math.Min(1, (a-1)/(s.top-1))
}

// style is the arrow of an edge of amplification a.
func (s ampScale) style(a float64) draw.LineStyle {
	f := s.at(a)
	lerp := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + f*(float64(y)-float64(x)))) }
	// From a mid grey to the stuck red, darker.
	col := color.RGBA{R: lerp(0x90, 0xa5), G: lerp(0x90, 0x0f), B: lerp(0x90, 0x15), A: 0xff}
	return draw.LineStyle{Color: col, Width: vg.Points(1.5 + 6*f)}
}

// diagramLegend is the legend of diagrams drawn side by side: the states
// their services end in (faultless: as serviceLegend), then three arrows of
// their amplification scale.
func diagramLegend(ds []*Diagram, scale ampScale, faultless bool) []entry {
	var out []entry
	for _, s := range []cellState{valueCell, drainingCell, stuckCell, notJudgedCell, abortedCell} {
		if diagramsShow(ds, s) {
			out = append(out, entry{text: serviceLegend(s, faultless), thumbs: []plot.Thumbnailer{swatch{serviceFill(s)}}})
		}
	}
	for _, a := range []float64{1, (1 + scale.top) / 2, scale.top} {
		out = append(out, entry{
			text:   triesPerRequest(a),
			thumbs: []plot.Thumbnailer{lineThumb{scale.style(a)}},
		})
	}
	return out
}

// diagramsShow reports whether a service of ds (not the users) ends in
// state s.
func diagramsShow(ds []*Diagram, s cellState) bool {
	for _, d := range ds {
		for _, v := range d.Services {
			if v.State == s && !v.Outside {
				return true
			}
		}
	}
	return false
}

// triesPerRequest is an arrow's legend: "1 try per request", "2.5 tries
// per request".
func triesPerRequest(a float64) string {
	if a == 1 {
		return "1 try per request"
	}
	return Number(roundTo(a, 1)) + " tries per request"
}
