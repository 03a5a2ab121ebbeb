package sg

import (
	"runtime"
	"sync"

	"sg.invalid/go/internal/capi"
)

// SessionOptions configure NewSession.
type SessionOptions struct {
	// Target is "" for this process or "grpc://host:port" for a cluster.
	Target string
	// Config is a serialized ConfigProto (nil: the default).
	Config []byte
}

// Session runs a Graph.
//
// The creator closes it (a finalizer frees a forgotten one). Run may be called from any number
// of goroutines at once; Close refuses new runs, waits for those in flight, and frees the session.
type Session struct {
	mu    sync.RWMutex // read-held by runs in flight, write-held by Close
	c     capi.Struct_SS_SG_Session
	graph *Graph
}

// NewSession makes a session running g (options may be nil).
func NewSession(g *Graph, options *SessionOptions) (*Session, error) {
	gc, err := g.acquire()
	if err != nil {
		return nil, err
	}
	defer g.release()
	opts, err := newSessionOptions(options)
	if err != nil {
		return nil, err
	}
	defer capi.SG_DeleteSessionOptions(opts)
	c := capi.SG_NewSession(gc, opts, &err)
	if err != nil {
		return nil, fromStatus(err)
	}
	s := &Session{c: c, graph: g}
	runtime.SetFinalizer(s, (*Session).finalize)
	return s, nil
}

func newSessionOptions(options *SessionOptions) (capi.Struct_SS_SG_SessionOptions, error) {
	opts := capi.SG_NewSessionOptions()
	if options == nil {
		return opts, nil
	}
	if options.Target != "" {
		capi.SG_SetTarget(opts, options.Target)
	}
	if options.Config != nil {
		var err error
		capi.SG_SetConfig(opts, options.Config, &err)
		if err != nil {
			capi.SG_DeleteSessionOptions(opts)
			return nil, fromStatus(err)
		}
	}
	return opts, nil
}

func (s *Session) finalize() { s.Close() }

// Run feeds feeds, computes fetches and runs targets for their effect. The results are new
// tensors the caller closes (in fetch order); feeds stay the caller's.
func (s *Session) Run(feeds map[Output]*Tensor, fetches []Output, targets []*Operation) ([]*Tensor, error) {
	feedArray := make([]int64, 0, 3*len(feeds))
	for o, t := range feeds {
		tc, err := t.handle()
		if err != nil {
			return nil, err
		}
		feedArray = append(feedArray, int64(o.Op.c.Swigcptr()), int64(o.Index), int64(tc.Swigcptr()))
	}
	fetchArray := make([]int64, 0, 2*len(fetches))
	for _, o := range fetches {
		fetchArray = append(fetchArray, int64(o.Op.c.Swigcptr()), int64(o.Index))
	}
	targetArray := make([]int64, len(targets))
	for i, op := range targets {
		targetArray[i] = int64(op.c.Swigcptr())
	}
	outputs := make([]int64, len(fetches))

	s.mu.RLock()
	if s.c == nil {
		s.mu.RUnlock()
		return nil, newError(Canceled, "the Session is closed")
	}
	var err error
	capi.Sgb_SessionRun(s.c, nil, feedArray, fetchArray, outputs, targetArray, nil, &err)
	s.mu.RUnlock()
	runtime.KeepAlive(feeds)
	runtime.KeepAlive(fetches)
	runtime.KeepAlive(targets)
	runtime.KeepAlive(s)
	if err != nil {
		return nil, fromStatus(err)
	}
	out := make([]*Tensor, len(outputs))
	for i, h := range outputs {
		out[i] = newTensorFromHandle(capi.SwigcptrStruct_SS_SG_Tensor(uintptr(h)))
	}
	return out, nil
}

// Close waits for the runs in flight, then closes and frees the session (idempotent).
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c == nil {
		return nil
	}
	var err error
	capi.SG_DeleteSession(s.c, &err)
	s.c = nil
	return fromStatus(err)
}
