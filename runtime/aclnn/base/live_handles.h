#pragma once
// The aclTensor and aclTensorList handles aclCreate* made and aclDestroy* has not yet destroyed.
// A program that destroys a handle twice (the public eltwise example destroys the tensors of a
// list after aclDestroyTensorList, which destroys them already) gets an error and a warning on
// stderr instead of a crash in the allocator.
#include <mutex>
#include <unordered_set>

namespace npusim::aclnn {

class LiveHandles {
 public:
  void add(const void* p) {
    std::lock_guard<std::mutex> lock(mu_);
    live_.insert(p);
  }
  // True (and forgotten) when `p` is live; false when it was destroyed already or never made.
  bool remove(const void* p) {
    std::lock_guard<std::mutex> lock(mu_);
    return live_.erase(p) != 0;
  }

 private:
  std::mutex mu_;
  std::unordered_set<const void*> live_;
};

// One registry per handle type; never destroyed, so handles destroyed at exit still find it.
LiveHandles& liveTensors();
LiveHandles& liveTensorLists();
// aclIntArray, aclFloatArray, aclBoolArray (the public finalize-routing example destroys its
// aclIntArray both through a unique_ptr and by hand).
LiveHandles& liveArrays();

// Reports the destruction of a handle that is not live: 161002, the message, a line on stderr.
int32_t refuseDeadHandle(const char* api, const char* what, const void* p);

}  // namespace npusim::aclnn
