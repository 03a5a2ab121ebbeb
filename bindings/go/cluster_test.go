package sg

import (
	"bufio"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// The digits classifier on a two-task cluster of `sg server` processes (SG_TOOL), with the last
// op on the other task so that the probabilities cross the wire.
func TestDigitsOnATwoTaskClusterOfSgServerProcesses(t *testing.T) {
	tool := os.Getenv("SG_TOOL")
	if tool == "" {
		t.Skip("SG_TOOL (the sg tool) is not set")
	}
	p0, p1 := freePort(t), freePort(t)
	spec := fmt.Sprintf("worker=127.0.0.1:%d,127.0.0.1:%d", p0, p1)
	for task := 0; task < 2; task++ {
		cmd := exec.Command(tool, "server", "--cluster", spec, "--job", "worker", "--task", fmt.Sprint(task))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() {
			cmd.Process.Signal(os.Interrupt)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
			}
		}()
		line, _ := bufio.NewReader(out).ReadString('\n')
		if !strings.HasPrefix(line, fmt.Sprintf("sg: serving worker:%d", task)) {
			t.Fatalf("task %d: %q", task, line)
		}
	}
	x := npyFloats2D(t, testdata("digits_test_x.npy"))
	tfProbs := npyFloats2D(t, testdata("digits_tf_probs.npy"))
	g := loadGraph(t, testdata("digits_mlp.pb"))
	defer g.Close()
	remote, err := g.AddOperation(OpSpec{Type: "Identity", Name: "on_task1",
		Input: []Input{mustOutput(t, g, "probs")}, Device: "/job:worker/replica:0/task:1/device:CPU:0"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(g, &SessionOptions{Target: fmt.Sprintf("grpc://127.0.0.1:%d", p0)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	in, _ := NewTensor(x)
	defer in.Close()
	out, err := s.Run(map[Output]*Tensor{mustOutput(t, g, "input"): in}, []Output{remote.Output(0)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer out[0].Close()
	v, _ := out[0].Value()
	for i, row := range v.([][]float32) {
		for j, p := range row {
			if math.Abs(float64(p-tfProbs[i][j])) > 1e-5 {
				t.Fatalf("probs[%d][%d] = %g, TensorFlow %g", i, j, p, tfProbs[i][j])
			}
		}
	}
}

func TestInProcessServer(t *testing.T) {
	srv, err := NewServer("worker=127.0.0.1:0", "worker", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	target := srv.Target()
	if !strings.HasPrefix(target, "grpc://127.0.0.1:") || strings.HasSuffix(target, ":0") {
		t.Fatalf("target %q", target)
	}
	joined := make(chan error, 1)
	go func() { joined <- srv.Join() }()
	g := loadGraph(t, testdata("digits_mlp.pb"))
	defer g.Close()
	s, err := NewSession(g, &SessionOptions{Target: target})
	if err != nil {
		t.Fatal(err)
	}
	zeros := [][]float32{make([]float32, 64), make([]float32, 64)}
	xin, _ := NewTensor(zeros)
	defer xin.Close()
	out, err := s.Run(map[Output]*Tensor{mustOutput(t, g, "input"): xin}, []Output{mustOutput(t, g, "probs")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out[0].Close()
	s.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-joined:
	case <-time.After(10 * time.Second):
		t.Fatal("Join did not return after Close")
	}
	if _, err := NewServer("not a spec", "worker", 0); CodeOf(err) != InvalidArgument {
		t.Fatalf("bad spec: %v", err)
	}
}

func TestDigitsSavedModel(t *testing.T) {
	x := npyFloats2D(t, testdata("digits_test_x.npy"))
	tfProbs := npyFloats2D(t, testdata("digits_tf_probs.npy"))
	m, err := LoadSavedModel(testdata("digits_saved_model"), []string{"serve"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if len(m.MetaGraphDef) == 0 {
		t.Fatal("empty MetaGraphDef")
	}
	in, _ := NewTensor(x)
	defer in.Close()
	out, err := m.Session.Run(map[Output]*Tensor{mustOutput(t, m.Graph, "input"): in}, []Output{mustOutput(t, m.Graph, "probs")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer out[0].Close()
	v, _ := out[0].Value()
	for i, row := range v.([][]float32) {
		for j, p := range row {
			if math.Abs(float64(p-tfProbs[i][j])) > 1e-5 {
				t.Fatalf("probs[%d][%d] = %g, TensorFlow %g", i, j, p, tfProbs[i][j])
			}
		}
	}
	if _, err := LoadSavedModel("/no/such/model", []string{"serve"}, nil); CodeOf(err) != NotFound {
		t.Fatalf("missing model: %v", err)
	}
}
