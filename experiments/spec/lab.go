package spec

// Lab is an experiment's [lab] section: which of its cells `stormlab lab`
// runs on the real stack, how much faster than the scenario, and which
// result columns it compares with the model's, each within a tolerance and
// for a stated reason.
type Lab struct {
	Speed float64 // run the scenario this many times faster (-speed overrides it)
	// Only selects the cells it runs: a cell runs when one of the tables
	// holds it (axis → values); none for every cell.
	Only []map[string][]string
	// Columns are the results.csv columns compared, in the report's order;
	// each has a tolerance.
	Columns []LabColumn
}

// LabColumn is one compared column: how far the lab's value may be from
// the model's, and why that far.
type LabColumn struct {
	Name string
	Tolerance
	Why string
}
