package serve

import (
	"bytes"
	"context"
	"fmt"
	"net/http"

	"github.com/stormlab/stormlab/cmd/stormlab/pipeline"
	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/plots"
	"github.com/stormlab/stormlab/reports"
)

// exportTOML sends the run so far as an experiment file: its scenario, its
// seed and every fault and change made, which stormlab run reproduces.
func (s *Server) exportTOML(w http.ResponseWriter, r *http.Request, run *run) {
	tl, steps, sent := run.snapshot()
	if len(sent.Rows) == 0 {
		fail(w, r, badInput("nothing has run yet: export after the first second"))
		return
	}
	src, err := tl.export(len(sent.Rows), steps).TOML()
	if err != nil {
		fail(w, r, err)
		return
	}
	download(w, "application/toml", tl.name()+".toml", src)
}

// exported is the run so far as the experiment its TOML export holds,
// with the series streamed; an error before the first second has run.
func exported(run *run) (*live, *experiments.Experiment, *model.Series, error) {
	tl, steps, sent := run.snapshot()
	if len(sent.Rows) == 0 {
		return nil, nil, nil, badInput("nothing has run yet: export after the first second")
	}
	e, err := tl.parse(len(sent.Rows), steps)
	return tl, e, sent, err
}

// exportCSV sends the rows streamed as series.csv, as stormlab run writes
// it for the exported file.
func (s *Server) exportCSV(w http.ResponseWriter, r *http.Request, run *run) {
	tl, e, sent, err := exported(run)
	if err != nil {
		fail(w, r, err)
		return
	}
	var b bytes.Buffer
	res := []model.Result{{Series: sent}}
	if err := reports.WriteSeries(&b, e.Grid, res); err != nil {
		fail(w, r, err)
		return
	}
	download(w, "text/csv; charset=utf-8", tl.name()+"-series.csv", b.Bytes())
}

// exportChart sends the run's series figure, drawn by the plots package as
// stormlab run draws it for the exported file.
func (s *Server) exportChart(format string) func(http.ResponseWriter, *http.Request, *run) {
	return func(w http.ResponseWriter, r *http.Request, run *run) {
		tl, e, _, err := exported(run)
		if err != nil {
			fail(w, r, err)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), s.opt.SimTimeout)
		defer cancel()
		st := pipeline.Stages{Budget: pipeline.Budget{Workers: 1, Cell: s.opt.MaxMemory}}
		results, err := st.Simulate(ctx, "the run", e.Grid.Cells())
		if err != nil {
			fail(w, r, fmt.Errorf("simulating the run for its chart: %w", err))
			return
		}
		figs, err := plots.Render(e.Grid, results, e.Figures)
		if err != nil || len(figs) == 0 {
			fail(w, r, fmt.Errorf("drawing the chart: %v", err))
			return
		}
		if format == "svg" {
			download(w, "image/svg+xml", tl.name()+".svg", figs[0].SVG)
			return
		}
		download(w, "image/png", tl.name()+".png", figs[0].PNG)
	}
}

// download sends a file the browser saves: nothing is written on the
// server.
func download(w http.ResponseWriter, mime, name string, data []byte) {
	h := w.Header()
	h.Set("Content-Type", mime)
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(data)
}
