package plots

import (
	"fmt"
	"sort"
)

// Diagram is a service graph as a figure draws it, in plain data: its
// services and the calls between them, each with what the run made of it.
type Diagram struct {
	Services []DiagramService
	Calls    []DiagramCall
}

// DiagramService is one service of a Diagram.
type DiagramService struct {
	Name string
	// State is how the service ended, a cell state's colour and legend
	// (valueCell: healthy at the end of the run).
	State cellState
	// Note is what the box says under the name, wrapped to its width:
	// "needs all 3", "unhealthy from 61 s" (a newline between lines);
	// "" for nothing.
	Note string
	// Outside marks a node that is no service of the graph and has no
	// verdict, the users who send the requests: its name alone, without a
	// box, in no legend.
	Outside bool
}

// DiagramCall is one edge of a Diagram: service From calls service To.
type DiagramCall struct {
	From, To int // indices into Services
	// Amplification is the tries sent on the edge per user request: 1
	// for a call made once per request without retries or hedges, more
	// with them (or when the caller is reached by several paths), less
	// when a call is made only after others succeeded; NaN without
	// requests.
	Amplification float64
}

// diagramLayout places a Diagram's services in columns: a service's column
// is the length of the longest path of calls that reaches it from an entry
// point (a service nobody calls), so every call goes from left to right;
// within a column services are ordered to keep calls from crossing (the
// barycentre heuristic of Sugiyama, Tagawa and Toda, swept down and up a
// few times).
type diagramLayout struct {
	column []int     // per service
	row    []float64 // per service: its place in its column, 0 at the top
	rows   []int     // per column: how many services it holds
}

// layoutDiagram lays d out. It refuses a graph whose calls form a cycle,
// which a service graph may not.
func layoutDiagram(d *Diagram) (diagramLayout, error) {
	n := len(d.Services)
	for _, e := range d.Calls {
		if e.From < 0 || e.From >= n || e.To < 0 || e.To >= n {
			return diagramLayout{}, fmt.Errorf("a call from %d to %d names a service outside the %d", e.From, e.To, n)
		}
	}
	// Longest path from the entry points, in topological order (Kahn).
	in := make([]int, n)
	for _, e := range d.Calls {
		in[e.To]++
	}
	var order, ready []int
	for v := 0; v < n; v++ {
		if in[v] == 0 {
			ready = append(ready, v)
		}
	}
	l := diagramLayout{column: make([]int, n), row: make([]float64, n)}
	for len(ready) > 0 {
		v := ready[0]
		ready = ready[1:]
		order = append(order, v)
		for _, e := range d.Calls {
			if e.From != v {
				continue
			}
			l.column[e.To] = max(l.column[e.To], l.column[v]+1)
			if in[e.To]--; in[e.To] == 0 {
				ready = append(ready, e.To)
			}
		}
	}
	if len(order) < n {
		for v := 0; v < n; v++ {
			if in[v] > 0 {
				return diagramLayout{}, fmt.Errorf("the calls form a cycle through %q", d.Services[v].Name)
			}
		}
	}
	cols := 0
	for _, c := range l.column {
		cols = max(cols, c+1)
	}
	byCol := make([][]int, cols)
	for v := 0; v < n; v++ {
		byCol[l.column[v]] = append(byCol[l.column[v]], v)
	}
	place := func() {
		for _, vs := range byCol {
			for i, v := range vs {
				l.row[v] = float64(i)
			}
		}
	}
	place()
	// Each sweep orders a column by the mean row of its neighbours in the
	// column before it (down) or after it (up); ties keep the order they
	// had, so the layout is deterministic.
	sweep := func(c int, down bool) {
		key := make(map[int]float64, len(byCol[c]))
		for _, v := range byCol[c] {
			sum, k := 0.0, 0
			for _, e := range d.Calls {
				switch {
				case down && e.To == v && l.column[e.From] < c:
					sum, k = sum+l.row[e.From], k+1
				case !down && e.From == v && l.column[e.To] > c:
					sum, k = sum+l.row[e.To], k+1
				}
			}
			key[v] = l.row[v]
			if k > 0 {
				key[v] = sum / float64(k)
			}
		}
		sort.SliceStable(byCol[c], func(i, j int) bool { return key[byCol[c][i]] < key[byCol[c][j]] })
		for i, v := range byCol[c] {
			l.row[v] = float64(i)
		}
	}
	for range 4 {
		for c := 1; c < cols; c++ {
			sweep(c, true)
		}
		for c := cols - 2; c >= 0; c-- {
			sweep(c, false)
		}
	}
	l.rows = make([]int, cols)
	for c, vs := range byCol {
		l.rows[c] = len(vs)
	}
	return l, nil
}

// crossings counts the pairs of calls between the same two adjacent
// columns that cross in the layout: what the ordering keeps low.
func (l diagramLayout) crossings(d *Diagram) int {
	n := 0
	for i, a := range d.Calls {
		for _, b := range d.Calls[i+1:] {
			if l.column[a.From] != l.column[b.From] || l.column[a.To] != l.column[b.To] {
				continue
			}
			if (l.row[a.From]-l.row[b.From])*(l.row[a.To]-l.row[b.To]) < 0 {
				n++
			}
		}
	}
	return n
}
