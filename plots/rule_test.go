package plots

import (
	"strings"
	"testing"
)

// ruleGrid is a case the rule of thumb misreads: capacity 100/s, a
// 250 ms timeout, load 60 and 80, so the rule of thumb puts the tipping
// point at 0.31–0.42 s, while the shortest blip tried is 5 s and 27
// attempts never recover from it.
const ruleGrid = `
[scenario]
engine = "queue"
tick = "250ms"
duration = "5m"
layer = [{ timeout = "250ms" }]
fault = [{ kind = "outage", start = "60s", length = "30s" }]

[[policy]]
name = "27 attempts"
attempts = 27

[grid]
load = [60, 80]
blip = ["5s", "10s"]

[[figure]]
kind = "phase"
x = "load"
y = "blip"
panel = "policy"
rule_of_thumb = true
`

// Where the smallest blip tried already tips, the findings say so and
// claim nothing about where the rule of thumb holds; the rule, off the
// axis, is not drawn and the caption says where it lies.
func TestRuleOfThumbOffTheGrid(t *testing.T) {
	e := parse(t, ruleGrid)
	res := run(t, e, 2)
	for i := range res {
		if res[i].Recovered() {
			t.Fatalf("cell %s recovered; the case needs every cell to tip", e.Grid.Cells()[i].Label())
		}
	}
	said := strings.Join(Findings(e.Grid, res, e.Figures), "\n")
	for _, want := range []string{
		"stuck (never recovers) from blip 5s, the smallest tried, at load 60–80",
		"already metastable at the smallest blip tried (5s) at load 60–80, so the grid can neither show where it tips nor test the rule of thumb",
		"(100 × 250ms / load = 0.31–0.42 s)",
	} {
		if !strings.Contains(said, want) {
			t.Errorf("findings lack %q:\n%s", want, said)
		}
	}
	if strings.Contains(said, "exactly") || strings.Contains(said, "holds") {
		t.Errorf("findings claim the rule holds where the grid cannot show it:\n%s", said)
	}
	figs, err := Render(e.Grid, res, e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	c := figs[0].Caption
	if !strings.Contains(c, "The rule of thumb for naive retries (blip ≈ capacity × timeout / load), 0.31–0.42 s, lies below the smallest blip length tried (5s) and is not drawn.") {
		t.Errorf("caption does not say where the rule lies: %q", c)
	}
	if strings.Contains(c, "Dashed") || strings.Contains(string(figs[0].SVG), "rule of thumb for naive retries") {
		t.Errorf("the rule is drawn or in the legend though it lies off the axis")
	}
}

// Where the grid brackets the rule's value, the findings say the rule holds
// to within the grid's spacing, with the step that shows it.
func TestRuleOfThumbWithinTheGrid(t *testing.T) {
	e := parse(t, ruleGrid, `grid.blip=["100ms", "250ms", "500ms", "1s", "5s"]`, "tick=50ms")
	res := run(t, e, 2)
	said := strings.Join(Findings(e.Grid, res, e.Figures), "\n")
	if strings.Contains(said, "exactly") {
		t.Errorf("findings claim an exact match:\n%s", said)
	}
	if !strings.Contains(said, "to within the grid's spacing (e.g. at load 80 it recovers at") {
		t.Errorf("findings do not place the rule within the grid's spacing:\n%s", said)
	}
	figs, err := Render(e.Grid, res, e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(figs[0].Caption, "Dashed: the rule of thumb") {
		t.Errorf("the rule lies within the axis but is not drawn: %q", figs[0].Caption)
	}
}
