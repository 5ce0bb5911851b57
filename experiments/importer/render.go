package importer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/experiments"
)

// Render writes the result as TOML to paste into an experiment: a comment
// naming the files, a line per field of the import as a whole that
// stormlab does not model, then a [[policy]] table per policy, each key
// under a comment saying which fields it comes from and how, and a comment
// line per field of the policy that is not modelled.
func Render(r *Result) string {
	var b strings.Builder
	b.WriteString("# stormlab import of:\n")
	for _, f := range r.Files {
		fmt.Fprintf(&b, "#   %s (%s)\n", f.Name, f.Format)
	}
	b.WriteString("# Each [[policy]] is one caller as the configuration sets it up, as scenario keys\n")
	b.WriteString("# of the edge layer (layer.0), its budget and its deadline; paste them into an\n")
	b.WriteString("# experiment whose engine is \"stochastic\" (deadline and hedging need it).\n")
	if len(r.Unmodelled) > 0 {
		b.WriteString("#\n# Fields of the files that no policy takes, not modelled:\n")
		for _, f := range r.Unmodelled {
			b.WriteString("# - " + f.describe() + ": " + f.Why + "\n")
		}
	}
	for _, p := range r.Policies {
		b.WriteString("\n[[policy]]\n")
		b.WriteString(experiments.TOMLAssign("name", p.Name) + "\n")
		fmt.Fprintf(&b, "# from %s\n", p.From.describe())
		for _, k := range p.Keys {
			var from []string
			for _, f := range k.From {
				from = append(from, f.describe())
			}
			fmt.Fprintf(&b, "# %s: %s\n", strings.Join(from, "; "), k.Says)
			b.WriteString(experiments.TOMLAssign(k.Key, k.Value) + "\n")
		}
		for _, f := range p.Unmodelled {
			b.WriteString("# not modelled: " + f.describe() + ": " + f.Why + "\n")
		}
	}
	return b.String()
}

// describe names a field for a comment: its path, its value when it has a
// short one, and where it is ("unset" when the file leaves it out).
func (f Field) describe() string {
	s := f.Path
	if s == "" {
		s = "the file"
	}
	if f.Value != "" {
		s += " = " + f.Value
	}
	where := f.File
	if f.Line > 0 {
		where += ":" + strconv.Itoa(f.Line) + ":" + strconv.Itoa(f.Col)
	}
	if f.Unset {
		return s + " (unset; in " + where + ")"
	}
	return s + " (" + where + ")"
}

// Experiment writes the result as a whole experiment file that stormlab
// validate accepts: a placeholder system (load, dependency, outage) to set
// to one's own, on the stochastic engine, with the imported policies as
// its policy axis.
func Experiment(r *Result) string {
	var names []string
	for _, f := range r.Files {
		names = append(names, f.Name)
	}
	var b strings.Builder
	b.WriteString(experiments.TOMLAssign("title", "Imported retry policies: "+strings.Join(names, ", ")) + "\n")
	b.WriteString(experiments.TOMLAssign("question", "How do the callers these files configure ride out a 10 s outage of their dependency?") + "\n")
	b.WriteString(`engine = "stochastic"
seed = 1

# A placeholder system: set the load, the dependency, the fault and the
# chain's depth to yours ("stormlab keys" lists every key).
[scenario]
tick = "5ms"
duration = "3m"
load = 80
dependency.capacity = 100
fault = [{ kind = "outage", start = "30s", length = "10s" }]

`)
	b.WriteString(Render(r))
	return b.String()
}

// Check loads the experiment Experiment writes for the result, as stormlab
// validate does, and returns the loader's error: what the importer writes
// must load.
func Check(r *Result) error {
	_, err := experiments.Parse("imported.toml", []byte(Experiment(r)), nil)
	return err
}
