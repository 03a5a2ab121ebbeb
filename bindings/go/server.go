package sg

import (
	"runtime"
	"sync"

	"sg.invalid/go/internal/capi"
)

// Server is one task of a cluster (its master and worker services); sessions whose target is
// Target() run on the cluster.
//
// The creator closes it (Close stops it first). Methods may be called from any goroutine; Join
// blocks until another goroutine calls Stop or Close.
type Server struct {
	mu     sync.Mutex // guards c and closed
	c      capi.Struct_SS_SG_Server
	calls  sync.WaitGroup
	closed bool
}

// NewServer makes the server of task `task` of job `job` of clusterSpec, e.g.
// "ps=127.0.0.1:2222;worker=127.0.0.1:2223,127.0.0.1:2224" (port 0 picks a free port at Start).
func NewServer(clusterSpec, job string, task int) (*Server, error) {
	var err error
	c := capi.SG_NewServerFromClusterSpec(clusterSpec, job, task, &err)
	if err != nil {
		return nil, fromStatus(err)
	}
	s := &Server{c: c}
	runtime.SetFinalizer(s, (*Server).finalize)
	return s, nil
}

func (s *Server) finalize() { s.Close() }

func (s *Server) enter() (capi.Struct_SS_SG_Server, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, newError(FailedPrecondition, "the Server is closed")
	}
	s.calls.Add(1)
	return s.c, nil
}

func (s *Server) call(f func(capi.Struct_SS_SG_Server, *error)) error {
	c, err := s.enter()
	if err != nil {
		return err
	}
	defer s.calls.Done()
	f(c, &err)
	runtime.KeepAlive(s)
	return fromStatus(err)
}

// Start binds the address and serves (Unavailable when the address is taken).
func (s *Server) Start() error { return s.call(capi.SG_ServerStart) }

// Stop stops serving; steps in flight end Canceled.
func (s *Server) Stop() error { return s.call(capi.SG_ServerStop) }

// Join blocks until the server is stopped.
func (s *Server) Join() error { return s.call(capi.SG_ServerJoin) }

// Target is "grpc://host:port", the target of sessions on this server.
func (s *Server) Target() string {
	c, err := s.enter()
	if err != nil {
		return ""
	}
	defer s.calls.Done()
	t := capi.SG_ServerTarget(c)
	runtime.KeepAlive(s)
	return t
}

// Close stops the server, waits for calls in progress (Join included) and frees it.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	c := s.c
	s.mu.Unlock()
	var err error
	capi.SG_ServerStop(c, &err)
	s.calls.Wait()
	capi.SG_DeleteServer(c)
	return fromStatus(err)
}
