package spec

// Tolerance is how far a regenerated number may move from its baseline:
// |now − base| ≤ Abs or ≤ Rel × |base|.
type Tolerance struct {
	Abs, Rel float64
}
