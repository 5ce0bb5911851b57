package serve

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/stormlab/stormlab/experiments"
)

// inputError is bad input from a request: the answer is HTTP 400 with its
// message, and nothing changes. field, when set, is the request's field
// it concerns (as the request names it), and the message then reads
// "field: says".
type inputError struct {
	field, says string
	tooMany     bool // the run would outgrow the calls a live run may make
}

func (e *inputError) Error() string {
	if e.field == "" {
		return e.says
	}
	return e.field + ": " + e.says
}

// badInput makes an inputError.
func badInput(format string, args ...any) error {
	return &inputError{says: clip(fmt.Sprintf(format, args...), 400)}
}

// badField makes an inputError about one field of the request.
func badField(field, format string, args ...any) error {
	return &inputError{field: field, says: clip(fmt.Sprintf(format, args...), 400)}
}

// inputErr makes err bad input, keeping its message.
func inputErr(err error) error {
	var ie *inputError
	if err == nil || errors.As(err, &ie) {
		return err
	}
	return &inputError{says: clip(err.Error(), 4000)}
}

// busyError is a request the server cannot take now (too many runs): the
// answer is HTTP 503.
type busyError struct{ msg string }

func (e *busyError) Error() string { return e.msg }

// forbiddenError is a request from a page of another site: HTTP 403.
type forbiddenError struct{ msg string }

func (e *forbiddenError) Error() string { return e.msg }

// goneError is a run that does not exist (any more): HTTP 404.
type goneError struct{ msg string }

func (e *goneError) Error() string { return e.msg }

// httpStatus is the status code of an error: 400 for bad input, which is
// also everything the experiments loader refuses, with its one-line
// message; 403 for a page of another site; 404 for a run that has ended;
// 503 when the server is full.
func httpStatus(err error) int {
	var ie *inputError
	var le *experiments.Error
	var be *busyError
	var ge *goneError
	var fe *forbiddenError
	switch {
	case errors.As(err, &ie), errors.As(err, &le):
		return http.StatusBadRequest
	case errors.As(err, &be):
		return http.StatusServiceUnavailable
	case errors.As(err, &ge):
		return http.StatusNotFound
	case errors.As(err, &fe):
		return http.StatusForbidden
	}
	return http.StatusInternalServerError
}

// fail answers a request with err's status and its message, one line: the
// loader's message as it is, for API users. The page asks for JSON
// (Accept: application/json) and gets the field the error concerns and a
// message without the file, line or key the page never showed (pageError).
func fail(w http.ResponseWriter, r *http.Request, err error) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if strings.Contains(r.Header.Get("Accept"), "application/json") {
		reply(w, httpStatus(err), pageError(err))
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(httpStatus(err))
	fmt.Fprintln(w, clip(err.Error(), 4000))
}
