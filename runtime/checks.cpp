// Findings of the misuse checks: the mode, the record of findings (printed once per call site,
// counted after that, listed in the statistics) and the program location of a call.
#include "runtime/checks.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <fmt/format.h>
#include <link.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "runtime/copy_plan.h"
#include "runtime/runtime.h"

namespace npusim::rt::checks {

namespace {

Mode parseMode() {
  const char* v = std::getenv("NPUSIM_CHECK");
  std::string s = v ? v : "";
  if (s.empty() || s == "default") return Mode::Default;
  if (s == "off" || s == "0" || s == "none") return Mode::Off;
  if (s == "warn") return Mode::Warn;
  if (s == "error" || s == "strict") return Mode::Error;
  std::fprintf(stderr, "npusim: NPUSIM_CHECK=%s is not one of off, warn, error, default; using default\n",
               s.c_str());
  return Mode::Default;
}

struct Finding {
  Kind kind;
  const char* severity;
  std::string call, args, message, location;
  double timeUs = -1;  // simulated host time of the call, when known
  uint64_t count = 1;
};

// Distinct findings, keyed by (check, call, call site), so a misuse in a loop is printed once.
struct Store {
  std::mutex mu;
  std::vector<Finding> list;
  std::map<std::tuple<int, std::string, uintptr_t>, size_t> index;
  uint64_t dropped = 0;  // distinct findings beyond kMaxFindings (counted, not kept)
  static constexpr size_t kMaxFindings = 1000;
};
Store& store() {
  static Store* s = new Store;  // never destroyed: read by atexit output writers
  return *s;
}

thread_local const CallArgs* tArgs = nullptr;

bool ourLibrary(const char* path) {
  const char* base = std::strrchr(path, '/');
  base = base ? base + 1 : path;
  return std::strncmp(base, "libascendcl", 11) == 0 || std::strncmp(base, "libnnopbase", 11) == 0 ||
         std::strncmp(base, "libopapi", 8) == 0;
}

struct Site {
  uintptr_t pc = 0;
  std::string text;
};

// "function at file:line" from the debug information, through binutils' addr2line (run once
// per new call site, for the first 64; NPUSIM_CHECK_SYMBOLIZE=0 turns it off). Empty when unknown.
std::string sourceLine(const char* path, uintptr_t addr) {
  static const bool enabled = [] {
    const char* v = std::getenv("NPUSIM_CHECK_SYMBOLIZE");
    return !(v && std::string(v) == "0");
  }();
  static int budget = 64;  // each run parses the debug information: only the first call sites
  if (!enabled || std::strchr(path, '\'') || !*path || budget <= 0) return {};
  budget--;
  std::string cmd = fmt::format("addr2line -C -f -e '{}' {:#x} 2>/dev/null", path, addr);
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return {};
  char fn[512] = {0}, line[1024] = {0};
  bool ok = std::fgets(fn, sizeof fn, f) && std::fgets(line, sizeof line, f);
  pclose(f);
  if (!ok) return {};
  fn[std::strcspn(fn, "\n")] = 0;
  line[std::strcspn(line, "\n")] = 0;
  if (std::strncmp(line, "??", 2) == 0) return {};
  return std::strcmp(fn, "??") == 0 ? std::string(line) : fmt::format("{} at {}", fn, line);
}

std::string describePc(uintptr_t pc) {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(pc), &info) || !info.dli_fname) return fmt::format("{:#x}", pc);
  const char* module = std::strrchr(info.dli_fname, '/');
  module = module ? module + 1 : info.dli_fname;
  uintptr_t off = pc - reinterpret_cast<uintptr_t>(info.dli_fbase);
  // The main program's dli_fname may be empty; /proc/self/exe names it.
  std::string path = *info.dli_fname ? info.dli_fname : "/proc/self/exe";
  // Position-dependent executables are symbolised by absolute address, the rest by offset.
  bool absolute = static_cast<const ElfW(Ehdr)*>(info.dli_fbase)->e_type == ET_EXEC;
  std::string source = sourceLine(path.c_str(), absolute ? pc : off);
  if (!source.empty()) return fmt::format("{} ({}+{:#x})", source, module, off);
  if (!info.dli_sname) return fmt::format("{}+{:#x}", module, off);
  int status = 0;
  char* dem = abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status);
  std::string sym = status == 0 && dem ? dem : info.dli_sname;
  std::free(dem);
  return fmt::format("{}+{:#x} ({}+{:#x})", sym, pc - reinterpret_cast<uintptr_t>(info.dli_saddr), module,
                     off);
}

// The first frame outside the simulator's libraries: the program's call into ACL/aclnn.
Site findSite() {
  void* frames[48];
  int n = backtrace(frames, 48);
  for (int i = 1; i < n; ++i) {
    Dl_info info{};
    if (!dladdr(frames[i], &info) || !info.dli_fname) continue;
    if (ourLibrary(info.dli_fname)) continue;
    // A return address points after the call instruction: look up the call itself.
    uintptr_t pc = reinterpret_cast<uintptr_t>(frames[i]) - 1;
    return {pc, describePc(pc)};
  }
  return {};
}

const char* severityFor(Kind k, Mode m) {
  if (k == Kind::HostAccess) return "fatal";
  if (m == Mode::Warn) return "warning";
  if (m == Mode::Error) return "error";
  return refusedByRuntime(k) ? "error" : "warning";
}

void record(Kind k, const char* severity, const std::string& call, const std::string& args,
            const std::string& message, double timeUs, const Site* where = nullptr, bool print = true) {
  Site site = where ? *where : findSite();
  Store& s = store();
  std::lock_guard<std::mutex> lock(s.mu);
  auto key = std::make_tuple(static_cast<int>(k), call, site.pc);
  auto it = s.index.find(key);
  if (it != s.index.end()) {
    s.list[it->second].count++;
    return;
  }
  std::string text = fmt::format("npusim: {} [{}] {}({}): {}\n", severity, kindName(k), call, args, message);
  if (!site.text.empty()) text += fmt::format("    called from {}\n", site.text);
  if (print) std::fputs(text.c_str(), stderr);
  if (s.list.size() >= Store::kMaxFindings) {
    s.dropped++;
    return;
  }
  s.index.emplace(key, s.list.size());
  s.list.push_back(Finding{k, severity, call, args, message, site.text, timeUs, 1});
}

}  // namespace

Mode mode() {
  static const Mode m = parseMode();
  return m;
}

const char* kindName(Kind k) {
  switch (k) {
    case Kind::OutOfBounds:
      return "out_of_bounds";
    case Kind::PaddingAccess:
      return "padding_access";
    case Kind::NotAllocated:
      return "not_allocated";
    case Kind::UseAfterFree:
      return "use_after_free";
    case Kind::DoubleFree:
      return "double_free";
    case Kind::InvalidFree:
      return "invalid_free";
    case Kind::HostAccess:
      return "host_access";
    case Kind::PageableAsync:
      return "pageable_async";
    case Kind::UnalignedAsync:
      return "unaligned_async";
    case Kind::CopyKindIgnored:
      return "copy_kind_ignored";
    case Kind::FreeInFlight:
      return "free_in_flight";
    case Kind::StaleStream:
      return "stale_stream";
    case Kind::StaleEvent:
      return "stale_event";
    case Kind::WorkLeft:
      return "work_left";
    case Kind::Deadlock:
      return "deadlock";
  }
  return "?";
}

bool refusedByRuntime(Kind k) {
  switch (k) {
    case Kind::PaddingAccess:
    case Kind::PageableAsync:
    case Kind::UnalignedAsync:
    case Kind::CopyKindIgnored:
    case Kind::FreeInFlight:
    case Kind::WorkLeft:
      return false;
    default:
      return true;
  }
}

CallArgs::CallArgs(std::initializer_list<Arg> args) : outer_(tArgs) {
  for (const Arg& a : args)
    if (n_ < kMax) args_[n_++] = a;
  tArgs = this;
}

CallArgs::~CallArgs() { tArgs = outer_; }

std::string CallArgs::format() const {
  std::string out;
  for (int i = 0; i < n_; ++i) {
    const Arg& a = args_[i];
    if (i) out += ", ";
    out += a.name;
    out += '=';
    switch (a.type) {
      case Arg::Ptr:
        out += a.value ? fmt::format("{:#x}", a.value) : std::string("NULL");
        break;
      case Arg::Uint:
        out += fmt::format("{}", a.value);
        break;
      case Arg::Int:
        out += fmt::format("{}", static_cast<int64_t>(a.value));
        break;
      case Arg::CopyKind: {
        const char* n = memcpyKindName(a.value);
        out += n ? std::string(n) : fmt::format("{}", static_cast<int64_t>(a.value));
        break;
      }
    }
  }
  return out;
}

aclError report(ApiCall& api, Kind k, aclError code, const std::string& message, std::string args) {
  Mode m = mode();
  bool fails = refusedByRuntime(k) || m == Mode::Error;
  if (m != Mode::Off) {
    if (args.empty() && tArgs) args = tArgs->format();
    record(k, severityFor(k, m), api.name(), args, message, api.th ? tickToUs(api.th->clock) : -1.0);
  }
  if (!fails) return ACL_SUCCESS;
  return api.fail(code, "{}", message);
}

void note(Kind k, const std::string& call, const std::string& args, const std::string& message, bool print) {
  Mode m = mode();
  if (m == Mode::Off) return;
  ApiCall* api = ApiCall::current();
  record(k, severityFor(k, m), call, args, message, api && api->th ? tickToUs(api->th->clock) : -1.0, nullptr,
         print);
}

void noteQuietly(Kind k, const std::string& call, const std::string& message, const std::string& location) {
  if (mode() == Mode::Off) return;
  Site site{0, location};
  record(k, severityFor(k, mode()), call, "", message, -1.0, &site, false);
}

std::string callSite() { return findSite().text; }

nlohmann::json findingsJson() {
  Store& s = store();
  std::lock_guard<std::mutex> lock(s.mu);
  nlohmann::json out = nlohmann::json::array();
  for (const Finding& f : s.list) {
    nlohmann::json j = {
        {"check", kindName(f.kind)}, {"severity", f.severity}, {"call", f.call},  {"args", f.args},
        {"message", f.message},      {"location", f.location}, {"count", f.count}};
    if (f.timeUs >= 0) j["host_time_us"] = f.timeUs;
    out.push_back(std::move(j));
  }
  return out;
}

uint64_t findingCount(bool errorsOnly) {
  Store& s = store();
  std::lock_guard<std::mutex> lock(s.mu);
  uint64_t n = errorsOnly ? 0 : s.dropped;
  for (const Finding& f : s.list)
    if (!errorsOnly || std::strcmp(f.severity, "warning") != 0) n += f.count;
  return n;
}

}  // namespace npusim::rt::checks
