# `cmake --install` layout (prefix/...):
#   include/sg/c_api.h, include/sg/tf_c_api.h
#   lib/libsg.so.1.<version>, lib/libsg.so.1 (SONAME), lib/libsg.so (for -lsg)
#   lib/pkgconfig/sg.pc                    pkg-config --cflags --libs sg
#   include/tensorflow/c/*.h, lib/libtensorflow.so.2.21.0, lib/libtensorflow.so.2 (SONAME),
#   lib/libtensorflow.so, lib/pkgconfig/tensorflow.pc   the drop-in for TensorFlow's C library
#                                          (c_api/dropin): pkg-config --cflags --libs tensorflow
#   lib/libtensorflow_framework.so.2.21.0, .so.2 (SONAME), .so   the name op libraries link to
#                                          (a filter of libtensorflow.so.2, no code of its own)
#   lib/cmake/sg/sg{Config,ConfigVersion,Targets*}.cmake   find_package(sg) -> sg::sg
#   bin/sg                                 the sg tool (finds libsg through $ORIGIN/../lib)
# ("lib" is CMAKE_INSTALL_LIBDIR: lib/<multiarch> when configured for prefix /usr on Debian.)
# tests/install/consumer_test.sh installs into a temporary prefix and builds clients both ways.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

get_target_property(SG_SOVERSION sg SOVERSION)  # the ABI version, for sg.pc's description

install(TARGETS sg EXPORT sgTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES
  ${PROJECT_SOURCE_DIR}/c_api/include/sg/c_api.h
  ${PROJECT_SOURCE_DIR}/c_api/include/sg/tf_c_api.h
  ${PROJECT_SOURCE_DIR}/c_api/include/sg/ops.h
  ${PROJECT_SOURCE_DIR}/c_api/include/sg/kernels.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/sg COMPONENT dev)

# The drop-in libtensorflow.so.2 and TensorFlow's header layout. tensorflow.pc is written at
# configure time with a prefix relative to its own directory (${pcfiledir}), which pkg-config
# resolves wherever the tree was installed.
install(TARGETS sg_tensorflow sg_tensorflow_framework
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/c_api/dropin/include/tensorflow
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev FILES_MATCHING PATTERN "*.h")
set(SG_TF_PC_DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${SG_TF_PC_DESTINATION}")
  set(SG_TF_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH SG_TF_PC_UP "/anchor/${SG_TF_PC_DESTINATION}" "/anchor")
  string(REGEX REPLACE "/$" "" SG_TF_PC_UP "${SG_TF_PC_UP}")
  set(SG_TF_PC_PREFIX "\${pcfiledir}/${SG_TF_PC_UP}")
endif()
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(SG_TF_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(SG_TF_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/pkgconfig/tensorflow.pc.in
  ${PROJECT_BINARY_DIR}/pkgconfig/tensorflow.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/tensorflow.pc
  DESTINATION ${SG_TF_PC_DESTINATION} COMPONENT dev)

set_target_properties(sg_tool PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
install(TARGETS sg_tool RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)

# sg.pc is written at install time so that its prefix is the one installed into
# (`cmake --install build --prefix /opt/sg` included), not the one configured.
install(CODE "
  set(SG_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(CMAKE_INSTALL_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(CMAKE_INSTALL_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(PROJECT_VERSION \"${PROJECT_VERSION}\")
  set(SG_SOVERSION \"${SG_SOVERSION}\")
  configure_file(\"${PROJECT_SOURCE_DIR}/pkgconfig/sg.pc.in\" \"${PROJECT_BINARY_DIR}/pkgconfig/sg.pc\" @ONLY)
  file(INSTALL \"${PROJECT_BINARY_DIR}/pkgconfig/sg.pc\"
       DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig\")
" COMPONENT dev)

# The CMake package: sg::sg. A newer sg with the same major version satisfies an older request
# (the ABI only grows under SONAME libsg.so.1; see DESIGN.md, "The C ABI").
set(SG_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/sg)
install(EXPORT sgTargets NAMESPACE sg:: DESTINATION ${SG_CMAKE_DIR} COMPONENT dev)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/sgConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/sgConfig.cmake INSTALL_DESTINATION ${SG_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/sgConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/sgConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/sgConfigVersion.cmake
  DESTINATION ${SG_CMAKE_DIR} COMPONENT dev)

# Hooks for the bindings (bindings/java, bindings/go), which add their targets before this file
# is included: the jar and its JNI library, and the Go module's sources without its tests
# (bindings/go/CMakeLists.txt installs capi.swig and the installed internal/capi/cgo.go).
if(TARGET sg_java AND COMMAND install_jar)
  install_jar(sg_java DESTINATION ${CMAKE_INSTALL_DATADIR}/java COMPONENT java)
endif()
if(TARGET sg_jni)  # beside libsg, which it finds through $ORIGIN
  set_target_properties(sg_jni PROPERTIES INSTALL_RPATH "$ORIGIN")
  install(TARGETS sg_jni LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT java)
endif()
if(SG_BUILD_GO AND IS_DIRECTORY ${PROJECT_SOURCE_DIR}/bindings/go)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/bindings/go/
    DESTINATION ${CMAKE_INSTALL_DATADIR}/sg/go COMPONENT go
    FILES_MATCHING PATTERN "*.go" PATTERN "*.c" PATTERN "*.h" PATTERN "go.mod" PATTERN "go.sum"
    PATTERN "*_test.go" EXCLUDE PATTERN "cgo.go" EXCLUDE PATTERN "CMakeLists.txt" EXCLUDE)
endif()
