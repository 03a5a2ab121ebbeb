# Kernels compiled once per x86-64 level and chosen at run time (core/util/cpu_isa.h).
#
# sg_dispatch_kernels(TARGET LEVELS 3 4 SOURCES a.cc b.cc LINK_LIBRARIES deps...)
#
# TARGET (sg_core) compiles SOURCES at the baseline as usual, with SG_KERNEL_DISPATCHED defined.
# For each level L of LEVELS, an object library compiles them again with -march=x86-64-vL and
# SG_KERNEL_ISA=L, with TARGET's own definitions, options and include directories and the usage
# requirements of LINK_LIBRARIES (TARGET's dependencies). Its objects are then linked into one
# relocatable object (ld -r) in which every symbol it defines is made local
# (cmake/SgLocalizeObject.cmake), and that object is added to TARGET.
#
# Why the last step: the copies share inline functions and templates (Eigen's, libstdc++'s,
# sg's headers'), which the compiler emits as COMDAT sections or weak symbols that the final link
# would merge, keeping one copy of each at whichever level came first: AVX-512 code in the
# baseline path, an illegal instruction on an older CPU. ld's --force-group-allocation dissolves
# the COMDAT groups within a level, and making every defined symbol local keeps that level's
# instances (and the statics of its inline functions, hence -fno-gnu-unique: objcopy cannot
# localize GNU_UNIQUE symbols) private to it. What stays global is only what the copy references:
# sg's non-inline functions, Eigen's and the C and C++ runtimes'. The script checks that the
# object defines no global symbol, so a change that breaks this fails the build, not a user's CPU.
#
# SG_DISPATCH_AVAILABLE says whether the tools allow it (GNU ld's --force-group-allocation,
# binutils >= 2.30, objcopy, nm and objdump).
execute_process(COMMAND ${CMAKE_LINKER} --help OUTPUT_VARIABLE _sg_ld_help ERROR_QUIET)
if(CMAKE_OBJCOPY AND CMAKE_NM AND CMAKE_OBJDUMP AND _sg_ld_help MATCHES "force-group-allocation")
  set(SG_DISPATCH_AVAILABLE TRUE)
else()
  set(SG_DISPATCH_AVAILABLE FALSE)
endif()

function(sg_dispatch_kernels target)
  cmake_parse_arguments(ARG "" "" "LEVELS;SOURCES;LINK_LIBRARIES" ${ARGN})
  set_property(SOURCE ${ARG_SOURCES} APPEND PROPERTY COMPILE_DEFINITIONS SG_KERNEL_DISPATCHED)
  foreach(level ${ARG_LEVELS})
    set(obj ${target}_x86_64_v${level})
    add_library(${obj} OBJECT ${ARG_SOURCES})
    target_link_libraries(${obj} PRIVATE ${ARG_LINK_LIBRARIES})
    target_compile_definitions(${obj} PRIVATE SG_KERNEL_ISA=${level}
      $<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>)
    target_include_directories(${obj} SYSTEM PRIVATE
      $<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>)
    target_compile_options(${obj} PRIVATE $<TARGET_PROPERTY:${target},COMPILE_OPTIONS>
      -march=x86-64-v${level} -mtune=generic $<$<CXX_COMPILER_ID:GNU>:-fno-gnu-unique>)
    set(out ${CMAKE_CURRENT_BINARY_DIR}/${obj}.o)
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_LINKER} -r --force-group-allocation -o ${out} $<TARGET_OBJECTS:${obj}>
      COMMAND ${CMAKE_COMMAND} -DOBJECT=${out} -DOBJCOPY=${CMAKE_OBJCOPY} -DNM=${CMAKE_NM}
        -DOBJDUMP=${CMAKE_OBJDUMP}
        -P ${PROJECT_SOURCE_DIR}/cmake/SgLocalizeObject.cmake
      DEPENDS ${obj} $<TARGET_OBJECTS:${obj}> ${PROJECT_SOURCE_DIR}/cmake/SgLocalizeObject.cmake
      COMMAND_EXPAND_LISTS VERBATIM
      COMMENT "Kernels for x86-64-v${level}: one object, its symbols private (${obj}.o)")
    set_source_files_properties(${out} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    target_sources(${target} PRIVATE ${out})
  endforeach()
endfunction()
