package sg

import (
	"runtime"
	"sync"

	"sg.invalid/go/internal/capi"
)

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
	config, err := options.ConfigProto()
	if err == nil && len(config) > 0 {
		capi.SG_SetConfig(opts, config, &err)
		err = fromStatus(err)
	}
	if err != nil {
		capi.SG_DeleteSessionOptions(opts)
		return nil, err
	}
	return opts, nil
}

func (s *Session) finalize() { s.Close() }

// Run feeds feeds, computes fetches and runs targets for their effect. The results are new
// tensors the caller closes (in fetch order); feeds stay the caller's.
func (s *Session) Run(feeds map[Output]*Tensor, fetches []Output, targets []*Operation) ([]*Tensor, error) {
	out, _, err := s.run(nil, feeds, fetches, targets)
	return out, err
}

// RunWithOptions is Run with RunOptions (nil: the defaults), returning also the step's
// RunMetadata, as TensorFlow's Session.run(options=, run_metadata=) in Python (TensorFlow's Go
// package has no such method). With options.TraceLevel above NoTrace the metadata holds the
// step's statistics; with OutputPartitionGraphs, the graphs run. Ownership, errors and threads
// as Run.
func (s *Session) RunWithOptions(options *RunOptions, feeds map[Output]*Tensor, fetches []Output, targets []*Operation) ([]*Tensor, *RunMetadata, error) {
	var opts []byte
	if options != nil {
		opts = options.Bytes()
	}
	out, raw, err := s.run(&opts, feeds, fetches, targets)
	if err != nil {
		return nil, nil, err
	}
	md, err := ParseRunMetadata(raw)
	if err != nil {
		for _, t := range out {
			t.Close()
		}
		return nil, nil, err
	}
	return out, md, nil
}

// run with options != nil asks for the RunMetadata.
func (s *Session) run(options *[]byte, feeds map[Output]*Tensor, fetches []Output, targets []*Operation) ([]*Tensor, []byte, error) {
	feedArray, err := feedTriples(feeds)
	if err != nil {
		return nil, nil, err
	}
	fetchArray := outputPairs(fetches)
	targetArray := operationHandles(targets)
	outputs := make([]int64, len(fetches))

	var runOptions, runMetadata capi.Struct_SS_SG_Buffer
	if options != nil {
		if len(*options) > 0 {
			runOptions = capi.SG_NewBufferFromString(*options)
			defer capi.SG_DeleteBuffer(runOptions)
		}
		runMetadata = capi.SG_NewBuffer()
		defer capi.SG_DeleteBuffer(runMetadata)
	}
	if closed := s.call(func(c capi.Struct_SS_SG_Session) {
		capi.Sgb_SessionRun(c, runOptions, feedArray, fetchArray, outputs, targetArray, runMetadata, &err)
	}); closed != nil {
		return nil, nil, closed
	}
	runtime.KeepAlive(feeds)
	runtime.KeepAlive(fetches)
	runtime.KeepAlive(targets)
	runtime.KeepAlive(s)
	if err != nil {
		return nil, nil, fromStatus(err)
	}
	var md []byte
	if options != nil {
		md = append([]byte(nil), capi.Sgb_BufferView(runMetadata)...)
	}
	return tensorsFromHandles(outputs), md, nil
}

// call runs f with the session's C handle while holding the read lock that Close waits for; it
// returns Canceled, without calling f, once the session is closed.
func (s *Session) call(f func(c capi.Struct_SS_SG_Session)) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.c == nil {
		return newError(Canceled, "the Session is closed")
	}
	f(s.c)
	return nil
}

func tensorsFromHandles(handles []int64) []*Tensor {
	out := make([]*Tensor, len(handles))
	for i, h := range handles {
		out[i] = newTensorFromHandle(capi.SwigcptrStruct_SS_SG_Tensor(uintptr(h)))
	}
	return out
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

// feedTriples lists feeds as (operation, index, tensor) handles, as the sgb_ helpers take them.
func feedTriples(feeds map[Output]*Tensor) ([]int64, error) {
	a := make([]int64, 0, 3*len(feeds))
	for o, t := range feeds {
		if o.Op == nil || t == nil {
			return nil, newError(InvalidArgument, "a feed has a nil operation or tensor")
		}
		tc, err := t.handle()
		if err != nil {
			return nil, err
		}
		a = append(a, int64(o.Op.c.Swigcptr()), int64(o.Index), int64(tc.Swigcptr()))
	}
	return a, nil
}

// outputPairs lists outputs as (operation, index) handles.
func outputPairs(outs []Output) []int64 {
	a := make([]int64, 0, 2*len(outs))
	for _, o := range outs {
		var h int64
		if o.Op != nil {
			h = int64(o.Op.c.Swigcptr())
		}
		a = append(a, h, int64(o.Index))
	}
	return a
}

func operationHandles(ops []*Operation) []int64 {
	a := make([]int64, len(ops))
	for i, op := range ops {
		if op != nil {
			a[i] = int64(op.c.Swigcptr())
		}
	}
	return a
}
