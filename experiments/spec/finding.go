package spec

// Finding is a sentence of the report written by the experiment's author
// whose numbers come from the results, and the claims it makes, which the
// report checks on those results.
type Finding struct {
	Parts []FindingPart
	// Claims are what the sentence says of its numbers ("naive retries tip
	// earlier than the rule": recovered is false where the rule says it
	// should still recover), each checked when the report is written; a
	// report whose claim fails says so beside the sentence.
	Claims []Claim
}

// FindingPart is literal text, or a reference to one number of one cell.
type FindingPart struct {
	Text   string // literal text (when Column is empty)
	Column string // results.csv column, or RuleOfThumb
	Cell   int    // index of the cell in the grid's cells
	Format string // Go verb such as "%.2f", "pct" (a percentage) or "int" (rounded to a whole number, thousands grouped: 227,633); empty = the report's own format
	SD     bool   // the standard deviation over the cell's replicates, not their mean
}

// RuleOfThumb is the column name a finding uses for the rule of thumb of
// the 30-second-blip article at a cell: the blip, in seconds, that tips
// naive retries at the cell's load (model.Plan.RuleOfThumb). It is not a
// results.csv column.
const RuleOfThumb = "rule_of_thumb_s"

// Claim is one comparison a finding makes: Left Op Right, each side an
// expression of references to cells' values and numbers (with + - * /,
// abs, min and max), or a word (a verdict such as stuck, a boolean). Text
// is the claim as the file writes it.
type Claim struct {
	Text        string
	Left, Right Expr
	Op          string // <, <=, >, >=, ==, !=
}

// Expr is one side of a claim, or a part of one: a leaf (a reference, a
// number or a word) when Op is empty, else Op applied to Args: "+", "-",
// "*", "/" to two, "neg" and "abs" to one, "min" and "max" to two or more.
type Expr struct {
	Op   string
	Args []Expr

	Kind OperandKind // of a leaf
	Ref  FindingPart // OperandRef
	Num  float64     // OperandNum
	Word string      // OperandWord
}

// OperandKind says what a leaf of an Expr holds.
type OperandKind uint8

const (
	OperandRef OperandKind = iota
	OperandNum
	OperandWord
)

// HasRef reports whether the expression refers to a result.
func (x *Expr) HasRef() bool {
	if x.Op == "" {
		return x.Kind == OperandRef
	}
	for i := range x.Args {
		if x.Args[i].HasRef() {
			return true
		}
	}
	return false
}
