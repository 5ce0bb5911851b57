package sweep

// CellError is a cell whose scenario cannot be built or resolved, and what
// set the key at fault, so that a loader can point at where it is written.
type CellError struct {
	Cell    string // the cell's label
	Source  string // the Key of the axis or override that set the key; "" for the base scenario
	Path    string // the scenario path Source sets, or the key at fault when Source is ""; "" when no key is at fault
	Context string // what the cell was doing, for the message: "policy fast", "load=-1", "cell load=-1"
	Err     error  // from Assign (*KeyError) or model validation (*model.FieldError), or another problem
}

func (e *CellError) Error() string {
	if e.Context == "" {
		return e.Err.Error()
	}
	return e.Err.Error() + " (" + e.Context + ")"
}

func (e *CellError) Unwrap() error { return e.Err }
