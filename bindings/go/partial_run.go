package sg

import (
	"runtime"
	"sync"

	"sg.invalid/go/internal/capi"
)

// PartialRun is one step of a Session taken in several calls, as TensorFlow's Go
// (*Session).NewPartialRun and (*PartialRun).Run (the C API's TF_SessionPRunSetup and
// TF_SessionPRun). The setup declares every feed, fetch and target; each Run then feeds some of
// the declared feeds and fetches some of the declared fetches, computing only what they need.
// Values computed by earlier calls are kept, so a later call may fetch a tensor that depends on
// feeds given earlier. Each feed and fetch is used at most once; the targets run with the call
// that makes the last fetch.
//
// Ownership: the caller closes it (a finalizer frees a forgotten one); Close abandons a step not
// yet finished. Run's results are new tensors the caller closes. Threads: Run may be called from
// several goroutines; Close waits for calls in flight.
type PartialRun struct {
	mu      sync.RWMutex // read-held by calls in flight, write-held by Close
	handle  int64        // 0 once closed
	session *Session
}

// NewPartialRun sets up a partial run that will feed feeds, fetch fetches and run targets.
//
// Errors: InvalidArgument for an output or operation of another graph or given twice; Canceled
// once the session is closed.
func (s *Session) NewPartialRun(feeds []Output, fetches []Output, targets []*Operation) (*PartialRun, error) {
	feedArray := outputPairs(feeds)
	fetchArray := outputPairs(fetches)
	targetArray := operationHandles(targets)
	var err error
	var h int64
	if closed := s.call(func(c capi.Struct_SS_SG_Session) {
		h = capi.Sgb_SessionPRunSetup(c, feedArray, fetchArray, targetArray, &err)
	}); closed != nil {
		return nil, closed
	}
	runtime.KeepAlive(feeds)
	runtime.KeepAlive(fetches)
	runtime.KeepAlive(targets)
	if err != nil {
		return nil, fromStatus(err)
	}
	pr := &PartialRun{handle: h, session: s}
	runtime.SetFinalizer(pr, (*PartialRun).finalize)
	return pr, nil
}

// Run feeds some declared feeds and fetches some declared fetches (targets must be among the
// declared ones; they run with the last fetch). The results are new tensors the caller closes,
// in fetch order.
//
// Errors: InvalidArgument for a feed or fetch not declared or already used, and after Close (as
// the C API reports a released handle); Canceled once the session is closed; a kernel's error.
func (pr *PartialRun) Run(feeds map[Output]*Tensor, fetches []Output, targets []*Operation) ([]*Tensor, error) {
	feedArray, err := feedTriples(feeds)
	if err != nil {
		return nil, err
	}
	fetchArray := outputPairs(fetches)
	targetArray := operationHandles(targets)
	outputs := make([]int64, len(fetches))
	pr.mu.RLock()
	defer pr.mu.RUnlock()
	if pr.handle == 0 {
		return nil, newError(InvalidArgument, "the PartialRun is closed")
	}
	if closed := pr.session.call(func(c capi.Struct_SS_SG_Session) {
		capi.Sgb_SessionPRun(c, pr.handle, feedArray, fetchArray, outputs, targetArray, &err)
	}); closed != nil {
		return nil, closed
	}
	runtime.KeepAlive(feeds)
	runtime.KeepAlive(fetches)
	runtime.KeepAlive(targets)
	if err != nil {
		return nil, fromStatus(err)
	}
	return tensorsFromHandles(outputs), nil
}

func (pr *PartialRun) finalize() { pr.Close() }

// Close frees the partial run's handle and state (idempotent); it waits for calls in flight.
func (pr *PartialRun) Close() error {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.handle == 0 {
		return nil
	}
	// Under the session's read lock, so that the session is not freed meanwhile (freeing the
	// handle reaches into the session that made it; after the session is freed it only frees
	// the handle).
	pr.session.mu.RLock()
	capi.Sgb_DeletePRunHandle(pr.handle)
	pr.session.mu.RUnlock()
	pr.handle = 0
	return nil
}
