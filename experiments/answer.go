package experiments

import (
	"fmt"

	"github.com/stormlab/stormlab/experiments/sweep"
)

// readAnswer reads answer = "..." (or a list of paragraphs): what the
// experiment found, in a few sentences whose numbers come from the results,
// written as findings are ({column[v1; v2]}). report.md opens with it and
// reports/README.md sets it beside the other experiments' answers.
func (e *Experiment) readAnswer(v any) error {
	if v == nil {
		return nil
	}
	items, list := v.([]any)
	if !list {
		items = []any{v}
	}
	for i, x := range items {
		key := "answer"
		if list {
			key = fmt.Sprintf("answer.%d", i)
		}
		text, ok := x.(string)
		if !ok {
			return e.errorf(key, "wants a string (or a list of them), got %s", sweep.Describe(x))
		}
		f, err := e.parseFinding(text)
		if err != nil {
			return e.errorf(key, "%v", err)
		}
		e.Answer = append(e.Answer, f)
	}
	return nil
}
