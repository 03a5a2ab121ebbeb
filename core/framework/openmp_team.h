// oneDNN's OpenMP team and sg's intra-op pool share the cores. After a parallel region, the
// team's threads spin in libgomp for a while (up to milliseconds) waiting for the next one. An
// intra-op pool thread polling for work at the same time makes three busy threads on two cores
// in a 2-thread step (caller, pool thread, OpenMP thread): in a batch-1 MobileNetV2 step, 42% of
// the samples were libgomp's spin loop. So the kernels that run oneDNN on more than one thread
// say so here, and for a while after that:
//   - the pool's idle threads sleep at once instead of polling (core/framework/intra_op_pool.h);
//   - sg's own parallel loops (ParallelForChunks, core/kernels/parallel_for.h) run on the
//     calling thread's OpenMP team instead of the pool, so one set of threads serves both.
//
// Defined in openmp_team.cc, outside the kernels compiled once per x86-64 level, so that every
// copy notes the same time and uses the same OpenMP runtime. Thread-safe; the first two are
// lock-free.
#ifndef SG_CORE_FRAMEWORK_OPENMP_TEAM_H_
#define SG_CORE_FRAMEWORK_OPENMP_TEAM_H_

namespace sg {

// Called by a kernel after running oneDNN on an OpenMP team of more than one thread.
void NoteOpenMpTeamUsed();

// True when NoteOpenMpTeamUsed was called within the last 10 ms: a window chosen to outlast
// libgomp's default spin (GOMP_SPINCOUNT, 300000 iterations), not tuned.
bool OpenMpTeamRecentlyUsed();

// Runs fn(arg) once on each of `threads` threads: the calling thread and threads - 1 of its
// OpenMP team, and returns when every call has returned (then notes the team as used). Returns
// false, calling nothing, when sg was built without OpenMP. fn must not throw. Must not be
// called from inside another parallel region.
bool RunOnOpenMpTeam(int threads, void (*fn)(void*), void* arg);

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_OPENMP_TEAM_H_
