package reports

import (
	"slices"

	"github.com/stormlab/stormlab/model"
)

// seriesService is a service of the cells' series: its name, and the
// quantities series.csv writes for it, model.ServiceColumns and, when its
// server is a worker pool in some cell, model.PoolServiceColumns.
type seriesService struct {
	name string
	pool bool
	cols []model.ServiceColumn
}

// seriesServices lists the services of the cells' series (a graph's),
// each once, in the order they first appear; none for chains.
func seriesServices(results []model.Result) []seriesService {
	var out []seriesService
	for i := range results {
		if s := results[i].Series; s != nil {
			for _, ss := range s.Services {
				k := slices.IndexFunc(out, func(x seriesService) bool { return x.name == ss.Name })
				if k < 0 {
					out = append(out, seriesService{name: ss.Name})
					k = len(out) - 1
				}
				out[k].pool = out[k].pool || ss.Pool
			}
		}
	}
	for k := range out {
		out[k].cols = model.ServiceColumns()
		if out[k].pool {
			out[k].cols = append(out[k].cols, model.PoolServiceColumns()...)
		}
	}
	return out
}

// serviceHeader is series.csv's columns for the services:
// <service>.<column> for each of its columns.
func serviceHeader(services []seriesService) []string {
	var out []string
	for _, sv := range services {
		for _, c := range sv.cols {
			out = append(out, sv.name+"."+c.Name)
		}
	}
	return out
}

// appendServices appends row j of each service's series in s, its fields
// empty where s has no such service (and a pool's where its server there
// is none).
func appendServices(buf []byte, services []seriesService, s *model.Series, j int) []byte {
	for _, sv := range services {
		k := slices.IndexFunc(s.Services, func(ss model.ServiceSeries) bool { return ss.Name == sv.name })
		for _, c := range sv.cols {
			buf = append(buf, ',')
			if k >= 0 {
				buf = appendNumber(buf, c.Get(&s.Services[k].Rows[j]))
			}
		}
	}
	return buf
}
