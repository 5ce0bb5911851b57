package experiments

import (
	"strings"
	"testing"

	"github.com/stormlab/stormlab/plots"
)

const windowed = `
seed = 1
[scenario]
duration = "2m"
fault = [{ kind = "outage", start = "60s", length = "30s" }]
[[window]]
from = "10s"
to = "60s"
columns = ["successes", "queue"]
[[window]]
name = "outage"
from = 60
to = "1m30s"
[grid]
load = [60, 80]
`

// TestWindowColumns: [[window]] adds result columns every cell measures,
// named after the window, which findings and tolerances may cite.
func TestWindowColumns(t *testing.T) {
	e := mustParse(t, "findings = [\"{successes_per_s_outage[60]}\"]\n"+windowed+"[tolerance]\nqueue_10s_1m = { abs = 1 }\n")
	names := e.Grid.ColumnNames()
	got := strings.Join(names[len(names)-3:], " ")
	if got != "successes_per_s_10s_1m queue_10s_1m successes_per_s_outage" {
		t.Errorf("window columns %s", got)
	}
	for _, c := range e.Grid.Cells() {
		if len(c.Windows) != 2 || c.Windows[1].From.Seconds() != 60 || c.Windows[1].To.Seconds() != 90 {
			t.Errorf("cell %s measures %+v", c.Label(), c.Windows)
		}
	}
	if e.Tolerance["queue_10s_1m"].Abs != 1 || len(e.Findings) != 1 {
		t.Errorf("tolerance %v, findings %v", e.Tolerance, e.Findings)
	}
	// A single [window] table is one window.
	one := mustParse(t, "[scenario]\nduration = \"2m\"\n[window]\nfrom = \"40s\"\nto = \"80s\"\n")
	if n := one.Grid.ColumnNames(); n[len(n)-1] != "successes_per_s_40s_1m20s" {
		t.Errorf("single window: %v", n[len(n)-1])
	}
}

// TestWindowBadInput: a window the runs cannot measure is one positioned
// error at its key.
func TestWindowBadInput(t *testing.T) {
	for _, c := range []struct {
		name, src string
		sets      []string
		want      string
	}{
		{"past the run", "[scenario]\nduration = \"1m\"\n[[window]]\nfrom = \"40s\"\nto = \"80s\"\n", nil, "x.toml:5:1: window.0.to: 1m20s is past the end of the 1m run"},
		{"past one cell's run", "[scenario]\nduration = \"2m\"\n[[window]]\nfrom = \"40s\"\nto = \"80s\"\n[grid]\nduration = [\"2m\", \"1m\"]\n", nil, "window.0.to: 1m20s is past the end of the 1m run (cell duration=1m)"},
		{"backwards", "[[window]]\nfrom = \"40s\"\nto = \"20s\"\n", nil, "x.toml:3:1: window.0.to: must come after from (40s), got 20s"},
		{"no from", "[[window]]\nto = \"20s\"\n", nil, "x.toml:1:1: window.0: needs from"},
		{"unknown column", "[[window]]\nfrom = 0\nto = \"20s\"\ncolumns = [\"goodput\"]\n", nil, "x.toml:4:1: window.0.columns: \"goodput\" is not a series column; use requests, calls"},
		{"unknown key", "[[window]]\nfrom = 0\nto = \"20s\"\ncolumn = [\"queue\"]\n", nil, "x.toml:4:1: window.0.column: unknown key (did you mean \"columns\"?)"},
		{"bad time", "[[window]]\nfrom = \"soon\"\nto = \"20s\"\n", nil, "x.toml:2:1: window.0.from"},
		{"bad name", "[[window]]\nname = \"a-b\"\nfrom = 0\nto = \"20s\"\n", nil, "window.0.name: \"a-b\" cannot end a column name"},
		{"same name", "[[window]]\nfrom = 0\nto = \"20s\"\n[[window]]\nfrom = 0\nto = \"20s\"\ncolumns = [\"queue\"]\n", nil, "window.1.name: \"0s_20s\" names two windows"},
		{"between two rows", "[scenario]\ntick = \"5s\"\nlayer = [{ timeout = \"5s\" }]\n[[window]]\nfrom = \"1s\"\nto = \"4s\"\n", nil, "window.0.to: the window [1s, 4s) holds no row of the series, whose rows start every 5 s"},
		{"set past the run", windowed, []string{"window.0.to=5m"}, "-set window.0.to: 5m is past the end of the 2m run"},
		{"finding of a column no window has", "findings = [\"{successes_per_s_after[60]}\"]\n" + windowed, nil, "\"successes_per_s_after\" is not a results.csv column (did you mean \"successes_per_s_outage\"?)"},
		{"band on a phase figure", "[grid]\nload = [1, 2]\nblip = [\"1s\", \"2s\"]\n[[figure]]\nkind = \"phase\"\nx = \"load\"\ny = \"blip\"\nband = true\n", nil, "x.toml:8:1: figure.0.band: a phase figure draws no band over replicates; band = true is for series figures"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, err := Parse("x.toml", []byte(c.src), c.sets)
			if err == nil && strings.Contains(c.name, "band") {
				err = e.CheckFigures(plots.Check)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("got %v\nwant one line containing %q", err, c.want)
			}
		})
	}
}

// TestSeriesSelectsByValue: series = { axis = value } picks the cells
// whose value is the one written, however the grid writes it ("95s" is
// the cell written 1m35s), and a value the axis lacks is refused.
func TestSeriesSelectsByValue(t *testing.T) {
	src := "[scenario]\nduration = \"5m\"\nchange = [{ at = \"95s\", set = { load = 60 } }]\n[grid]\n\"change.0.at\" = [\"95s\", \"2m\"]\n"
	e := mustParse(t, "series = { \"change.0.at\" = \"95s\" }\n"+src)
	var picked []string
	for _, c := range e.Grid.Cells() {
		if c.Series {
			picked = append(picked, c.Label())
		}
	}
	if strings.Join(picked, ";") != "change.0.at=1m35s" {
		t.Errorf("series picked %v", picked)
	}
	if _, err := Parse("x.toml", []byte("series = { \"change.0.at\" = \"3m\" }\n"+src), nil); err == nil || !strings.Contains(err.Error(), "x.toml:1:12: series.change.0.at: \"3m\" is not a value of axis change.0.at") {
		t.Errorf("got %v", err)
	}
}

// TestWindowSpreadColumnsUnique: windows named x and x_sd would both write
// successes_per_s_x_sd (the spread of x's column over replicates, and
// x_sd's own column): refused, naming both.
func TestWindowSpreadColumnsUnique(t *testing.T) {
	src := `[scenario]
duration = "1m"
[[window]]
name = "x"
from = "10s"
to = "20s"
[[window]]
name = "x_sd"
from = "30s"
to = "40s"
`
	_, err := Parse("w.toml", []byte(src), nil)
	if err == nil || !strings.Contains(err.Error(), `successes_per_s_x_sd, the spread of window "x"'s column successes_per_s_x and window "x_sd"'s column successes_per_s_x_sd`) {
		t.Errorf("windows x and x_sd: %v", err)
	}
}
