#pragma once
// Misuse detection (docs/checks.md): the runtime reports ACL mistakes at the call that makes
// them, with the call, its arguments and the program location, on stderr and in the
// statistics ("findings"). NPUSIM_CHECK selects how findings are treated:
//   unset/default  misuse the real runtime refuses fails the call (reported as an error);
//                  misuse it lets through proceeds (reported as a warning)
//   error          every finding fails its call (strict: for test suites)
//   warn           every finding is reported as a warning; only calls the real runtime
//                  refuses fail (the simulator cannot carry them out either)
//   off            nothing is reported; the real runtime's refusals still apply
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

#include "acl/acl.h"
#include "runtime/memory.h"

namespace npusim::sched {
struct Task;
struct HwStream;
}  // namespace npusim::sched

namespace npusim::rt {

class ApiCall;
struct Stream;
struct Event;
struct CopyPlan;

namespace checks {

enum class Mode { Off, Warn, Default, Error };
Mode mode();  // NPUSIM_CHECK, read once

enum class Kind {
  OutOfBounds,      // range runs past the reserved (padded) end of an allocation
  PaddingAccess,    // range reaches into the padding beyond the requested size
  NotAllocated,     // device address inside no live allocation (freed, or never allocated)
  UseAfterFree,     // device address in a freed allocation, or host range in a freed pinned block
  DoubleFree,       // free of an allocation that was already freed
  InvalidFree,      // free of a pointer the matching allocator did not return
  HostAccess,       // host code dereferenced a device address (fatal)
  PageableAsync,    // asynchronous copy with pageable host memory (becomes synchronous)
  UnalignedAsync,   // asynchronous copy with an address not 64-byte aligned
  CopyKindIgnored,  // aclrtMemcpy's kind disagrees with its pointers (reserved: the pointers decide)
  FreeInFlight,     // device memory freed while a queued task still uses it
  StaleStream,      // stream handle destroyed (or never created)
  StaleEvent,       // event handle destroyed (or never created)
  WorkLeft,         // unfinished work on streams at aclrtResetDevice / aclFinalize
  Deadlock,         // a synchronisation can never finish
};
const char* kindName(Kind k);
// Whether the real runtime refuses this misuse (so the call fails by default).
bool refusedByRuntime(Kind k);

// The arguments of the current call, for messages. Entry points that touch memory declare one
// on the stack; it is cheap (no formatting unless a finding is made).
class CallArgs {
 public:
  struct Arg {
    enum Type { Ptr, Uint, Int, CopyKind };
    const char* name = "";
    Type type = Uint;
    uint64_t value = 0;
    Arg() = default;
    Arg(const char* n, const void* p) : name(n), type(Ptr), value(reinterpret_cast<uintptr_t>(p)) {}
    Arg(const char* n, unsigned long v) : name(n), type(Uint), value(v) {}
    Arg(const char* n, unsigned long long v) : name(n), type(Uint), value(v) {}
    Arg(const char* n, unsigned v) : name(n), type(Uint), value(v) {}
    Arg(const char* n, int v) : name(n), type(Int), value(static_cast<uint64_t>(static_cast<int64_t>(v))) {}
    Arg(const char* n, aclrtMemcpyKind k) : name(n), type(CopyKind), value(static_cast<uint64_t>(k)) {}
  };
  CallArgs(std::initializer_list<Arg> args);
  ~CallArgs();
  CallArgs(const CallArgs&) = delete;
  CallArgs& operator=(const CallArgs&) = delete;
  std::string format() const;  // "dst=0x..., count=16, kind=ACL_MEMCPY_HOST_TO_DEVICE"

 private:
  static constexpr int kMax = 8;
  Arg args_[kMax];
  int n_ = 0;
  const CallArgs* outer_ = nullptr;
};

// Reports a finding about the call in progress (`api`). Returns ACL_SUCCESS when the call may
// proceed, else fails `api` with `code` and `message` and returns `code`. `args` defaults to
// the current CallArgs.
aclError report(ApiCall& api, Kind k, aclError code, const std::string& message, std::string args = {});
// Records a finding without deciding the call's result (the caller already fails it).
void note(Kind k, const std::string& call, const std::string& args, const std::string& message,
          bool print = true);
// Records a finding already printed by the caller (the fault handler), at a known location.
void noteQuietly(Kind k, const std::string& call, const std::string& message, const std::string& location);

// ---- hooks (runtime/check_memory.cpp) ----
// Range of a copy or memset operand. Replaces copy_plan's range check.
aclError deviceRange(ApiCall& api, const PointerInfo& info, const void* p, uint64_t bytes, const char* what);
// aclrtMemcpyAsync / aclrtMemcpy2dAsync: the 64-byte alignment rule (seed 003).
aclError asyncAlignment(ApiCall& api, const void* dst, const void* src);
// An asynchronous copy or memset that touches pageable host memory (runs synchronously).
aclError pageableAsync(ApiCall& api, const CopyPlan& plan);
// aclrtFree / acldvppFree: ACL_SUCCESS when `p` may be freed now (then records the free).
aclError beforeFree(ApiCall& api, void* p);
// aclrtFreeHost. When a queued copy still uses the block, the block is forgotten now and freed
// when the copy completes (*deferred = true): the simulator's own heap must not be written
// after the program freed it.
aclError beforeFreeHost(ApiCall& api, void* p, bool* deferred);
// Task bookkeeping for FreeInFlight: which allocations and pinned blocks each queued task (on
// `device`) uses. Pinned blocks are tracked in every mode (see beforeFreeHost).
void taskLaunched(const sched::Task& t, int device);
void taskCompleted(const sched::Task& t);

// ---- hooks (runtime/check_objects.cpp) ----
void streamDestroyed(const Stream* s);
void eventDestroyed(const Event* e);
// Text for an invalid stream/event handle (reports StaleStream/StaleEvent).
std::string staleStream(const void* handle);
std::string staleEvent(const void* handle);
// aclrtResetDevice(Force) on `device`: reports WorkLeft when the reset closes the device and
// its streams still have unfinished tasks at the host's time. aclFinalize: all devices.
aclError workLeftAtReset(ApiCall& api, int device, bool force);
aclError workLeftAtFinalize(ApiCall& api);
// A synchronisation that can never finish (Runtime::drain, aclrtSynchronizeEvent); `printed`
// when the caller already explained it on stderr.
void deadlock(const std::string& what, const std::string& blocked, bool printed);

// ---- fault reporting (runtime/fault_reporter.cpp) ----
// Installs the SIGSEGV/SIGBUS handler that explains host dereferences of device memory and
// exits with kHostAccessExitCode (no-op when the mode is Off).
void installFaultReporter();
constexpr int kHostAccessExitCode = 86;
// Allocation history for messages: the freed allocation containing `p` (nullptr if unknown).
struct FreedAllocation {
  Allocation alloc;
  std::string freedBy;  // the call that freed it
};
const FreedAllocation* findFreed(const void* p);

// ---- statistics ----
nlohmann::json findingsJson();
uint64_t findingCount(bool errorsOnly);
// Where the program called into the runtime: "func+0x12 (prog+0x3456)", or "" if unknown.
std::string callSite();

}  // namespace checks
}  // namespace npusim::rt
