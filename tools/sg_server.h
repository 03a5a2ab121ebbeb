// `sg server`: runs one task of a cluster until SIGTERM or SIGINT.
#ifndef SG_TOOLS_SG_SERVER_H_
#define SG_TOOLS_SG_SERVER_H_

namespace sg_tool {

// argv[0] is "server". Returns the process exit code: 0 after a clean stop, 1 on an error
// (one line "sg: CODE: message" on stderr), 2 for a usage error.
int ServerMain(int argc, char** argv);

}  // namespace sg_tool

#endif  // SG_TOOLS_SG_SERVER_H_
