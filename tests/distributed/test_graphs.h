// Small graphs for the distributed tests, written node by node, and an in-process cluster of
// GrpcServers on free loopback ports.
#ifndef SG_TESTS_DISTRIBUTED_TEST_GRAPHS_H_
#define SG_TESTS_DISTRIBUTED_TEST_GRAPHS_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/framework/attr_value_util.h"
#include "core/framework/tensor.h"
#include "core/proto/graph.pb.h"
#include "distributed/rpc/grpc_server.h"

namespace sg {
namespace test {

inline NodeDef Node(const std::string& name, const std::string& op,
                    std::vector<std::string> inputs, const std::string& device = "",
                    std::vector<std::pair<std::string, AttrValue>> attrs = {}) {
  NodeDef n;
  n.set_name(name);
  n.set_op(op);
  n.set_device(device);
  for (auto& i : inputs) n.add_input(i);
  for (auto& a : attrs) (*n.mutable_attr())[a.first] = a.second;
  return n;
}
template <typename T>
AttrValue Attr(const T& v) {
  AttrValue a;
  SetAttrValue(v, &a);
  return a;
}
inline AttrValue TypeAttr(DataType t) {
  AttrValue v;
  v.set_type(t);
  return v;
}
inline AttrValue ShapeAttr(std::vector<int64_t> dims) {
  AttrValue v;
  PartialTensorShape(dims).AsProto(v.mutable_shape());
  return v;
}
inline NodeDef Const(const std::string& name, const Tensor& t, const std::string& device = "") {
  return Node(name, "Const", {}, device, {{"dtype", TypeAttr(t.dtype())}, {"value", Attr(t)}});
}
inline NodeDef Placeholder(const std::string& name, const std::string& device = "",
                           DataType t = DT_FLOAT, std::vector<int64_t> shape = {}) {
  return Node(name, "Placeholder", {}, device, {{"dtype", TypeAttr(t)}, {"shape", ShapeAttr(shape)}});
}
inline NodeDef Binary(const std::string& name, const std::string& op, const std::string& a,
                      const std::string& b, const std::string& device = "") {
  return Node(name, op, {a, b}, device, {{"T", TypeAttr(DT_FLOAT)}});
}

// c = a * b with a on the ps and b on worker 1, c on worker 0; d = c + x with x fed.
inline GraphDef CrossTaskGraph() {
  GraphDef g;
  *g.add_node() = Const("a", Tensor::Scalar<float>(3), "/job:ps");
  *g.add_node() = Const("b", Tensor::Scalar<float>(4), "/job:worker/task:1");
  *g.add_node() = Binary("c", "Mul", "a", "b", "/job:worker/task:0");
  *g.add_node() = Placeholder("x", "/job:worker/task:1");
  *g.add_node() = Binary("d", "AddV2", "c", "x", "/job:worker/task:1");
  return g;
}

// A float counter on the ps: "init" sets it to 0, "inc" adds 1 (with locking), "read" reads it.
inline GraphDef CounterGraph() {
  GraphDef g;
  *g.add_node() = Node("counter", "VariableV2", {}, "/job:ps/task:0",
                       {{"dtype", TypeAttr(DT_FLOAT)}, {"shape", ShapeAttr({})}});
  *g.add_node() = Const("zero", Tensor::Scalar<float>(0));
  *g.add_node() = Const("one", Tensor::Scalar<float>(1));
  *g.add_node() = Node("init", "Assign", {"counter", "zero"}, "", {{"T", TypeAttr(DT_FLOAT)}});
  *g.add_node() = Node("inc", "AssignAdd", {"counter", "one"}, "",
                       {{"T", TypeAttr(DT_FLOAT)}, {"use_locking", Attr(true)}});
  *g.add_node() = Node("read", "Identity", {"counter"}, "", {{"T", TypeAttr(DT_FLOAT)}});
  return g;
}

// A free TCP port on 127.0.0.1 (bound once, then released for the server to take).
inline int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

// "ps=127.0.0.1:P0;worker=127.0.0.1:P1,127.0.0.1:P2" with fresh ports.
inline std::string LoopbackSpec(int num_ps, int num_workers) {
  std::string spec;
  auto job = [&](const char* name, int n) {
    if (n == 0) return;
    if (!spec.empty()) spec += ";";
    spec += std::string(name) + "=";
    for (int i = 0; i < n; ++i) {
      spec += (i ? ",127.0.0.1:" : "127.0.0.1:") + std::to_string(FreePort());
    }
  };
  job("ps", num_ps);
  job("worker", num_workers);
  return spec;
}

}  // namespace test
}  // namespace sg

#endif  // SG_TESTS_DISTRIBUTED_TEST_GRAPHS_H_
