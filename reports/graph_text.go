package reports

import (
	"fmt"
	"math"
	"strings"

	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/plots"
)

// serversText names what a cell's calls at the servers were counted at, as
// the subject of a sentence and its possessive: a chain's dependency
// ("the dependency", "its"); a graph's one server by its service's name;
// several servers summed ("the servers a, b and c together", "their").
func serversText(p *model.Plan) (subject, own string) {
	if p.Graph == nil {
		return "the dependency", "its"
	}
	var names []string
	for i, sp := range p.Graph.Servers {
		if sp != nil {
			names = append(names, p.Graph.Services[i])
		}
	}
	if len(names) == 1 {
		return names[0], "its"
	}
	return "the servers " + plots.JoinAnd(names) + " together", "their"
}

// serviceVerdicts says how each service of a graph's cell ended, judged as
// the run is on the calls made to it (the <service>.verdict and
// .recovery_s columns): "By service: front recovered after 28.7 s, db
// stuck." Empty for a chain.
func serviceVerdicts(p *model.Plan, r *model.Result) string {
	if p.Graph == nil {
		return ""
	}
	ms := model.GraphMetrics(p.Graph)
	value := func(name string) float64 {
		for _, m := range ms {
			if m.Name == name {
				return m.Value(r)
			}
		}
		return math.NaN()
	}
	var parts []string
	timed := false // some service's recovery time is given
	for _, name := range p.Graph.Services {
		v := value(name + ".verdict")
		if math.IsNaN(v) {
			continue
		}
		word := model.Verdict(v).String()
		switch rec := value(name + ".recovery_s"); {
		case model.Verdict(v) != model.Recovered:
		case !p.Triggered() || math.IsNaN(rec):
			word = "healthy at the end"
		case rec == 0:
			word = "healthy as soon as the fault ended"
		default:
			word, timed = fmt.Sprintf("recovered after %s s", plots.Number(rec)), true
		}
		parts = append(parts, name+" "+word)
	}
	if len(parts) == 0 {
		return ""
	}
	head := "By service: "
	if r.Replicates > 1 && timed {
		head = "By service (recovery: the mean over the replicates that recovered): "
	}
	return head + strings.Join(parts, ", ") + "."
}
