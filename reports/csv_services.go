package reports

import (
	"slices"

	"github.com/stormlab/stormlab/model"
)

// seriesServices lists the services of the cells' series (a graph's),
// each once, in the order they first appear; none for chains.
func seriesServices(results []model.Result) []string {
	var names []string
	for i := range results {
		if s := results[i].Series; s != nil {
			for _, ss := range s.Services {
				if !slices.Contains(names, ss.Name) {
					names = append(names, ss.Name)
				}
			}
		}
	}
	return names
}

// serviceHeader is series.csv's columns for the services names:
// <service>.<column> for each of model.ServiceColumns.
func serviceHeader(names []string) []string {
	var out []string
	for _, n := range names {
		for _, c := range model.ServiceColumns() {
			out = append(out, n+"."+c.Name)
		}
	}
	return out
}

// appendServices appends row j of each named service's series in s, its
// fields empty where s has no such service.
func appendServices(buf []byte, names []string, s *model.Series, j int) []byte {
	cols := model.ServiceColumns()
	for _, n := range names {
		k := slices.IndexFunc(s.Services, func(ss model.ServiceSeries) bool { return ss.Name == n })
		for _, c := range cols {
			buf = append(buf, ',')
			if k >= 0 {
				buf = appendNumber(buf, c.Get(&s.Services[k].Rows[j]))
			}
		}
	}
	return buf
}
