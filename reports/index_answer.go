package reports

import "strings"

// reportAnswer is what reports/README.md sets beside an experiment's
// question: the paragraphs of its report's "## Answer" section, or else the
// first paragraph of prose under "## Findings" (not a table or a list).
func reportAnswer(paras []string) string {
	var out []string
	section := ""
	for _, p := range paras {
		p = strings.TrimSpace(p)
		if strings.HasPrefix(p, "## ") {
			if len(out) > 0 {
				break
			}
			section = p
			continue
		}
		switch section {
		case "## Answer":
			out = append(out, p)
		case "## Findings":
			if p != "" && !strings.ContainsAny(p[:1], "|-*!#") {
				return strings.Join(strings.Fields(p), " ")
			}
		}
	}
	return strings.Join(strings.Fields(strings.Join(out, " ")), " ")
}
