package plots

import (
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
)

// This file holds what a graph figure says: its title, its caption and its
// findings for the report.

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
// a box and an arrow are, and the colours the boxes show (faultless: no
// cell has a fault, so red is unhealthy at the end, not stuck after one).
func graphCaption(f *spec.Figure, ds []*Diagram, faultless bool) string {
	var b strings.Builder
	if f.X != "" {
		b.WriteString("One diagram per value of " + axisName(f.X) + ". ")
	}
	b.WriteString("Boxes: the services, coloured by their verdict at the end of the run, each saying how it makes its calls and when it first turned unhealthy where the diagram has room. Green: healthy at the end. ")
	for _, s := range []cellState{drainingCell, stuckCell, notJudgedCell} {
		switch {
		case !diagramsShow(ds, s):
		case s == stuckCell && faultless:
			b.WriteString("Red: unhealthy at the end of the run, with no fault to recover from: the calls to it that succeed fall short of the health rule. ")
		default:
			b.WriteString(s.caption() + " ")
		}
	}
	b.WriteString("Arrows: the calls, from the users' requests to each entry point and from caller to callee, wider and redder the more tries (first tries and retries) they send per user request, and labelled with that number where the labels do not crowd each other; ×1 is one try per request.")
	return b.String()
}

// findings say, per diagram, which services did not end healthy, by their
// state, and which call sent the most tries per user request: "**orders
// retries**: At the end of the run front, orders, users and db are stuck;
// the most tries per user request go from orders to db, 2.8." None when
// the figure cannot be drawn.
func (g graph) findings(t *Table, f *spec.Figure) []string {
	panels, err := g.panels(t, f)
	if err != nil {
		return nil
	}
	faultless := noFault(t.Rows)
	var out []string
	for _, p := range panels {
		var ended []string
		for _, st := range []cellState{stuckCell, drainingCell, notJudgedCell} {
			var names []string
			for _, s := range p.d.Services {
				if s.State == st && !s.Outside {
					names = append(names, s.Name)
				}
			}
			verb := " is "
			if len(names) > 1 {
				verb = " are "
			}
			if len(names) > 0 {
				ended = append(ended, joinAnd(names)+verb+stateWords(st, faultless))
			}
		}
		s := "At the end of the run every service is healthy"
		if len(ended) > 0 {
			s = "At the end of the run " + joinAnd(ended)
		}
		s += "; " + busiest(p.d) + "."
		if p.title != "" {
			s = "**" + p.title + "**: " + s
		}
		out = append(out, s)
	}
	return out
}

// busiest says which calls of d sent the most tries per user request
// (rounded to two decimals), all of them on a tie, grouped by caller: "the
// most tries per user request go from gateway to b1, b2 and b3, 1.1
// each"; or that none sent more than one.
func busiest(d *Diagram) string {
	top := 1.0
	for _, c := range d.Calls {
		if a := roundTo(c.Amplification, 2); a > top { // NaN, a call never made, is not
			top = a
		}
	}
	if top <= 1 {
		return "no call sends more than one try per user request"
	}
	var callers []int
	to := map[int][]string{}
	for _, c := range d.Calls {
		if roundTo(c.Amplification, 2) != top {
			continue
		}
		if _, ok := to[c.From]; !ok {
			callers = append(callers, c.From)
		}
		to[c.From] = append(to[c.From], d.Services[c.To].Name)
	}
	var parts []string
	for _, from := range callers {
		name := d.Services[from].Name
		if d.Services[from].Outside {
			name = "the users"
		}
		parts = append(parts, "from "+name+" to "+joinAnd(to[from]))
	}
	s := "the most tries per user request go " + joinAnd(parts) + ", " + numText(top)
	if len(parts) > 1 || len(to[callers[0]]) > 1 {
		s += " each"
	}
	return s
}

// stateWords is how a service in state st ended, after its name
// (faultless: as graphCaption).
func stateWords(st cellState, faultless bool) string {
	switch st {
	case drainingCell:
		return "still draining"
	case notJudgedCell:
		return "not judged"
	}
	if faultless {
		return "unhealthy, with no fault"
	}
	return "stuck"
}

// noFault reports whether no row has a fault.
func noFault(rows []Row) bool {
	for i := range rows {
		if len(rows[i].Facts.Faults) > 0 {
			return false
		}
	}
	return true
}
