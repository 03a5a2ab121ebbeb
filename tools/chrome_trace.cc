#include "tools/chrome_trace.h"

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/proto_wire.h"

namespace sg_tool {
namespace {

// Field numbers of TensorFlow's config.proto, step_stats.proto, graph.proto and node_def.proto.
namespace f {
constexpr int kRunMetadataStepStats = 1, kRunMetadataPartitionGraphs = 3;
constexpr int kStepStatsDevStats = 1;
constexpr int kDeviceName = 1, kDeviceNodeStats = 2, kDeviceThreadNames = 3;
constexpr int kNodeName = 1, kAllStartMicros = 2, kAllEndRelMicros = 5, kMemory = 6, kOutput = 7,
              kTimelineLabel = 8, kThreadId = 10, kAllStartNanos = 13, kAllEndRelNanos = 16;
constexpr int kMemoryTotalBytes = 2;
constexpr int kOutputSlot = 1, kOutputDescription = 3;
constexpr int kDescDtype = 1, kDescShape = 2, kDescAllocation = 4;
constexpr int kAllocRequestedBytes = 1;
constexpr int kShapeDim = 2, kShapeUnknownRank = 3, kDimSize = 1;
constexpr int kGraphNode = 1;
constexpr int kNodeDefName = 1, kNodeDefOp = 2, kNodeDefAttr = 5;
constexpr int kAttrValueS = 2;
}  // namespace f

struct Output {
  int slot = 0;
  std::string desc;  // "float32[3,10]"
  int64_t bytes = 0;
};

struct Node {
  std::string name, op, inputs;
  int64_t start_ns = 0, dur_ns = 0, allocated_bytes = 0;
  uint32_t thread = 0;
  std::vector<Output> outputs;
};

struct Device {
  std::string name;
  std::map<uint32_t, std::string> thread_names;
  std::vector<Node> nodes;
};

const char* DtypeName(uint64_t dt) {
  static const char* const kNames[] = {
      "invalid", "float32", "float64",  "int32",   "uint8",   "int16",  "int8",   "string",
      "complex64", "int64", "bool",     "qint8",   "quint8",  "qint32", "bfloat16", "qint16",
      "quint16", "uint16",  "complex128", "float16", "resource", "variant", "uint32", "uint64"};
  if (dt > 100 && dt < 124) return kNames[dt - 100];  // a reference dtype: its base type
  return dt < 24 ? kNames[dt] : "invalid";
}

std::string ShapeText(std::string_view bytes) {
  WireReader r(bytes);
  WireField fd;
  std::string s = "[";
  bool first = true, unknown = false;
  while (r.Next(&fd)) {
    if (fd.number == f::kShapeUnknownRank && fd.type == 0 && fd.value) unknown = true;
    if (fd.number != f::kShapeDim || fd.type != 2) continue;
    int64_t size = -1;
    WireReader d(fd.bytes);
    WireField g;
    while (d.Next(&g)) {
      if (g.number == f::kDimSize && g.type == 0) size = static_cast<int64_t>(g.value);
    }
    s += first ? "" : ",";
    s += size < 0 ? "?" : std::to_string(size);
    first = false;
  }
  return unknown ? "<unknown>" : s + "]";
}

bool ParseOutput(std::string_view bytes, Output* out) {
  WireReader r(bytes);
  WireField fd;
  std::string dtype = "invalid", shape = "[]";
  while (r.Next(&fd)) {
    if (fd.number == f::kOutputSlot && fd.type == 0) out->slot = static_cast<int>(fd.value);
    if (fd.number != f::kOutputDescription || fd.type != 2) continue;
    WireReader d(fd.bytes);
    WireField g;
    while (d.Next(&g)) {
      if (g.number == f::kDescDtype && g.type == 0) dtype = DtypeName(g.value);
      if (g.number == f::kDescShape && g.type == 2) shape = ShapeText(g.bytes);
      if (g.number == f::kDescAllocation && g.type == 2) {
        WireReader a(g.bytes);
        WireField h;
        while (a.Next(&h)) {
          if (h.number == f::kAllocRequestedBytes && h.type == 0) {
            out->bytes = static_cast<int64_t>(h.value);
          }
        }
      }
    }
    if (!d.ok()) return false;
  }
  out->desc = dtype + shape;
  return r.ok();
}

// "name = Op(a, b)" -> op "Op", inputs "a, b".
void SplitLabel(const std::string& label, Node* n) {
  const size_t eq = label.find(" = ");
  if (eq == std::string::npos) return;
  const size_t paren = label.find('(', eq);
  n->op = label.substr(eq + 3, paren == std::string::npos ? std::string::npos : paren - eq - 3);
  if (paren != std::string::npos && label.size() > paren + 1 && label.back() == ')') {
    n->inputs = label.substr(paren + 1, label.size() - paren - 2);
  }
}

bool ParseNode(std::string_view bytes, Node* n) {
  WireReader r(bytes);
  WireField fd;
  int64_t start_us = 0, end_rel_us = 0;
  while (r.Next(&fd)) {
    switch (fd.number) {
      case f::kNodeName: n->name.assign(fd.bytes); break;
      case f::kAllStartMicros: start_us = static_cast<int64_t>(fd.value); break;
      case f::kAllEndRelMicros: end_rel_us = static_cast<int64_t>(fd.value); break;
      case f::kAllStartNanos: n->start_ns = static_cast<int64_t>(fd.value); break;
      case f::kAllEndRelNanos: n->dur_ns = static_cast<int64_t>(fd.value); break;
      case f::kThreadId: n->thread = static_cast<uint32_t>(fd.value); break;
      case f::kTimelineLabel: SplitLabel(std::string(fd.bytes), n); break;
      case f::kOutput: {
        if (fd.type != 2) return false;
        Output o;
        if (!ParseOutput(fd.bytes, &o)) return false;
        n->outputs.push_back(std::move(o));
        break;
      }
      case f::kMemory: {
        if (fd.type != 2) return false;
        WireReader m(fd.bytes);
        WireField g;
        while (m.Next(&g)) {
          if (g.number == f::kMemoryTotalBytes && g.type == 0) {
            n->allocated_bytes += static_cast<int64_t>(g.value);
          }
        }
        break;
      }
      default: break;
    }
  }
  if (n->start_ns == 0) n->start_ns = start_us * 1000;
  if (n->dur_ns == 0) n->dur_ns = end_rel_us * 1000;
  if (n->dur_ns < 0) n->dur_ns = 0;
  std::sort(n->outputs.begin(), n->outputs.end(),
            [](const Output& a, const Output& b) { return a.slot < b.slot; });
  return r.ok();
}

bool ParseDevice(std::string_view bytes, Device* d) {
  WireReader r(bytes);
  WireField fd;
  while (r.Next(&fd)) {
    if (fd.number == f::kDeviceName && fd.type == 2) d->name.assign(fd.bytes);
    if (fd.number == f::kDeviceNodeStats && fd.type == 2) {
      Node n;
      if (!ParseNode(fd.bytes, &n)) return false;
      d->nodes.push_back(std::move(n));
    }
    if (fd.number == f::kDeviceThreadNames && fd.type == 2) {
      WireReader e(fd.bytes);
      WireField g;
      uint32_t key = 0;
      std::string value;
      while (e.Next(&g)) {
        if (g.number == 1 && g.type == 0) key = static_cast<uint32_t>(g.value);
        if (g.number == 2 && g.type == 2) value.assign(g.bytes);
      }
      d->thread_names[key] = value;
    }
  }
  return r.ok();
}

// The rendezvous key of each _Send/_Recv node in `graph` (a GraphDef), by node name.
void CollectTransferKeys(std::string_view graph, std::map<std::string, std::string>* keys) {
  WireReader r(graph);
  WireField fd;
  while (r.Next(&fd)) {
    if (fd.number != f::kGraphNode || fd.type != 2) continue;
    WireReader n(fd.bytes);
    WireField g;
    std::string name, op;
    std::map<std::string, std::string> attrs;
    while (n.Next(&g)) {
      if (g.number == f::kNodeDefName && g.type == 2) name.assign(g.bytes);
      if (g.number == f::kNodeDefOp && g.type == 2) op.assign(g.bytes);
      if (g.number == f::kNodeDefAttr && g.type == 2) {
        WireReader e(g.bytes);
        WireField h;
        std::string key, value;
        while (e.Next(&h)) {
          if (h.number == 1 && h.type == 2) key.assign(h.bytes);
          if (h.number == 2 && h.type == 2) {
            WireReader v(h.bytes);
            WireField s;
            while (v.Next(&s)) {
              if (s.number == f::kAttrValueS && s.type == 2) value.assign(s.bytes);
            }
          }
        }
        attrs[key] = value;
      }
    }
    if (op == "_Send" || op == "_Recv" || op == "_HostSend" || op == "_HostRecv") {
      (*keys)[name] =
          attrs["send_device"] + ";" + attrs["recv_device"] + ";" + attrs["tensor_name"];
    }
  }
}

bool IsSend(const std::string& op) { return op == "_Send" || op == "_HostSend"; }
bool IsRecv(const std::string& op) { return op == "_Recv" || op == "_HostRecv"; }

std::string FallbackKey(const std::string& name) {
  for (const char* suffix : {"/_send", "/_recv"}) {
    const std::string s = suffix;
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      return name.substr(0, name.size() - s.size());
    }
  }
  return name;
}

void AppendEscaped(std::string* out, const std::string& s) {
  out->push_back('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\t': *out += "\\t"; break;
      case '\r': *out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          *out += buf;
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
  }
  out->push_back('"');
}

std::string Micros(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%" PRId64 ".%03" PRId64, ns / 1000, ns % 1000);
  return buf;
}

}  // namespace

bool RunMetadataToChromeTrace(const std::string& run_metadata, std::string* json,
                              std::string* error) {
  std::vector<Device> devices;
  std::map<std::string, std::string> transfer_keys;
  bool have_step_stats = false;
  WireReader r(run_metadata);
  WireField fd;
  while (r.Next(&fd)) {
    if (fd.number == f::kRunMetadataStepStats && fd.type == 2) {
      have_step_stats = true;
      WireReader s(fd.bytes);
      WireField g;
      while (s.Next(&g)) {
        if (g.number != f::kStepStatsDevStats || g.type != 2) continue;
        Device d;
        if (!ParseDevice(g.bytes, &d)) {
          *error = "the RunMetadata's step_stats do not parse";
          return false;
        }
        devices.push_back(std::move(d));
      }
      if (!s.ok()) {
        *error = "the RunMetadata's step_stats do not parse";
        return false;
      }
    }
    if (fd.number == f::kRunMetadataPartitionGraphs && fd.type == 2) {
      CollectTransferKeys(fd.bytes, &transfer_keys);
    }
  }
  if (!r.ok()) {
    *error = "the bytes are not a RunMetadata";
    return false;
  }
  if (!have_step_stats || devices.empty()) {
    *error = "the RunMetadata holds no step statistics (RunOptions.trace_level was NO_TRACE?)";
    return false;
  }

  int64_t base = std::numeric_limits<int64_t>::max();
  for (const Device& d : devices) {
    for (const Node& n : d.nodes) base = std::min(base, n.start_ns);
  }
  if (base == std::numeric_limits<int64_t>::max()) base = 0;

  std::string& out = *json;
  out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  bool first = true;
  auto begin_event = [&] {
    if (!first) out += ",\n";
    first = false;
  };
  // One end of a transfer: where its flow event goes.
  struct End {
    int pid;
    uint32_t tid;
    int64_t ts_ns;
  };
  std::map<std::string, std::vector<End>> sends, recvs;
  for (size_t i = 0; i < devices.size(); ++i) {
    const Device& d = devices[i];
    const int pid = static_cast<int>(i) + 1;
    begin_event();
    out += "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
           ",\"args\":{\"name\":";
    AppendEscaped(&out, d.name);
    out += "}},\n{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
           ",\"args\":{\"sort_index\":" + std::to_string(pid) + "}}";
    std::map<uint32_t, bool> threads;
    for (const Node& n : d.nodes) threads[n.thread] = true;
    for (const auto& t : threads) {
      auto named = d.thread_names.find(t.first);
      begin_event();
      out += "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
             ",\"tid\":" + std::to_string(t.first) + ",\"args\":{\"name\":";
      AppendEscaped(&out, named != d.thread_names.end() ? named->second
                                                        : "thread " + std::to_string(t.first));
      out += "}}";
    }
    for (const Node& n : d.nodes) {
      const int64_t ts = n.start_ns - base;
      begin_event();
      out += "{\"name\":";
      AppendEscaped(&out, n.name);
      out += ",\"cat\":";
      AppendEscaped(&out, n.op.empty() ? "op" : n.op);
      out += ",\"ph\":\"X\",\"pid\":" + std::to_string(pid) + ",\"tid\":" +
             std::to_string(n.thread) + ",\"ts\":" + Micros(ts) + ",\"dur\":" + Micros(n.dur_ns) +
             ",\"args\":{\"name\":";
      AppendEscaped(&out, n.name);
      out += ",\"op\":";
      AppendEscaped(&out, n.op);
      out += ",\"inputs\":";
      AppendEscaped(&out, n.inputs);
      out += ",\"outputs\":[";
      int64_t bytes = 0;
      for (size_t k = 0; k < n.outputs.size(); ++k) {
        if (k) out += ",";
        AppendEscaped(&out, n.outputs[k].desc);
        bytes += n.outputs[k].bytes;
      }
      out += "],\"output_bytes\":" + std::to_string(bytes);
      if (n.allocated_bytes > 0) out += ",\"allocated_bytes\":" + std::to_string(n.allocated_bytes);
      out += "}}";
      if (IsSend(n.op) || IsRecv(n.op)) {
        auto k = transfer_keys.find(n.name);
        const std::string key = k != transfer_keys.end() ? k->second : FallbackKey(n.name);
        if (IsSend(n.op)) {
          sends[key].push_back(End{pid, n.thread, ts});
        } else {
          recvs[key].push_back(End{pid, n.thread, ts + n.dur_ns});
        }
      }
    }
  }
  // Flows: the k-th send of a key (by time) to its k-th receive.
  int64_t id = 0;
  auto by_time = [](const End& a, const End& b) { return a.ts_ns < b.ts_ns; };
  for (auto& [key, s] : sends) {
    auto it = recvs.find(key);
    if (it == recvs.end()) continue;
    std::vector<End>& rv = it->second;
    std::sort(s.begin(), s.end(), by_time);
    std::sort(rv.begin(), rv.end(), by_time);
    const size_t tail = key.rfind(';');
    const std::string name = tail == std::string::npos ? key : key.substr(tail + 1);
    for (size_t k = 0; k < std::min(s.size(), rv.size()); ++k) {
      ++id;
      const End* ends[2] = {&s[k], &rv[k]};
      for (int e = 0; e < 2; ++e) {
        begin_event();
        out += "{\"name\":";
        AppendEscaped(&out, name);
        out += std::string(",\"cat\":\"transfer\",\"ph\":\"") + (e == 0 ? "s" : "f") + "\"" +
               (e == 0 ? "" : ",\"bp\":\"e\"") + ",\"id\":" + std::to_string(id) +
               ",\"pid\":" + std::to_string(ends[e]->pid) + ",\"tid\":" +
               std::to_string(ends[e]->tid) + ",\"ts\":" + Micros(ends[e]->ts_ns) +
               ",\"args\":{\"key\":";
        AppendEscaped(&out, key);
        out += "}}";
      }
    }
  }
  out += "\n]}\n";
  return true;
}

std::string TraceRunOptions() {
  // RunOptions: trace_level (1) = FULL_TRACE (3), output_partition_graphs (5) = true.
  return std::string("\x08\x03\x28\x01", 4);
}

bool WriteChromeTrace(const std::string& path, const std::string& run_metadata,
                      std::string* error) {
  std::string json;
  if (!RunMetadataToChromeTrace(run_metadata, &json, error)) return false;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << json;
  out.close();
  if (!out) {
    *error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

}  // namespace sg_tool
