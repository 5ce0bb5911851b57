package reports

import (
	"encoding/csv"
	"os"
	"strconv"
	"testing"
)

// TestBlip30sBaseline: the committed blip-30s results hold the four rows of
// "Retry Storms: Simulate How a 30-Second Blip Becomes an Outage That Never
// Ends" (the fourth from its comments), rounded as the article prints them.
func TestBlip30sBaseline(t *testing.T) {
	f, err := os.Open("blip-30s/results.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	want := []struct{ policy, recovery, peakLoad, peakQueue, wasted string }{
		{"no retries", "66", "1.0", "2100", "3"},
		{"3 layers x 3 attempts", "", "27.0", "6290460", "99"},
		{"27 attempts + 10% budget", "95", "1.1", "2296", "4"},
		{"27 attempts, expired work dropped", "36", "16.0", "", "0"},
	}
	if len(rows) != len(want)+1 {
		t.Fatalf("%d rows, want %d", len(rows)-1, len(want))
	}
	for i, w := range want {
		r := rows[i+1]
		num := func(c string) float64 {
			x, err := strconv.ParseFloat(r[col[c]], 64)
			if err != nil {
				t.Fatalf("%s: %s: %v", w.policy, c, err)
			}
			return x
		}
		if r[col["policy"]] != w.policy {
			t.Errorf("row %d is %q, want %q", i+1, r[col["policy"]], w.policy)
		}
		if r[col["recovery_s"]] != w.recovery || (r[col["recovered"]] == "true") != (w.recovery != "") {
			t.Errorf("%s: recovered=%s recovery_s=%q, want %q", w.policy, r[col["recovered"]], r[col["recovery_s"]], w.recovery)
		}
		if got := strconv.FormatFloat(num("peak_load_x"), 'f', 1, 64); got != w.peakLoad {
			t.Errorf("%s: peak load %sx, want %sx", w.policy, got, w.peakLoad)
		}
		if w.peakQueue != "" && r[col["peak_queue"]] != w.peakQueue {
			t.Errorf("%s: peak queue %s, want %s", w.policy, r[col["peak_queue"]], w.peakQueue)
		}
		if got := strconv.FormatFloat(100*num("wasted"), 'f', 0, 64); got != w.wasted {
			t.Errorf("%s: wasted %s%%, want %s%%", w.policy, got, w.wasted)
		}
	}
}
