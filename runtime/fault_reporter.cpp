// Host dereferences of device memory. Device addresses are reserved PROT_NONE
// (runtime/memory.cpp), so such an access faults at once. The SIGSEGV/SIGBUS handler explains
// the fault (address, allocation, offset, the call that made it, the faulting instruction),
// flushes the trace and statistics on a best-effort basis and exits with kHostAccessExitCode.
// Faults elsewhere go to the handler that was installed before (or the default action).
#include <dlfcn.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstring>

#include "runtime/checks.h"
#include "runtime/runtime.h"

namespace npusim::rt::checks {

namespace {

struct sigaction gOldSegv, gOldBus;
bool gInstalled = false;

// Formatting without allocation: the handler runs in signal context.
class Text {
 public:
  Text& s(const char* t) {
    while (t && *t && n_ < sizeof(buf_) - 1) buf_[n_++] = *t++;
    return *this;
  }
  Text& dec(uint64_t v) {
    char tmp[24];
    int i = 0;
    do tmp[i++] = static_cast<char>('0' + v % 10);
    while ((v /= 10) && i < 24);
    while (i) put(tmp[--i]);
    return *this;
  }
  Text& hex(uint64_t v) {
    s("0x");
    char tmp[16];
    int i = 0;
    do tmp[i++] = "0123456789abcdef"[v & 15];
    while ((v >>= 4) && i < 16);
    while (i) put(tmp[--i]);
    return *this;
  }
  const char* c_str() {
    buf_[n_] = 0;
    return buf_;
  }
  size_t size() const { return n_; }

 private:
  void put(char c) {
    if (n_ < sizeof(buf_) - 1) buf_[n_++] = c;
  }
  char buf_[2048];
  size_t n_ = 0;
};

void chain(int sig, siginfo_t* si, void* uc) {
  const struct sigaction& old = sig == SIGBUS ? gOldBus : gOldSegv;
  if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction) {
    old.sa_sigaction(sig, si, uc);
    return;
  }
  if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
    old.sa_handler(sig);
    return;
  }
  // Default action: returning re-executes the faulting instruction, which now kills the process.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
}

uintptr_t faultingPc(void* uc) {
#if defined(__x86_64__)
  return static_cast<uintptr_t>(static_cast<ucontext_t*>(uc)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(static_cast<ucontext_t*>(uc)->uc_mcontext.pc);
#else
  (void)uc;
  return 0;
#endif
}

void describePc(Text& t, uintptr_t pc) {
  Dl_info info{};
  if (!pc || !dladdr(reinterpret_cast<void*>(pc), &info) || !info.dli_fname) {
    t.hex(pc);
    return;
  }
  const char* module = std::strrchr(info.dli_fname, '/');
  module = module ? module + 1 : info.dli_fname;
  if (info.dli_sname)
    t.s(info.dli_sname).s("+").hex(pc - reinterpret_cast<uintptr_t>(info.dli_saddr)).s(" (");
  t.s(module).s("+").hex(pc - reinterpret_cast<uintptr_t>(info.dli_fbase));
  if (info.dli_sname) t.s(")");
}

void onFault(int sig, siginfo_t* si, void* uc) {
  Runtime& rt = Runtime::get();
  const void* p = si->si_addr;
  int device = -1;
  // si_code <= 0: sent by kill/raise, si_addr means nothing.
  if (si->si_code > 0 && rt.built()) {
    MemoryManager& mem = rt.memory();
    for (int d = 0; d < mem.deviceCount(); ++d)
      if (mem.device(d).contains(p)) device = d;
  }
  if (device < 0) {
    chain(sig, si, uc);
    return;
  }
  MemoryManager& mem = rt.memory();
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  Text msg;
  msg.s("npusim: fatal [host_access] host code dereferenced device address ")
      .hex(a)
      .s(" of NPU ")
      .dec(device);
  Text detail;
  if (const Allocation* al = mem.findAllocation(p)) {
    uintptr_t start = reinterpret_cast<uintptr_t>(mem.device(al->device).address(al->offset));
    detail.s("inside allocation #")
        .dec(al->id)
        .s(" (")
        .dec(al->requested)
        .s(" bytes requested, ")
        .dec(al->size);
    detail.s(" reserved, made by ").s(al->api.c_str()).s(") at offset ").dec(a - start);
  } else if (const FreedAllocation* f = findFreed(p)) {
    detail.s("inside allocation #").dec(f->alloc.id).s(" (").dec(f->alloc.requested).s(" bytes, made by ");
    detail.s(f->alloc.api.c_str()).s("), already freed by ").s(f->freedBy.c_str());
  } else {
    detail.s("not inside any allocation");
  }
  msg.s(": ").s(detail.c_str()).s("\n    device memory is not host-accessible: copy it with aclrtMemcpy\n");
  Text where;
  describePc(where, faultingPc(uc));
  msg.s("    faulting instruction: ").s(where.c_str()).s("\n    npusim: exiting with code ");
  msg.dec(kHostAccessExitCode).s("\n");
  ssize_t ignored = write(STDERR_FILENO, msg.c_str(), msg.size());
  (void)ignored;
  // Best effort: write the trace and statistics unless another thread is inside the runtime.
  if (rt.mu.try_lock()) {
    noteQuietly(Kind::HostAccess, "host code",
                Text().s("device address ").hex(a).s(" ").s(detail.c_str()).c_str(), where.c_str());
    if (rt.dirty) rt.writeOutputs();
    rt.trace().close();
    rt.mu.unlock();
  }
  _exit(kHostAccessExitCode);
}

}  // namespace

void installFaultReporter() {
  if (gInstalled || mode() == Mode::Off) return;
  struct sigaction sa {};
  sa.sa_sigaction = onFault;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &gOldSegv);
  sigaction(SIGBUS, &sa, &gOldBus);
  gInstalled = true;
}

}  // namespace npusim::rt::checks
