# sg_proto_library(): compile .proto files into a static C++ library.
#
#   sg_proto_library(TARGET <name>
#                    PROTOS <file.proto>...
#                    [DEPS <other sg_proto_library targets>...]
#                    [GRPC])
#
# PROTOS are paths relative to the sg source root (SG_PROTO_ROOT, by default
# the directory above this file, i.e. ${CMAKE_SOURCE_DIR} when sg is the top
# level project); absolute paths below that root are accepted too. protoc
# runs with -I${SG_PROTO_ROOT}, so imports are written as
# `import "core/proto/types.proto";`, and writes into SG_PROTO_OUT_DIR (by
# default ${CMAKE_BINARY_DIR}), so generated headers are included as
# `#include "core/proto/graph.pb.h"`. Generated code lives in the build tree
# only.
#
# With GRPC, grpc_cpp_plugin also produces <name>.grpc.pb.cc/.h for the
# services in the files, and the library links gRPC++.
#
# The library is STATIC with POSITION_INDEPENDENT_CODE, has SG_PROTO_OUT_DIR
# as a PUBLIC include directory and links protobuf::libprotobuf (and
# gRPC::grpc++ with GRPC) and the DEPS targets PUBLIC.

include_guard(GLOBAL)

if(NOT DEFINED SG_PROTO_ROOT)
  get_filename_component(SG_PROTO_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()
if(NOT DEFINED SG_PROTO_OUT_DIR)
  set(SG_PROTO_OUT_DIR "${CMAKE_BINARY_DIR}")
endif()

# Protobuf: Debian 12 ships 3.21 with CMake's FindProtobuf module.
if(NOT TARGET protobuf::libprotobuf)
  find_package(Protobuf REQUIRED)
endif()
if(TARGET protobuf::protoc)
  set(SG_PROTOC protobuf::protoc)
else()
  set(SG_PROTOC "${Protobuf_PROTOC_EXECUTABLE}")
endif()
if(NOT SG_PROTOC)
  message(FATAL_ERROR "sg: protoc not found (install protobuf-compiler)")
endif()

# gRPC is optional here; it is required only by sg_proto_library(... GRPC).
# It is looked up at include time so that its imported targets are visible
# from every directory of the project.
find_program(SG_GRPC_CPP_PLUGIN grpc_cpp_plugin
  DOC "gRPC's protoc plugin for C++ (Debian: protobuf-compiler-grpc)")
if(NOT TARGET gRPC::grpc++)
  find_package(gRPC CONFIG QUIET)
endif()

# A depfile written by protoc gives exact regeneration dependencies on the
# imported .proto files; without DEPFILE support (CMake < 3.20) every file of
# the library and of its DEPS is a dependency instead.
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW)
endif()
if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.20)
  set(SG_PROTO_USE_DEPFILE TRUE)
else()
  set(SG_PROTO_USE_DEPFILE FALSE)
endif()

function(sg_proto_library)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "GRPC" "TARGET" "PROTOS;DEPS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "sg_proto_library: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TARGET)
    message(FATAL_ERROR "sg_proto_library: TARGET is required")
  endif()
  if(NOT ARG_PROTOS)
    message(FATAL_ERROR "sg_proto_library(${ARG_TARGET}): PROTOS is required")
  endif()

  set(plugin_args)
  set(plugin_deps)
  if(ARG_GRPC)
    if(NOT SG_GRPC_CPP_PLUGIN)
      message(FATAL_ERROR "sg_proto_library(${ARG_TARGET}): grpc_cpp_plugin not found "
                          "(install protobuf-compiler-grpc)")
    endif()
    if(NOT TARGET gRPC::grpc++)
      message(FATAL_ERROR "sg_proto_library(${ARG_TARGET}): gRPC C++ library not found "
                          "(install libgrpc++-dev)")
    endif()
    set(plugin_args
      "--plugin=protoc-gen-grpc=${SG_GRPC_CPP_PLUGIN}"
      "--grpc_out=${SG_PROTO_OUT_DIR}")
    set(plugin_deps "${SG_GRPC_CPP_PLUGIN}")
  endif()

  # Absolute paths of this library's protos, and of its DEPS' protos for
  # the dependency fallback.
  set(abs_protos)
  foreach(proto IN LISTS ARG_PROTOS)
    get_filename_component(abs "${proto}" ABSOLUTE BASE_DIR "${SG_PROTO_ROOT}")
    list(APPEND abs_protos "${abs}")
  endforeach()
  set(all_protos ${abs_protos})
  foreach(dep IN LISTS ARG_DEPS)
    if(TARGET ${dep})
      get_target_property(dep_protos ${dep} SG_PROTO_FILES)
      if(dep_protos)
        list(APPEND all_protos ${dep_protos})
      endif()
    endif()
  endforeach()

  set(srcs)
  set(hdrs)
  foreach(abs IN LISTS abs_protos)
    file(RELATIVE_PATH rel "${SG_PROTO_ROOT}" "${abs}")
    if(rel MATCHES "^\\.\\./")
      message(FATAL_ERROR "sg_proto_library(${ARG_TARGET}): ${abs} is outside ${SG_PROTO_ROOT}")
    endif()
    string(REGEX REPLACE "\\.proto$" "" stem "${rel}")
    set(outs "${SG_PROTO_OUT_DIR}/${stem}.pb.cc" "${SG_PROTO_OUT_DIR}/${stem}.pb.h")
    list(APPEND srcs "${SG_PROTO_OUT_DIR}/${stem}.pb.cc")
    list(APPEND hdrs "${SG_PROTO_OUT_DIR}/${stem}.pb.h")
    if(ARG_GRPC)
      list(APPEND outs "${SG_PROTO_OUT_DIR}/${stem}.grpc.pb.cc" "${SG_PROTO_OUT_DIR}/${stem}.grpc.pb.h")
      list(APPEND srcs "${SG_PROTO_OUT_DIR}/${stem}.grpc.pb.cc")
      list(APPEND hdrs "${SG_PROTO_OUT_DIR}/${stem}.grpc.pb.h")
    endif()
    # protoc lists the outputs in its depfile sorted; Ninja wants the first
    # one to be the command's first output.
    list(SORT outs)

    get_filename_component(out_subdir "${SG_PROTO_OUT_DIR}/${stem}" DIRECTORY)
    set(mkdirs "${out_subdir}")
    if(SG_PROTO_USE_DEPFILE)
      set(depfile "${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}_depfiles/${stem}.pb.d")
      set(dep_args
        DEPFILE "${depfile}"
        DEPENDS "${abs}" ${SG_PROTOC} ${plugin_deps})
      set(depfile_arg "--dependency_out=${depfile}")
      get_filename_component(depfile_dir "${depfile}" DIRECTORY)
      list(APPEND mkdirs "${depfile_dir}")
    else()
      set(dep_args DEPENDS ${all_protos} ${SG_PROTOC} ${plugin_deps})
      set(depfile_arg)
    endif()

    add_custom_command(
      OUTPUT ${outs}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${mkdirs}
      COMMAND ${SG_PROTOC}
              "-I${SG_PROTO_ROOT}"
              "--cpp_out=${SG_PROTO_OUT_DIR}"
              ${plugin_args}
              ${depfile_arg}
              "${abs}"
      ${dep_args}
      COMMENT "protoc ${rel}"
      VERBATIM)
  endforeach()

  add_library(${ARG_TARGET} STATIC ${srcs} ${hdrs})
  set_target_properties(${ARG_TARGET} PROPERTIES
    POSITION_INDEPENDENT_CODE ON
    SG_PROTO_FILES "${all_protos}")
  target_include_directories(${ARG_TARGET} PUBLIC "${SG_PROTO_OUT_DIR}")
  target_link_libraries(${ARG_TARGET} PUBLIC protobuf::libprotobuf ${ARG_DEPS})
  if(ARG_GRPC)
    target_link_libraries(${ARG_TARGET} PUBLIC gRPC::grpc++)
  endif()
endfunction()
