#include "tools/proto_types.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/text_format.h>

#include "tools/file_util.h"

namespace sg_tool {

extern const unsigned char kToolDescriptors[];
extern const size_t kToolDescriptorsSize;

namespace {

namespace pb = google::protobuf;

struct Types {
  pb::DescriptorPool pool;
  pb::DynamicMessageFactory factory{&pool};
  Types() {
    pb::FileDescriptorSet set;
    if (!set.ParseFromArray(kToolDescriptors, static_cast<int>(kToolDescriptorsSize))) {
      std::fprintf(stderr, "sg: INTERNAL: the tool's descriptor set does not parse\n");
      std::abort();
    }
    for (const pb::FileDescriptorProto& f : set.file()) {
      if (pool.BuildFile(f) == nullptr) {
        std::fprintf(stderr, "sg: INTERNAL: cannot build %s\n", f.name().c_str());
        std::abort();
      }
    }
  }
};

Types& TheTypes() {
  static Types* types = new Types;
  return *types;
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::unique_ptr<pb::Message> NewMessage(const std::string& type) {
  Types& t = TheTypes();
  const pb::Descriptor* d = t.pool.FindMessageTypeByName(type);
  if (d == nullptr) {
    std::fprintf(stderr, "sg: INTERNAL: no message type %s\n", type.c_str());
    std::abort();
  }
  return std::unique_ptr<pb::Message>(t.factory.GetPrototype(d)->New());
}

bool IsTextPath(const std::string& path) {
  return EndsWith(path, ".pbtxt") || EndsWith(path, ".txt") || EndsWith(path, ".prototxt");
}

bool ReadProtoFile(const std::string& path, pb::Message* msg, std::string* error) {
  std::string bytes;
  if (!ReadWholeFile(path, &bytes)) {
    *error = "cannot open '" + path + "'";
    return false;
  }
  const bool ok = IsTextPath(path) ? pb::TextFormat::ParseFromString(bytes, msg)
                                   : msg->ParseFromString(bytes);
  if (!ok) {
    *error = "'" + path + "' is not a " + (IsTextPath(path) ? "text " : "binary ") +
             msg->GetDescriptor()->name() + " (the extension .pbtxt/.txt means text)";
    return false;
  }
  return true;
}

bool WriteProtoFile(const std::string& path, const pb::Message& msg, std::string* error) {
  std::string bytes;
  bool ok;
  if (IsTextPath(path)) {
    ok = pb::TextFormat::PrintToString(msg, &bytes);
  } else {
    ok = msg.SerializeToString(&bytes);
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  out.close();
  if (!ok || !out) {
    *error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

const pb::FieldDescriptor* Field(const pb::Message& m, const char* name) {
  const pb::FieldDescriptor* f = m.GetDescriptor()->FindFieldByName(name);
  if (f == nullptr) {
    std::fprintf(stderr, "sg: INTERNAL: %s has no field %s\n", m.GetDescriptor()->name().c_str(),
                 name);
    std::abort();
  }
  return f;
}

std::string StringField(const pb::Message& m, const char* name) {
  return m.GetReflection()->GetString(m, Field(m, name));
}

std::vector<std::string> NodeInputs(const pb::Message& node) {
  std::vector<std::string> v;
  const pb::FieldDescriptor* f = Field(node, "input");
  for (int i = 0; i < node.GetReflection()->FieldSize(node, f); ++i) {
    v.push_back(node.GetReflection()->GetRepeatedString(node, f, i));
  }
  return v;
}

std::string NodeOf(const std::string& input) {
  std::string s = input[0] == '^' ? input.substr(1) : input;
  const size_t colon = s.rfind(':');
  if (colon != std::string::npos && colon + 1 < s.size() &&
      s.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
    s.resize(colon);
  }
  return s;
}

pb::Message* MapValue(pb::Message* m, const char* field, const std::string& key) {
  const pb::Reflection* r = m->GetReflection();
  const pb::FieldDescriptor* f = Field(*m, field);
  for (int i = 0; i < r->FieldSize(*m, f); ++i) {
    pb::Message* e = r->MutableRepeatedMessage(m, f, i);
    if (StringField(*e, "key") == key) return e->GetReflection()->MutableMessage(e, Field(*e, "value"));
  }
  return nullptr;
}

pb::Message* AddMapValue(pb::Message* m, const char* field, const std::string& key) {
  pb::Message* e = m->GetReflection()->AddMessage(m, Field(*m, field));
  e->GetReflection()->SetString(e, Field(*e, "key"), key);
  return e->GetReflection()->MutableMessage(e, Field(*e, "value"));
}

bool ReadSavedModelGraph(const std::string& dir, const std::vector<std::string>& tags,
                         pb::Message* graph, std::string* error) {
  auto sm = NewMessage("sg.SavedModel");
  std::string path = dir + "/saved_model.pb";
  if (!std::ifstream(path)) path = dir + "/saved_model.pbtxt";
  if (!ReadProtoFile(path, sm.get(), error)) return false;
  const std::set<std::string> want(tags.begin(), tags.end());
  const pb::Reflection* r = sm->GetReflection();
  const pb::FieldDescriptor* metas = Field(*sm, "meta_graphs");
  std::string have;
  for (int i = 0; i < r->FieldSize(*sm, metas); ++i) {
    const pb::Message& meta = r->GetRepeatedMessage(*sm, metas, i);
    const pb::Message& info = meta.GetReflection()->GetMessage(meta, Field(meta, "meta_info_def"));
    const pb::FieldDescriptor* tf = Field(info, "tags");
    std::set<std::string> got;
    std::string names;
    for (int k = 0; k < info.GetReflection()->FieldSize(info, tf); ++k) {
      got.insert(info.GetReflection()->GetRepeatedString(info, tf, k));
      names += (k ? "," : "") + info.GetReflection()->GetRepeatedString(info, tf, k);
    }
    if (got == want) {
      graph->CopyFrom(meta.GetReflection()->GetMessage(meta, Field(meta, "graph_def")));
      return true;
    }
    have += (have.empty() ? "" : "; ") + names;
  }
  std::string asked;
  for (const auto& t : tags) asked += (asked.empty() ? "" : ",") + t;
  *error = "SavedModel '" + dir + "' has no MetaGraph tagged '" + asked + "'; it has: " + have;
  return false;
}

}  // namespace sg_tool
