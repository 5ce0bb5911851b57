package serve

import (
	"errors"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments"
)

// The catalog loads its files as stormlab run loads them: two files of one
// experiment name are bad input naming both, as is a file that is not
// there; the names keep the order given.
func TestCatalogLoadsAsRunDoes(t *testing.T) {
	c, err := newCatalog([]string{fig1, "../../../experiments/blip-30s.toml"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.names, " "); got != "server-60 blip-30s" {
		t.Errorf("names %q", got)
	}
	if o, err := c.get("blip-30s"); err != nil || o.File != "../../../experiments/blip-30s.toml" {
		t.Errorf("blip-30s: %v, %+v", err, o)
	}
	for _, files := range [][]string{{fig1, fig1}, {fig1, "no-such.toml"}} {
		_, err := newCatalog(files)
		var le *experiments.Error
		if !errors.As(err, &le) || !strings.Contains(err.Error(), files[1]) {
			t.Errorf("%v: %v, want bad input naming %s", files, err, files[1])
		}
	}
}
