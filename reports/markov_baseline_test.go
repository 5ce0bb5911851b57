package reports

import "testing"

// TestMarkovServerTippingBaseline: markov-server's search over the load
// finds, for every number of attempts, the lowest load at which the chain
// stops being healthy; each retry lowers it, and at each the chain is
// metastable (not yet overloaded). Without retries the boundary lies
// between the grid's last healthy load and its first metastable one, as
// results.csv has them.
func TestMarkovServerTippingBaseline(t *testing.T) {
	tips := readCSV(t, "markov-server/tipping.csv")
	if len(tips.data) != 5 {
		t.Fatalf("%d searches, want one for each of 1 to 5 attempts", len(tips.data))
	}
	prev := 0.0
	for i := range tips.data {
		r := tips.row(i)
		a, crit := r.text("layer.0.attempts"), r.num("critical")
		if r.text("status") != "found" || r.text("end_state") != "metastable" {
			t.Errorf("%s attempts: %s, %s at the tipping point; want found, metastable", a, r.text("status"), r.text("end_state"))
		}
		if i > 0 && !(crit < prev) {
			t.Errorf("%s attempts: tips at %v requests/s, not below %v with one attempt fewer", a, crit, prev)
		}
		if r.num("tips_at")-r.num("recovers_at") > 0.01+1e-9 {
			t.Errorf("%s attempts: bracket %v to %v, wider than the tolerance", a, r.num("recovers_at"), r.num("tips_at"))
		}
		prev = crit
	}
	res := readCSV(t, "markov-server/results.csv")
	healthy := res.cell(map[string]string{"load": "8.1", "layer.0.attempts": "1"})
	meta := res.cell(map[string]string{"load": "8.2", "layer.0.attempts": "1"})
	first := tips.row(0).num("critical")
	if healthy.text("markov_verdict") != "healthy" || meta.text("markov_verdict") != "metastable" || !(8.1 < first && first <= 8.2) {
		t.Errorf("without retries: %s at 8.1, %s at 8.2 requests/s, the search tips at %v; want healthy, metastable and a boundary between them",
			healthy.text("markov_verdict"), meta.text("markov_verdict"), first)
	}
}
