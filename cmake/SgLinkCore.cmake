# sg_link_core(<target> [PRIVATE|PUBLIC]): links sg_core as a whole archive so that every op and
# kernel registration (static initializers) is kept.
function(sg_link_core target)
  set(scope PRIVATE)
  if(ARGC GREATER 1)
    set(scope ${ARGV1})
  endif()
  target_link_libraries(${target} ${scope} "$<LINK_LIBRARY:WHOLE_ARCHIVE,sg_core>")
  # Under ThreadSanitizer: sg's calls into Abseil's mutexes go through core/util/tsan_absl_sync.cc.
  if(SG_TSAN_LINK_OPTIONS)
    target_link_options(${target} ${scope} ${SG_TSAN_LINK_OPTIONS})
  endif()
endfunction()
