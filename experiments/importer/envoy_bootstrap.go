package importer

import "strings"

// envoyHCM is the HTTP connection manager's network filter, by its name
// and by the type of its typed_config.
const (
	envoyHCMName = "envoy.filters.network.http_connection_manager"
	envoyHCMType = "envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager"
)

// envoyBootstrap reads an Envoy bootstrap file's static resources: its
// clusters, and the route_config of every HTTP connection manager of its
// listeners. Every other field is named as not modelled.
func (t *translation) envoyBootstrap(d *node) (clusters, routes []*node, err error) {
	if d.kind != mapNode {
		return nil, nil, bad(d, "must be a table of fields (a Bootstrap), got %s", describe(d))
	}
	t.anchor(d, "Bootstrap")
	t.leaveAll(nil, d, "static_resources")
	sr := d.child("static_resources", lowerSnake)
	if sr == nil {
		return nil, nil, nil
	}
	if sr.kind != mapNode {
		return nil, nil, bad(sr, "must be a table of fields (static_resources), got %s", describe(sr))
	}
	t.leaveAll(nil, sr, "listeners", "clusters")
	if cs := sr.child("clusters", lowerSnake); cs != nil {
		if err := list(cs); err != nil {
			return nil, nil, err
		}
		clusters = cs.items
	}
	ls := sr.child("listeners", lowerSnake)
	if ls == nil {
		return clusters, nil, nil
	}
	if err := list(ls); err != nil {
		return nil, nil, err
	}
	for _, l := range ls.items {
		rcs, err := t.envoyListener(l)
		if err != nil {
			return nil, nil, err
		}
		routes = append(routes, rcs...)
	}
	return clusters, routes, nil
}

// envoyListener finds the route configurations of a listener's HTTP
// connection managers.
func (t *translation) envoyListener(l *node) ([]*node, error) {
	if l.kind != mapNode {
		return nil, bad(l, "must be a table of fields (a Listener), got %s", describe(l))
	}
	t.anchor(l, "Listener")
	t.leaveAll(nil, l, "filter_chains")
	fcs := l.child("filter_chains", lowerSnake)
	if fcs == nil {
		return nil, nil
	}
	if err := list(fcs); err != nil {
		return nil, err
	}
	var out []*node
	for _, fc := range fcs.items {
		if fc.kind != mapNode {
			return nil, bad(fc, "must be a table of fields (a FilterChain), got %s", describe(fc))
		}
		t.anchor(fc, "FilterChain")
		t.leaveAll(nil, fc, "filters")
		fs := fc.child("filters", lowerSnake)
		if fs == nil {
			continue
		}
		if err := list(fs); err != nil {
			return nil, err
		}
		for _, f := range fs.items {
			rc, err := t.envoyFilter(f)
			if err != nil {
				return nil, err
			}
			if rc != nil {
				out = append(out, rc)
			}
		}
	}
	return out, nil
}

// envoyFilter is the route_config of an HTTP connection manager filter, or
// nil for any other filter, which it names as not modelled.
func (t *translation) envoyFilter(f *node) (*node, error) {
	if f.kind != mapNode {
		return nil, bad(f, "must be a table of fields (a Filter), got %s", describe(f))
	}
	t.anchor(f, "Filter")
	name, tc := f.child("name", lowerSnake), f.child("typed_config", lowerSnake)
	var typ *node
	if tc != nil {
		typ = tc.child("@type", same)
	}
	isHCM := name != nil && name.kind == scalarNode && name.value == envoyHCMName ||
		typ != nil && typ.kind == scalarNode && strings.HasSuffix(typ.value, "/"+envoyHCMType)
	if !isHCM || tc == nil || tc.kind != mapNode {
		t.leave(nil, f, t.why(f))
		return nil, nil
	}
	t.anchor(tc, "HttpConnectionManager")
	t.leaveAll(nil, f, "typed_config")
	t.leaveAll(nil, tc, "route_config")
	rc := tc.child("route_config", lowerSnake)
	if rc != nil && rc.kind != mapNode {
		return nil, bad(rc, "must be a table of fields (a RouteConfiguration), got %s", describe(rc))
	}
	return rc, nil
}
