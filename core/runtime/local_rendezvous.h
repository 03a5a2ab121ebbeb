// LocalRendezvous: an in-process table from rendezvous key to value or waiting receiver.
// Thread safety: all methods are safe to call concurrently.
#ifndef SG_CORE_RUNTIME_LOCAL_RENDEZVOUS_H_
#define SG_CORE_RUNTIME_LOCAL_RENDEZVOUS_H_

#include <deque>
#include <unordered_map>

#include "core/util/mutex.h"
#include "core/framework/rendezvous.h"

namespace sg {

class LocalRendezvous : public Rendezvous {
 public:
  ~LocalRendezvous() override;
  absl::Status Send(const ParsedKey& key, const Tensor& value, bool is_dead) override;
  void RecvAsync(const ParsedKey& key, DoneCallback done) override;
  void StartAbort(const absl::Status& status) override;
  // How many keys hold a value not yet received or a receiver still waiting.
  size_t Pending();

 private:
  struct Item {
    bool has_value = false;
    Tensor value;
    bool is_dead = false;
    DoneCallback waiter;
  };
  mutex mu_;
  absl::Status abort_ ABSL_GUARDED_BY(mu_);
  std::unordered_map<std::string, Item> table_ ABSL_GUARDED_BY(mu_);
};

}  // namespace sg

#endif  // SG_CORE_RUNTIME_LOCAL_RENDEZVOUS_H_
