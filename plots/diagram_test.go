package plots

import "testing"

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
