package sweep

// Axis is one dimension of a grid: the values of one scenario key, or named
// sets of scenario keys.
type Axis struct {
	Name     string  // "load", "blip", "dependency.capacity", "policy"
	Path     string  // the scenario path its values set; "" for an axis of named sets
	Sets     []Set   // non-nil for an axis of named sets: its values are their names
	Values   []Value // in order
	Key      string  // where it comes from, for errors: the key a file writes it at, "grid.load"
	Duration bool    // the values are durations (Num in seconds)
}

// SetAxis makes an axis of named sets, a value per set.
func SetAxis(name, key string, sets []Set) Axis {
	ax := Axis{Name: name, Key: key, Sets: sets}
	if ax.Sets == nil {
		ax.Sets = []Set{}
	}
	for _, s := range sets {
		ax.Values = append(ax.Values, Value{Text: s.Name, Raw: s.Name})
	}
	return ax
}

// Named reports whether the axis's values are named sets.
func (ax *Axis) Named() bool { return ax.Sets != nil }

// Set returns the axis's named set called name.
func (ax *Axis) Set(name string) (*Set, bool) {
	for i := range ax.Sets {
		if ax.Sets[i].Name == name {
			return &ax.Sets[i], true
		}
	}
	return nil, false
}
