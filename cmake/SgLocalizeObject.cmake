# cmake -DOBJECT=x.o -DOBJCOPY=objcopy -DNM=nm -DOBJDUMP=objdump -P SgLocalizeObject.cmake
# Makes every symbol OBJECT defines local (cmake/SgDispatch.cmake says why), then fails if one
# is still global (GNU_UNIQUE symbols cannot be localized: compile with -fno-gnu-unique), or if
# its static initializers (.text.startup), which run on every CPU, touch a vector register: a
# copy for a higher level registers its kernels through section sg_kernels_vL instead
# (core/framework/op_kernel.h), so its only initializers should be iostream's.
execute_process(COMMAND ${OBJCOPY} --wildcard --localize-symbol=* ${OBJECT}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${OBJCOPY} failed on ${OBJECT}")
endif()
execute_process(COMMAND ${NM} --defined-only --extern-only ${OBJECT}
                OUTPUT_VARIABLE globals RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${OBJECT}")
endif()
if(NOT globals STREQUAL "")
  message(FATAL_ERROR "${OBJECT} still defines global symbols; another level's copy of them "
                      "could be linked in their place:\n${globals}")
endif()
execute_process(COMMAND ${OBJDUMP} -d --no-show-raw-insn -j .text.startup ${OBJECT}
                OUTPUT_VARIABLE startup ERROR_QUIET)
string(REGEX MATCHALL "[^\n]*%[xyz]mm[0-9]+[^\n]*" vector_lines "${startup}")
if(vector_lines)
  string(REPLACE ";" "\n" vector_lines "${vector_lines}")
  message(FATAL_ERROR "the static initializers of ${OBJECT} use vector registers, which the "
                      "CPU it is loaded on may lack:\n${vector_lines}")
endif()
