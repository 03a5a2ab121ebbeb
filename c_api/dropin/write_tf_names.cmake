# cmake -DOUT=<file> -DHEADERS=<h1;h2;...> -DMACRO=<NAME> -DKIND=functions|identifiers
#       -P write_tf_names.cmake
# Writes MACRO(TF_Name) for each TF_ name of the given headers (their own text, not the headers
# they include), sorted and without duplicates:
#   functions    the functions they declare (TF_CAPI_EXPORT [extern] <type> TF_Name(...)): the
#                symbols of libtensorflow_framework.so.2 (framework_stub.c);
#   identifiers  every TF_ identifier in them (functions, types, enum values, macros): the names
#                the drop-in gives TensorFlow's clients in its messages (tf_messages.cc).
# Rewrites OUT only when its text changes.
if(NOT OUT OR NOT HEADERS OR NOT MACRO OR NOT KIND)
  message(FATAL_ERROR "usage: cmake -DOUT=file -DHEADERS=h1;h2 -DMACRO=M -DKIND=functions|identifiers -P write_tf_names.cmake")
endif()
set(names "")
foreach(header IN LISTS HEADERS)
  if(header STREQUAL "")
    continue()
  endif()
  file(READ "${header}" text)
  if(KIND STREQUAL "functions")
    string(REGEX MATCHALL "TF_CAPI_EXPORT[ \t\r\n][^;(]*\\(" decls "${text}")
    if(NOT decls)
      message(FATAL_ERROR "${header} declares no TF_CAPI_EXPORT function")
    endif()
    foreach(decl IN LISTS decls)
      string(REGEX MATCH "(TF_[A-Za-z0-9_]+)[ \t\r\n]*\\($" name "${decl}")
      if(NOT CMAKE_MATCH_1)
        message(FATAL_ERROR "${header}: no TF_ function name in: ${decl}")
      endif()
      list(APPEND names "${CMAKE_MATCH_1}")
    endforeach()
  elseif(KIND STREQUAL "identifiers")
    # An identifier: TF_ not preceded by an identifier character.
    string(REGEX MATCHALL "(^|[^A-Za-z0-9_])TF_[A-Za-z0-9_]+" found "${text}")
    foreach(f IN LISTS found)
      string(REGEX MATCH "TF_[A-Za-z0-9_]+$" f "${f}")
      list(APPEND names "${f}")
    endforeach()
  else()
    message(FATAL_ERROR "KIND is functions or identifiers, not ${KIND}")
  endif()
endforeach()
list(REMOVE_DUPLICATES names)
list(SORT names)
set(content "/* Written by c_api/dropin/write_tf_names.cmake: do not edit. */\n")
foreach(name IN LISTS names)
  string(APPEND content "${MACRO}(${name})\n")
endforeach()
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${content}")
