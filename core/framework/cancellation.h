// CancellationManager: lets a step's pending work (a blocked _Recv, a waiting queue) learn that the
// step was cancelled. Callbacks run once, on the thread that calls StartCancel.
#ifndef SG_CORE_FRAMEWORK_CANCELLATION_H_
#define SG_CORE_FRAMEWORK_CANCELLATION_H_

#include <functional>
#include <map>

#include "core/util/mutex.h"

namespace sg {

class CancellationManager {
 public:
  using Token = int64_t;
  using Callback = std::function<void()>;

  Token NewToken();
  // Registers `cb` under `token`; false (and `cb` not kept) if cancellation already started.
  bool RegisterCallback(Token token, Callback cb);
  // Drops the callback; false if cancellation started (the callback may be running or done).
  bool DeregisterCallback(Token token);
  // Runs every registered callback once; later calls do nothing.
  void StartCancel();
  bool IsCancelled() const;

 private:
  mutable mutex mu_;
  bool cancelled_ ABSL_GUARDED_BY(mu_) = false;
  Token next_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<Token, Callback> callbacks_ ABSL_GUARDED_BY(mu_);
};

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_CANCELLATION_H_
