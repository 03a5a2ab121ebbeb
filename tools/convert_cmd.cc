#include "tools/convert_cmd.h"

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <google/protobuf/util/message_differencer.h>

#include "sg/c_api.h"
#include "tools/cmd_error.h"
#include "tools/proto_types.h"

namespace sg_tool {
namespace {

namespace pb = google::protobuf;

// op -> attr -> its default value, from sg's op registry.
class Defaults {
 public:
  Defaults() : ops_(NewMessage("sg.OpList")) {
    SG_Buffer* buf = SG_GetAllOpList();
    const bool ok = ops_->ParseFromArray(buf->data, static_cast<int>(buf->length));
    SG_DeleteBuffer(buf);
    if (!ok) CmdFail(SG_INTERNAL, "SG_GetAllOpList's OpList does not parse");
    const pb::Reflection* r = ops_->GetReflection();
    const pb::FieldDescriptor* op_f = Field(*ops_, "op");
    for (int i = 0; i < r->FieldSize(*ops_, op_f); ++i) {
      const pb::Message& op = r->GetRepeatedMessage(*ops_, op_f, i);
      const pb::Reflection* opr = op.GetReflection();
      auto& attrs = defaults_[opr->GetString(op, Field(op, "name"))];
      const pb::FieldDescriptor* attr_f = Field(op, "attr");
      for (int k = 0; k < opr->FieldSize(op, attr_f); ++k) {
        const pb::Message& a = opr->GetRepeatedMessage(op, attr_f, k);
        const pb::FieldDescriptor* def_f = Field(a, "default_value");
        if (!a.GetReflection()->HasField(a, def_f)) continue;
        attrs[a.GetReflection()->GetString(a, Field(a, "name"))] =
            &a.GetReflection()->GetMessage(a, def_f);
      }
    }
  }

  // The default of `attr` of `op`, or nullptr.
  const pb::Message* Find(const std::string& op, const std::string& attr) const {
    auto o = defaults_.find(op);
    if (o == defaults_.end()) return nullptr;
    auto a = o->second.find(attr);
    return a == o->second.end() ? nullptr : a->second;
  }

 private:
  std::unique_ptr<pb::Message> ops_;
  std::map<std::string, std::map<std::string, const pb::Message*>> defaults_;
};

// Strips the nodes of repeated NodeDef field `nodes_f` of `m`.
int StripNodes(const Defaults& defaults, pb::Message* m, const pb::FieldDescriptor* nodes_f) {
  int removed = 0;
  const pb::Reflection* r = m->GetReflection();
  for (int i = 0; i < r->FieldSize(*m, nodes_f); ++i) {
    pb::Message* node = r->MutableRepeatedMessage(m, nodes_f, i);
    const pb::Reflection* nr = node->GetReflection();
    const std::string op = nr->GetString(*node, Field(*node, "op"));
    const pb::FieldDescriptor* attr_f = Field(*node, "attr");
    for (int k = 0; k < nr->FieldSize(*node, attr_f);) {
      const pb::Message& entry = nr->GetRepeatedMessage(*node, attr_f, k);
      const pb::Reflection* er = entry.GetReflection();
      const pb::Message* def = defaults.Find(op, er->GetString(entry, Field(entry, "key")));
      if (def != nullptr &&
          pb::util::MessageDifferencer::Equals(*def, er->GetMessage(entry, Field(entry, "value")))) {
        // Map entries have no order: move the last one here and drop the last.
        nr->SwapElements(node, attr_f, k, nr->FieldSize(*node, attr_f) - 1);
        nr->RemoveLast(node, attr_f);
        ++removed;
      } else {
        ++k;
      }
    }
  }
  return removed;
}

int Convert(const std::vector<std::string>& a) {
  std::vector<std::string> files;
  bool strip = false;
  for (const std::string& s : a) {
    if (s == "--strip-default-attrs") {
      strip = true;
    } else if (s.rfind("--", 0) == 0) {
      CmdFail(SG_INVALID_ARGUMENT, "convert: unknown option '" + s + "'");
    } else {
      files.push_back(s);
    }
  }
  if (files.size() != 2) CmdFail(SG_INVALID_ARGUMENT, "convert takes IN and OUT (.pb or .pbtxt)");
  auto graph = NewMessage("sg.GraphDef");
  std::string error;
  if (!ReadProtoFile(files[0], graph.get(), &error)) CmdFail(SG_INVALID_ARGUMENT, error);
  const int removed = strip ? StripDefaultAttrs(graph.get()) : 0;
  if (!WriteProtoFile(files[1], *graph, &error)) CmdFail(SG_INVALID_ARGUMENT, error);
  const int nodes = graph->GetReflection()->FieldSize(*graph, Field(*graph, "node"));
  std::printf("%s (%d nodes) -> %s (%s)", files[0].c_str(), nodes, files[1].c_str(),
              IsTextPath(files[1]) ? "text" : "binary");
  if (strip) std::printf(", %d default-valued attrs stripped", removed);
  std::printf("\n");
  return 0;
}

}  // namespace

int StripDefaultAttrs(pb::Message* graph_def) {
  const Defaults defaults;
  int removed = StripNodes(defaults, graph_def, Field(*graph_def, "node"));
  const pb::Reflection* r = graph_def->GetReflection();
  const pb::FieldDescriptor* lib_f = Field(*graph_def, "library");
  if (r->HasField(*graph_def, lib_f)) {
    pb::Message* lib = r->MutableMessage(graph_def, lib_f);
    const pb::FieldDescriptor* fn_f = Field(*lib, "function");
    for (int i = 0; i < lib->GetReflection()->FieldSize(*lib, fn_f); ++i) {
      pb::Message* fn = lib->GetReflection()->MutableRepeatedMessage(lib, fn_f, i);
      removed += StripNodes(defaults, fn, Field(*fn, "node_def"));
    }
  }
  return removed;
}

int ConvertMain(const std::vector<std::string>& args) {
  return Guarded([&] { return Convert(args); });
}

}  // namespace sg_tool
