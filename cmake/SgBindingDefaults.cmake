# Defaults of SG_BUILD_JAVA and SG_BUILD_GO: on when the toolchain each binding needs is found,
# off otherwise (with a message saying what is missing). An explicit -DSG_BUILD_JAVA=ON without
# the toolchain is an error in bindings/java.
find_package(SWIG 4.0 QUIET)
find_package(Java 17 QUIET COMPONENTS Development)
find_path(SG_JNI_INCLUDE_DIR jni.h
  HINTS "${JAVA_HOME}/include" "$ENV{JAVA_HOME}/include" /usr/lib/jvm/default-java/include
        /usr/lib/jvm/java-17-openjdk-amd64/include /usr/lib/jvm/java-17-openjdk-arm64/include)
find_program(SG_GO_EXECUTABLE NAMES go HINTS /usr/local/go/bin)
find_program(SG_PKG_CONFIG_EXECUTABLE NAMES pkg-config)

set(SG_JAVA_DEFAULT OFF)
set(SG_GO_DEFAULT OFF)
if(SG_SANITIZE)
  # A JVM or a go test binary would need the sanitizer runtime preloaded to load an instrumented
  # libsg; the bindings are tested in the plain build.
  if(NOT DEFINED SG_BUILD_JAVA OR NOT DEFINED SG_BUILD_GO)
    message(STATUS "Bindings off by default under SG_SANITIZE=${SG_SANITIZE}")
  endif()
elseif(SWIG_FOUND AND Java_FOUND AND SG_JNI_INCLUDE_DIR)
  set(SG_JAVA_DEFAULT ON)
elseif(NOT DEFINED SG_BUILD_JAVA)
  message(STATUS "Java binding off by default: it needs SWIG >= 4.0 (found: ${SWIG_FOUND}), "
    "a JDK >= 17 (found: ${Java_FOUND}) and jni.h (${SG_JNI_INCLUDE_DIR}); "
    "scripts/install-deps.sh installs them")
endif()

set(SG_GO_VERSION "")
if(SG_GO_EXECUTABLE)
  execute_process(COMMAND ${SG_GO_EXECUTABLE} env GOVERSION OUTPUT_VARIABLE SG_GO_VERSION
    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  string(REGEX REPLACE "^go" "" SG_GO_VERSION "${SG_GO_VERSION}")
endif()
if(SG_SANITIZE)
elseif(SWIG_FOUND AND SG_PKG_CONFIG_EXECUTABLE AND SG_GO_VERSION VERSION_GREATER_EQUAL 1.19)
  set(SG_GO_DEFAULT ON)
elseif(NOT DEFINED SG_BUILD_GO)
  message(STATUS "Go binding off by default: it needs Go >= 1.19 (found: '${SG_GO_VERSION}'), "
    "SWIG >= 4.0 (found: ${SWIG_FOUND}) and pkg-config (${SG_PKG_CONFIG_EXECUTABLE})")
endif()
