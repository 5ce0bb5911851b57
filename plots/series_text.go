package plots

import "fmt"

// This file holds what a series figure says in its caption.

// caption is what the figure adds to its cells' facts: what the lines are,
// the scales, the bands and the close-up.
func (sf *seriesFigure) caption() string {
	more := "Top: calls per second reaching the dependency and its capacity (dashed)"
	if sf.callsY.log {
		more += ", log scale"
	}
	more += "; bottom: calls waiting in its queue"
	if len(sf.limits) > 0 {
		more += " and the healthy limit, capacity × timeout (dotted)"
	}
	if sf.queueY.log {
		more += ", log scale"
	}
	more += "; shaded: the fault window."
	if len(sf.callBands) > 0 {
		more += " " + bandCaption(sf.t.Rows, sf.idx)
	}
	if sf.zoom > 0 {
		more += fmt.Sprintf(" Left: the whole run; right: the first %s.", spanText(sf.zoom))
	}
	return more
}
