package sweep

import (
	"fmt"

	"github.com/stormlab/stormlab/model"
)

// ApplyChanges works out, for each of sc's changes, the scenario from its
// moment on: the one before it (the cell's own, for the first) with the
// change's settings assigned, as -set would assign them. The model checks
// what may change; a setting Assign refuses is an error at the change.
func ApplyChanges(sc *model.Scenario) error {
	prev := *sc
	for i := range sc.Change {
		c := &sc.Change[i]
		then := Clone(prev)
		then.Change = nil
		for _, st := range c.Settings() {
			if err := Assign(&then, st.Path, st.Value); err != nil {
				if ke, ok := err.(*KeyError); ok {
					return &KeyError{Path: fmt.Sprintf("change.%d.set.%s", i, ke.Path), Msg: ke.Msg}
				}
				return err
			}
		}
		c.Then = &then
		prev = then
	}
	return nil
}
