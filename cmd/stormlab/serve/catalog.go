package serve

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stormlab/stormlab/cmd/stormlab/pipeline"
	"github.com/stormlab/stormlab/experiments"
)

// catalog is the experiments a server offers, read once when it starts:
// a page names one, and no other file is ever read.
type catalog struct {
	byName map[string]*offered
	names  []string // in the order given
}

// offered is one experiment the page may start.
type offered struct {
	File string
	Exp  *experiments.Experiment
}

// newCatalog loads the files through the pipeline's load stage, with
// stormlab run's checks: two files of the same experiment name are an
// error, as is a figure the plots cannot draw.
func newCatalog(files []string) (*catalog, error) {
	exps, err := pipeline.Load(files, nil)
	if err != nil {
		return nil, err
	}
	c := &catalog{byName: map[string]*offered{}}
	for _, e := range exps {
		c.byName[e.Name] = &offered{File: e.File, Exp: e}
		c.names = append(c.names, e.Name)
	}
	if len(c.names) == 0 {
		return nil, fmt.Errorf("no experiments to offer")
	}
	return c, nil
}

// get finds an offered experiment by name; the error says which there are.
func (c *catalog) get(name string) (*offered, error) {
	if o, ok := c.byName[name]; ok {
		return o, nil
	}
	names := slices.Clone(c.names)
	if len(names) > 12 {
		names = append(names[:12], "...")
	}
	return nil, fmt.Errorf("unknown experiment %q; this server offers %s", clip(name, 80), strings.Join(names, ", "))
}

// clip shortens what a request sent for a message, and keeps it on one line.
func clip(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
