package sg

import (
	"runtime"

	"sg.invalid/go/internal/capi"
)

// SavedModel is a TensorFlow SavedModel loaded into a new graph and session, its variables
// restored. Close closes the session, then the graph.
type SavedModel struct {
	Session *Session
	Graph   *Graph
	// MetaGraphDef is the serialized MetaGraphDef (signatures, collections).
	MetaGraphDef []byte
}

// LoadSavedModel loads the MetaGraphDef of exportDir whose tags are exactly tags (options may
// be nil). NotFound for a missing directory or tag set.
func LoadSavedModel(exportDir string, tags []string, options *SessionOptions) (*SavedModel, error) {
	opts, err := newSessionOptions(options)
	if err != nil {
		return nil, err
	}
	defer capi.SG_DeleteSessionOptions(opts)
	var all []byte
	lengths := make([]int64, len(tags))
	for i, t := range tags {
		all = append(all, t...)
		lengths[i] = int64(len(t))
	}
	g := NewGraph()
	gc, err := g.acquire()
	if err != nil {
		return nil, err
	}
	meta := capi.SG_NewBuffer()
	defer capi.SG_DeleteBuffer(meta)
	c := capi.Sgb_LoadSessionFromSavedModel(opts, nil, exportDir, all, lengths, gc, meta, &err)
	g.release()
	runtime.KeepAlive(all)
	if err != nil {
		g.Close()
		return nil, fromStatus(err)
	}
	s := &Session{c: c, graph: g}
	runtime.SetFinalizer(s, (*Session).finalize)
	return &SavedModel{Session: s, Graph: g, MetaGraphDef: append([]byte(nil), capi.Sgb_BufferView(meta)...)}, nil
}

// Close closes the session, then the graph.
func (m *SavedModel) Close() error {
	err := m.Session.Close()
	m.Graph.Close()
	return err
}
