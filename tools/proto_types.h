// sg's GraphDef, OpList and SavedModel messages for the sg tool, as libprotobuf dynamic messages
// built from a descriptor set compiled into the tool (tools/CMakeLists.txt): libsg keeps its
// generated classes hidden, and linking a second copy of them would register the same .proto
// files twice in libprotobuf's generated pool. Field names are TensorFlow's.
//
//   auto graph = sg_tool::NewMessage("sg.GraphDef");
//   std::string error;
//   if (!sg_tool::ReadGraphFile("g.pbtxt", graph.get(), &error)) ...;
//   sg_tool::WriteGraphFile("g.pb", *graph, &error);
//
// Thread-safe (the pool is built once, on first use).
#ifndef SG_TOOLS_PROTO_TYPES_H_
#define SG_TOOLS_PROTO_TYPES_H_

#include <memory>
#include <string>
#include <vector>

#include <google/protobuf/message.h>

namespace sg_tool {

// A new empty message of `type` ("sg.GraphDef", "sg.OpList", "sg.SavedModel", ...); aborts
// with a message for a type the descriptor set does not have (a bug of the tool).
std::unique_ptr<google::protobuf::Message> NewMessage(const std::string& type);

// Whether `path` names a text proto: it ends in .pbtxt, .txt or .prototxt.
bool IsTextPath(const std::string& path);

// Reads `path` into `msg`: text format for a text path, binary otherwise. false with a one-line
// `error` naming the file when it cannot be read or does not parse.
bool ReadProtoFile(const std::string& path, google::protobuf::Message* msg, std::string* error);

// Writes `msg` to `path` in the format its name asks for. false with `error` on failure.
bool WriteProtoFile(const std::string& path, const google::protobuf::Message& msg,
                    std::string* error);

// The GraphDef of the MetaGraphDef of SavedModel `dir` (DIR/saved_model.pb or .pbtxt) whose tags
// are exactly `tags` (as a set), into `graph` (an sg.GraphDef). false with `error` naming the
// tag sets there are when none matches.
bool ReadSavedModelGraph(const std::string& dir, const std::vector<std::string>& tags,
                         google::protobuf::Message* graph, std::string* error);

// Reflection helpers for the dynamic messages: a field by name (aborts if absent), the value of
// a string field, and a NodeDef's inputs.
const google::protobuf::FieldDescriptor* Field(const google::protobuf::Message& m,
                                               const char* name);
std::string StringField(const google::protobuf::Message& m, const char* name);
std::vector<std::string> NodeInputs(const google::protobuf::Message& node);

// The node of a GraphDef node's input: "name", "name:2", "^name" -> "name".
std::string NodeOf(const std::string& input);

// The value of entry `key` of the map<string, message> field `field` of `m` (a NodeDef's "attr"),
// or nullptr when there is none; AddMapValue adds the entry and returns its (empty) value.
google::protobuf::Message* MapValue(google::protobuf::Message* m, const char* field,
                                    const std::string& key);
google::protobuf::Message* AddMapValue(google::protobuf::Message* m, const char* field,
                                       const std::string& key);

}  // namespace sg_tool

#endif  // SG_TOOLS_PROTO_TYPES_H_
