package sweep

import "slices"

// Selector picks cells by their values on named axes: those whose value on
// each axis of Only is one of its texts, and whose value on each axis of
// Range lies within its bounds. The zero Selector holds every cell; an axis
// a cell does not have holds it too.
type Selector struct {
	Only  map[string][]string   // axis → the value texts accepted
	Range map[string][2]float64 // axis → [min, max] of its numeric value (durations in seconds)
}

// Holds reports whether the selector picks the cell.
func (s *Selector) Holds(c *Cell) bool {
	for axis, r := range s.Range {
		if v, ok := c.Get(axis); ok && (v.Num < r[0]-1e-9 || v.Num > r[1]+1e-9) {
			return false
		}
	}
	for axis, texts := range s.Only {
		if v, ok := c.Get(axis); ok && !slices.Contains(texts, v.Text) {
			return false
		}
	}
	return true
}

// Empty reports whether the selector holds every cell.
func (s *Selector) Empty() bool { return len(s.Only) == 0 && len(s.Range) == 0 }
