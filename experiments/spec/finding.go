package spec

// Finding is a sentence of the report written by the experiment's author
// whose numbers come from the results.
type Finding struct {
	Parts []FindingPart
}

// FindingPart is literal text, or a reference to one number of one cell.
type FindingPart struct {
	Text   string // literal text (when Column is empty)
	Column string // results.csv column
	Cell   int    // index of the cell in the grid's cells
	Format string // Go verb such as "%.2f", or "pct"; empty = the report's own format
	SD     bool   // the standard deviation over the cell's replicates, not their mean
}
