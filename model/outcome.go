package model

// outcome is what an answer tells its caller.
type outcome uint8

const (
	answerOK       outcome = iota
	answerFail             // an error, or no answer in time: the caller may retry
	answerFatal            // an error a retry cannot fix (a 4xx): no caller retries it
	answerPushback         // "overloaded, don't retry": no caller retries it
)

// refusal is why a try was not made or a failed one not retried.
type refusal uint8

const (
	byBudget   refusal = iota // a retry budget refused it
	byBreaker                 // an open circuit breaker failed it at once
	byDeadline                // the request's deadline had passed
	byPushback                // the dependency said "overloaded, don't retry"
	byFatal                   // the error is not retryable
	byLimiter                 // a concurrency limiter refused it, or it waited for a slot too long
	refusals
)

// noRetry is the refusal an answer that may not be retried counts as.
func (o outcome) noRetry() (refusal, bool) {
	switch o {
	case answerFatal:
		return byFatal, true
	case answerPushback:
		return byPushback, true
	}
	return 0, false
}
