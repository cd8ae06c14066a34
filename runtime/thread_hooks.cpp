// Host threads created and joined by the program. The runtime interposes pthread_create and
// pthread_join (forwarding to the C library) so a new thread is known from the moment it is
// created, at its creator's simulated time, and a thread blocked in join does not hold back
// the others. This keeps multi-threaded programs deterministic: the order of their calls
// follows simulated time, not the OS scheduler (docs/architecture.md "Host threads").
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>

#include "runtime/runtime.h"

using npusim::rt::HostState;
using npusim::rt::HostThread;
using npusim::rt::Runtime;

namespace {

using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
using JoinFn = int (*)(pthread_t, void**);

struct Boot {
  void* (*fn)(void*);
  void* arg;
  HostThread* self;
};

void* trampoline(void* p) {
  Boot b = *static_cast<Boot*>(p);
  delete static_cast<Boot*>(p);
  // The record was made by the creator under the lock; binding only sets this thread's
  // thread-locals, so it must not wait for the lock (the creator may hold it).
  Runtime::get().bindThread(b.self);
  b.self->tid = static_cast<int>(gettid());
  return b.fn(b.arg);
}

}  // namespace

extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*fn)(void*), void* arg) {
  static CreateFn real = reinterpret_cast<CreateFn>(dlsym(RTLD_NEXT, "pthread_create"));
  Runtime& rt = Runtime::get();
  HostThread* child = nullptr;
  {
    std::lock_guard<std::recursive_mutex> lock(rt.mu);
    HostThread* parent = rt.built() ? rt.currentThreadIfKnown() : nullptr;
    // Threads made inside a runtime call (e.g. by a host kernel computing an operator's result)
    // are the simulator's helpers, not program threads.
    if (parent && parent->depth == 0) child = rt.registerChild(parent);
  }
  if (!child) return real(thread, attr, fn, arg);
  auto* boot = new Boot{fn, arg, child};
  int r = real(thread, attr, trampoline, boot);
  std::lock_guard<std::recursive_mutex> lock(rt.mu);
  if (r != 0) {
    delete boot;
    child->state = HostState::Done;
  } else {
    child->pthread = static_cast<unsigned long>(*thread);
  }
  return r;
}

extern "C" int pthread_join(pthread_t thread, void** ret) {
  static JoinFn real = reinterpret_cast<JoinFn>(dlsym(RTLD_NEXT, "pthread_join"));
  Runtime& rt = Runtime::get();
  HostThread* self = nullptr;
  {
    std::lock_guard<std::recursive_mutex> lock(rt.mu);
    self = rt.currentThreadIfKnown();
    if (self && self->state == HostState::Native) {
      self->state = HostState::Parked;
      rt.cv.notify_all();
    }
  }
  int r = real(thread, ret);
  if (self) {
    std::lock_guard<std::recursive_mutex> lock(rt.mu);
    if (HostThread* joined = rt.findThread(static_cast<unsigned long>(thread)))
      self->clock = std::max(self->clock, joined->clock);
    if (self->state == HostState::Parked) self->state = HostState::Native;
    rt.cv.notify_all();
  }
  return r;
}
