package plots

import (
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// gatewayDiagram is a gateway fanning out to three services, two of which
// share a database; the database is stuck.
func gatewayDiagram() *Diagram {
	return &Diagram{
		Services: []DiagramService{
			{Name: "db", State: stuckCell, Note: "peak queue 12,400"},
			{Name: "gateway", State: drainingCell, Note: "needs all of 3"},
			{Name: "orders", State: stuckCell},
			{Name: "search", State: valueCell, Note: "peak queue 3"},
			{Name: "users", State: stuckCell},
			{Name: "cache", State: valueCell},
		},
		Calls: []DiagramCall{
			{From: 1, To: 4, Amplification: 2.4},
			{From: 1, To: 3, Amplification: 1.0},
			{From: 1, To: 2, Amplification: 2.9},
			{From: 2, To: 0, Amplification: 3},
			{From: 4, To: 0, Amplification: 2.1},
			{From: 3, To: 5, Amplification: 1},
		},
	}
}

func TestDiagramLayout(t *testing.T) {
	d := gatewayDiagram()
	l, err := layoutDiagram(d)
	if err != nil {
		t.Fatal(err)
	}
	want := []int{2, 0, 1, 1, 1, 2}
	for v, c := range want {
		if l.column[v] != c {
			t.Errorf("%s in column %d, want %d", d.Services[v].Name, l.column[v], c)
		}
	}
	if n := l.crossings(d); n != 0 {
		t.Errorf("%d crossings, want 0", n)
	}
	d.Calls = append(d.Calls, DiagramCall{From: 0, To: 1})
	if _, err := layoutDiagram(d); err == nil {
		t.Error("a cycle was laid out")
	}
}

// TestDiagramGeometry: on a wide canvas and a tall one, the gateway's
// boxes fit with their notes, leave room for an arrow between layers, and
// do not overlap within a layer; calls flow along the longer side.
func TestDiagramGeometry(t *testing.T) {
	d := gatewayDiagram()
	l, err := layoutDiagram(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]vg.Length{{7 * vg.Inch, 4 * vg.Inch}, {2.3 * vg.Inch, 4.4 * vg.Inch}} {
		c := draw.New(vgimg.New(size[0], size[1]))
		g := fitGeometry(c, d, l, bestFit([]draw.Canvas{c}, []*Diagram{d}, []diagramLayout{l}))
		if g.down != (size[1] > size[0]) || g.score < 2 {
			t.Errorf("%v: down %v, score %.2f; want along the longer side, with notes", size, g.down, g.score)
		}
		for v := range d.Services {
			for w := range d.Services {
				a, b := g.centre(v), g.centre(w)
				along, across, extAlong, extAcross := b.X-a.X, b.Y-a.Y, g.boxW, (g.boxH[v]+g.boxH[w])/2
				if g.down {
					along, across, extAlong, extAcross = a.Y-b.Y, b.X-a.X, (g.boxH[v]+g.boxH[w])/2, g.boxW
				}
				switch {
				case l.column[w] == l.column[v]+1 && along-extAlong < diagramArrowRoom:
					t.Errorf("%v: %s to %s leaves %v for the arrow", size, d.Services[v].Name, d.Services[w].Name, along-extAlong)
				case v < w && l.column[w] == l.column[v] && abs(across) < extAcross:
					t.Errorf("%v: %s and %s overlap", size, d.Services[v].Name, d.Services[w].Name)
				}
			}
		}
	}
}

func abs(x vg.Length) vg.Length { return max(x, -x) }
