package pipeline

import (
	"errors"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments"
)

// Load refuses two files of one experiment name, naming both, a file that
// is not there, and a figure the plots cannot draw; each is bad input (an
// *experiments.Error) and nothing else is returned.
func TestLoadRefusesBadInput(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	a := writeExperiment(t, dir, "same", claimed)
	b := writeExperiment(t, other, "same", claimed)
	badFigure := writeExperiment(t, dir, "figure", claimed+"\n[[figure]]\nkind = \"no-such-kind\"\n")
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{a, b}, `name: "same" is also the name of ` + a + `; reports would overwrite each other`},
		{[]string{a, dir + "/nowhere.toml"}, "nowhere.toml"},
		{[]string{badFigure}, "no-such-kind"},
	} {
		exps, err := Load(c.files, nil)
		var le *experiments.Error
		if !errors.As(err, &le) || !strings.Contains(err.Error(), c.want) || exps != nil {
			t.Errorf("%v: %v, %d experiments; want bad input naming %q", c.files, err, len(exps), c.want)
		}
	}
	exps, err := Load([]string{a}, []string{"grid.load=70"})
	if err != nil || len(exps) != 1 || len(exps[0].Grid.Cells()) != 1 {
		t.Fatalf("-set grid.load=70: %v", err)
	}
}

// Parse reads a file's content with Load's checks: a shard's copy.
func TestParseChecksFigures(t *testing.T) {
	if _, err := Parse("x.toml", []byte(claimed+"\n[[figure]]\nkind = \"no-such-kind\"\n"), nil); err == nil || !strings.Contains(err.Error(), "no-such-kind") {
		t.Errorf("a bad figure: %v", err)
	}
	e, err := Parse("x.toml", []byte(claimed), []string{"seed=4"})
	if err != nil || e.Name != "x" || e.Grid.Seed != 4 {
		t.Errorf("Parse: %v, %+v", err, e)
	}
}
