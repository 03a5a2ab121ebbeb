# sg_link_core(<target> [PRIVATE|PUBLIC]): links sg_core as a whole archive so that every op and
# kernel registration (static initializers) is kept.
function(sg_link_core target)
  set(scope PRIVATE)
  if(ARGC GREATER 1)
    set(scope ${ARGV1})
  endif()
  target_link_libraries(${target} ${scope} "$<LINK_LIBRARY:WHOLE_ARCHIVE,sg_core>")
endfunction()
