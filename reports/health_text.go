package reports

import (
	"fmt"
	"math"
	"strings"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/plots"
)

// healthSection states the health rule's inputs and how the verdicts are
// taken, so that a reader of the report knows what "recovered", "stuck",
// "still draining" and "not judged" measured. The numbers are the first
// cell's; where the cells' rules differ, it says so.
func healthSection(b *strings.Builder, g *sweep.Grid) {
	cells := g.Cells()
	if len(cells) == 0 {
		return
	}
	h := cells[0].Plan.Health
	same := true
	for i := range cells {
		o := cells[i].Plan.Health
		same = same && o.Rule == h.Rule && (o.Limit == h.Limit || math.IsNaN(o.Limit) && math.IsNaN(h.Limit)) &&
			o.Goodput == h.Goodput && o.WindowTicks == h.WindowTicks
	}
	b.WriteString("### How a run is judged\n\n")
	p := cells[0].Plan
	switch h.Rule {
	case model.HealthQueue:
		fmt.Fprintf(b, "Healthy while at most %s calls wait at the dependency: its capacity (%s calls/s) times the time the user at the edge waits (%v, less the service latency and the network's round trip), so that a new request is served before its caller gives up.",
			plots.Number(math.Round(h.Limit*100)/100), plots.Number(p.Capacity), p.EdgeTimeout)
	default:
		fmt.Fprintf(b, "Healthy while at least %s of the requests arriving over the last %s are answered with a success (the goodput rule).",
			pct(h.Goodput), plots.Span(float64(h.WindowTicks)*p.TickS))
	}
	if !same {
		b.WriteString(" The numbers are the first cell's; the cells' capacities, timeouts or rules differ, and each cell is judged by its own.")
	}
	b.WriteString(" A run is judged from the end of the fault (from its first tick, without one): **recovered** when it is healthy from some time on to the end of the run and some request after the fault succeeded; **still draining** when it is unhealthy at the end but its backlog (the calls waiting or in flight at the dependency; at a loss server, which holds none, the requests still waiting for an answer) fell in each of the run's last three eighths, so that a longer run would see it recover; **stuck** when it is unhealthy at the end otherwise, or when no request after the fault succeeded; **not judged** when no request arrived after the fault.")
	b.WriteString(graphHealthText(cells) + "\n\n")
}

// graphHealthText says how a graph's services are judged, for the report's
// health section; empty when no cell has a graph.
func graphHealthText(cells []sweep.Cell) string {
	for i := range cells {
		if cells[i].Plan.Graph != nil {
			return " In a service graph each service is judged by the same rule on the calls made to it, one per call however many tries it took (every call made should have been answered, so a call that failed, timed out or is still out counts against it), and has a verdict of its own (the columns `<service>.verdict`, `.recovery_s` and `.collapse_s`); its backlog is that of the servers its calls reach, its own and those below it."
		}
	}
	return ""
}
