package plots

import (
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
)

// This file holds what a graph figure says: its title and its caption.

// graphTitle is the figure's title: the spec's, or where the calls went,
// by the x axis.
func graphTitle(f *spec.Figure) string {
	if f.Title != "" {
		return f.Title
	}
	s := "Where the calls went: each service's verdict and each call's tries per request"
	if f.X != "" {
		s += ", by " + axisName(f.X)
	}
	return s
}

// graphCaption is what the figure adds to its cells' facts: what a panel,
// a box and an arrow are, and the colours the boxes show.
func graphCaption(f *spec.Figure, ds []*Diagram) string {
	var b strings.Builder
	if f.X != "" {
		b.WriteString("One diagram per value of " + axisName(f.X) + ". ")
	}
	b.WriteString("Boxes: the services, coloured by their verdict at the end of the run, each saying how it makes its calls and when it first turned unhealthy where the diagram has room. Green: healthy at the end. ")
	for _, s := range []cellState{drainingCell, stuckCell, notJudgedCell} {
		if diagramsShow(ds, s) {
			b.WriteString(s.caption() + " ")
		}
	}
	b.WriteString("Arrows: the calls, from the users' requests to the entry point and from caller to callee, wider and redder the more tries (first tries, retries and hedges) they send per user request, and labelled with that number where the labels do not crowd each other; ×1 is one try per request.")
	return b.String()
}
