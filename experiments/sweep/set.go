package sweep

import "github.com/stormlab/stormlab/model"

// Set is a named set of scenario overrides: one value of an axis of named
// sets, such as a retry policy or a failure profile.
type Set struct {
	Name      string
	Overrides []Override // applied in order
}

// Override sets one scenario key.
type Override struct {
	Path  string // the dotted path Assign takes: "layer.*.attempts"
	Value any    // in the generic form Assign takes
	Key   string // where it comes from, for errors: the key a file writes it at, "policy.1.attempts"
}

// Apply assigns the overrides to sc in order. On a failure it returns the
// override at fault and Assign's error.
func (s *Set) Apply(sc *model.Scenario) (*Override, error) {
	for i := range s.Overrides {
		o := &s.Overrides[i]
		if err := Assign(sc, o.Path, o.Value); err != nil {
			return o, err
		}
	}
	return nil, nil
}
