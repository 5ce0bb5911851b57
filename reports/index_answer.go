package reports

import "strings"

// reportAnswer is what reports/README.md sets beside an experiment's
// question: the first paragraph of its report's "## Answer" section (the
// headline; the report has the rest), or else the first paragraph of prose
// under "## Findings" (not a table or a list).
func reportAnswer(paras []string) string {
	section := ""
	for _, p := range paras {
		p = strings.TrimSpace(p)
		if strings.HasPrefix(p, "## ") {
			section = p
			continue
		}
		if (section == "## Answer" || section == "## Findings") && p != "" && !strings.ContainsAny(p[:1], "|-*!#") {
			return strings.Join(strings.Fields(p), " ")
		}
	}
	return ""
}
