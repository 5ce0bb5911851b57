package serve

import (
	"net/http"
	"strconv"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// schema is what the page builds its policy form from: every family of
// kinds the model registers, each kind with the engines that model it and
// the keys it reads, and every other key with its type and range. It is
// derived from the registries and the declared ranges, so a kind added to
// the model is offered by the page with nothing else to change.
type schema struct {
	Families []schemaFamily `json:"families"`
	Keys     []schemaKey    `json:"keys"`
}

// schemaFamily is one registry: the key that picks a kind ("budget.kind",
// "layer.N.breaker.kind"), the table its kinds' keys are below, and its
// kinds.
type schemaFamily struct {
	Key   string       `json:"key"`
	Table string       `json:"table"`
	Name  string       `json:"name"`
	Kinds []schemaKind `json:"kinds"`
}

// schemaKind is one kind: its name, what it does, the engines that model
// it ("queue", "stochastic"), its keys, below its family's table, and what
// picks it where the family's key cannot name it (a form does not offer
// such a kind in the key's list).
type schemaKind struct {
	Name     string      `json:"name"`
	Doc      string      `json:"doc"`
	Engines  []string    `json:"engines"`
	Keys     []schemaKey `json:"keys"`
	PickedBy string      `json:"picked_by,omitempty"`
}

// schemaKey is one key as a form field: its path, its default as a form
// holds it, its type (number, whole, duration, text, bool), the words a
// text key takes, and its range (Min and Max in seconds for a duration)
// and unit.
type schemaKey struct {
	Key     string   `json:"key"`
	Default string   `json:"default"`
	Type    string   `json:"type"`
	Choices []string `json:"choices,omitempty"`
	Min     *float64 `json:"min,omitempty"`
	Max     *float64 `json:"max,omitempty"`
	Range   string   `json:"range,omitempty"` // as a person reads it: "1µs to 24h"
	Unit    string   `json:"unit,omitempty"`
	Doc     string   `json:"doc"`
}

// newSchema derives the schema from the model's registries.
func newSchema() schema {
	var s schema
	for _, fam := range model.Families() {
		f := schemaFamily{Key: fam.Key, Table: sweep.Table(fam), Name: fam.Name}
		for _, k := range sweep.KindsOf(fam) {
			sk := schemaKind{Name: k.Name, Doc: k.Doc, Engines: []string{}, PickedBy: k.PickedBy}
			for _, e := range []string{"queue", "stochastic"} {
				if k.Engines.Has(e) {
					sk.Engines = append(sk.Engines, e)
				}
			}
			for _, key := range k.Keys {
				sk.Keys = append(sk.Keys, fieldOf(key))
			}
			f.Kinds = append(f.Kinds, sk)
		}
		s.Families = append(s.Families, f)
	}
	for _, key := range sweep.Reference() {
		s.Keys = append(s.Keys, fieldOf(key))
	}
	return s
}

// fieldOf is a key as the schema gives it. A key several kinds read with
// different ranges gets the widest, the form's bound; the server checks
// the kind's own when the change is applied.
func fieldOf(k sweep.Key) schemaKey {
	out := schemaKey{Key: k.Path, Default: k.Value, Type: k.Type, Choices: k.Choices, Range: k.Range, Unit: k.Unit, Doc: k.Doc}
	if s, err := strconv.Unquote(k.Value); err == nil && k.Type == "text" {
		out.Default = s
	}
	if len(k.Ranges) == 1 {
		out.Range = k.Ranges[0].Ends()
	}
	for i, r := range k.Ranges {
		if i == 0 || r.Min < *out.Min {
			out.Min = &r.Min
		}
		if i == 0 || r.Max > *out.Max {
			out.Max = &r.Max
		}
	}
	return out
}

// getSchema serves the schema.
func (s *Server) getSchema(w http.ResponseWriter, _ *http.Request) {
	reply(w, http.StatusOK, s.schema)
}
