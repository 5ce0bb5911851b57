package importer

import "strings"

// isKube tells a Kubernetes resource of the API group group and the kind
// kind by its apiVersion and kind fields.
func isKube(root *node, group, kind string) bool {
	if root.kind != mapNode {
		return false
	}
	av, k := root.child("apiVersion", same), root.child("kind", same)
	if av == nil || k == nil || av.kind != scalarNode || k.kind != scalarNode {
		return false
	}
	g, _, ok := strings.Cut(av.value, "/")
	return ok && g == group && k.value == kind
}

// kubeRules are the rows of a Kubernetes resource's envelope.
func kubeRules() []Rule {
	return []Rule{
		{"apiVersion", nil, "tells the resource's kind"},
		{"kind", nil, "tells the resource's kind"},
		{"metadata", nil, "the resource's name and labels: the name names the policies"},
		{"status", nil, "written by the cluster, not configuration"},
	}
}

// kubeEnvelope reads a resource's name and names its envelope's fields as
// not modelled; spec is its spec, which the caller translates.
func (t *translation) kubeEnvelope(root *node) (name string, spec *node, err error) {
	if err := table(root, "a Kubernetes resource", same, []string{"apiVersion", "kind", "metadata", "spec", "status"}); err != nil {
		return "", nil, err
	}
	if md := root.child("metadata", same); md != nil && md.kind == mapNode {
		if n := md.child("name", same); n != nil && n.kind == scalarNode {
			name = n.value
		}
		if ns := md.child("namespace", same); ns != nil && ns.kind == scalarNode && name != "" {
			name = ns.value + "/" + name
		}
	}
	t.leaveAll(nil, root, "spec")
	spec = root.child("spec", same)
	if spec == nil {
		return "", nil, bad(root, "spec is required")
	}
	if spec.kind != mapNode {
		return "", nil, bad(spec, "must be a table of fields (the resource's spec), got %s", describe(spec))
	}
	return name, spec, nil
}
