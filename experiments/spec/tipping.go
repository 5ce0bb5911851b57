package spec

// Tipping asks for a boundary search: for each combination of values of the
// grid's axes other than Key, the value of Key at which the system stops
// recovering, found by bracketing and bisection instead of a uniform grid.
// The range runs from its mild end (From, where the system is expected to
// recover) to its severe end (To); From may be above To, as for the
// capacity left by a degradation.
type Tipping struct {
	Key       string  // the key as the file names it: "blip", "load", "fault.0.capacity"
	Path      string  // the scenario path it sets: "fault.0.length"
	From, To  float64 // the mild and the severe end of the range, in Unit
	Tolerance float64 // the bisection stops at a bracket this wide, in Unit
	Unit      string  // "s" for durations, else the key's unit ("requests/s"), or ""
	Duration  bool    // the key is a duration (values in seconds)
	Whole     bool    // the key takes whole numbers
	// Scan is the number of points tried evenly over the range, both ends
	// included, before bisecting: every change of verdict between two of
	// them is bisected, and more than one change is reported as a
	// non-monotone answer.
	Scan int
	// Figure: the grid axis along the regions figure's x axis and the one
	// with a panel per value ("" for none), its file name and title.
	X, Panel    string
	Name, Title string
	// Service, in a service graph, is the service whose verdict judges a
	// point (an entry point's service judges the requests that come in
	// there); "" for the run's.
	Service string
	// Graph, when the scenario is a service graph, names its services and
	// edges, for the words that name a graph key ("capacity of db"); nil
	// otherwise.
	Graph *GraphNames
}

// Trigger reports whether the searched key is a fault's: then a run without
// any fault tells the overloaded region from the others.
func (t *Tipping) Trigger() bool { return len(t.Path) > 6 && t.Path[:6] == "fault." }
