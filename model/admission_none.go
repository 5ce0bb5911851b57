package model

// noAdmissionKind: the room serves every call it holds, in its queue's
// order, however long it waited.
func noAdmissionKind() admissionKind {
	return admissionKind{Kind: Kind{Name: "none", Doc: "every waiting call is served, however long it waited", Engines: OnAll}}
}
