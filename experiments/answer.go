package experiments

// readAnswer reads answer = "..." (or a list of paragraphs): what the
// experiment found, in a few sentences whose numbers come from the results,
// written as findings are ({column[v1; v2]}). report.md opens with it and
// reports/README.md sets its first paragraph beside the other experiments'.
func (e *Experiment) readAnswer(v any, tree map[string]any) (err error) {
	e.Answer, err = e.readTemplates("answer", v, tree)
	return err
}
