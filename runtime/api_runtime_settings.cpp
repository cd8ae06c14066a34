// ACL entry points that set how the runtime behaves rather than what the device does: operator
// timeouts and system parameters (process-wide and per context).
//
// The wait timeout is given to every later aclrtStreamWaitEvent task, which the device then fails
// after waiting that long (models/sched). The execute timeout is kept and read back but not
// enforced: the AI-core model cannot stop an operator half way (docs/runtime-surface.md). System parameters
// are kept: npusim is deterministic whatever ACL_OPT_DETERMINISTIC says.
#include <map>

#include "acl/acl.h"
#include "runtime/runtime.h"
#include "runtime/runtime_settings.h"

using npusim::rt::ApiCall;

namespace {

struct Settings {
  uint64_t opExecuteTimeoutMs = 0;  // 0: the device default (none)
  uint32_t opWaitTimeoutS = 0;
  std::map<int, int64_t> process;  // aclSysParamOpt -> value
  std::map<const npusim::rt::Context*, std::map<int, int64_t>> contexts;
};

Settings& settings() {
  static auto* s = new Settings();  // read until the process ends
  return *s;
}

aclError checkOpt(ApiCall& api, aclSysParamOpt opt, int64_t value) {
  const int64_t max = opt == ACL_OPT_DETERMINISTIC ? 2 : 1;  // 2: strong consistency
  if (opt < ACL_OPT_DETERMINISTIC || opt > ACL_OPT_ENABLE_KERNEL_EARLY_START)
    return api.fail(ACL_ERROR_INVALID_PARAM, "opt {} is not an aclSysParamOpt", static_cast<int>(opt));
  if (value < 0 || value > max)
    return api.fail(ACL_ERROR_INVALID_PARAM, "value {} of option {} is outside 0..{}", value,
                    static_cast<int>(opt), max);
  return ACL_SUCCESS;
}

aclError setTimeoutMs(const char* name, uint64_t ms, uint64_t* actual) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  settings().opExecuteTimeoutMs = ms;
  if (actual) *actual = ms;  // kept at millisecond resolution, as asked
  api.args.add("timeout_ms", ms);
  return api.done();
}

}  // namespace

npusim::Tick npusim::rt::opWaitTimeout() {
  // Seconds to ticks, saturating: a timeout beyond what ticks can hold never expires.
  using npusim::kMs;
  using npusim::kTickMax;
  const npusim::Tick s = settings().opWaitTimeoutS;
  return s > kTickMax / (1000 * kMs) ? 0 : s * 1000 * kMs;
}

extern "C" {

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) {
  return setTimeoutMs("aclrtSetOpExecuteTimeOut", static_cast<uint64_t>(timeout) * 1000, nullptr);
}

aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t* actualTimeout) {
  if (!actualTimeout) {
    ApiCall api("aclrtSetOpExecuteTimeOutV2");
    return api.fail(ACL_ERROR_INVALID_PARAM, "actualTimeout is NULL");
  }
  return setTimeoutMs("aclrtSetOpExecuteTimeOutV2", timeout, actualTimeout);
}

aclError aclrtGetOpExecuteTimeout(uint32_t* const timeoutMs) {
  ApiCall api("aclrtGetOpExecuteTimeout");
  if (!api.ok()) return api.notReady();
  if (!timeoutMs) return api.fail(ACL_ERROR_INVALID_PARAM, "timeoutMs is NULL");
  *timeoutMs = static_cast<uint32_t>(settings().opExecuteTimeoutMs);
  return api.done();
}

aclError aclrtGetOpTimeOutInterval(uint64_t* interval) {
  ApiCall api("aclrtGetOpTimeOutInterval");
  if (!api.ok()) return api.notReady();
  if (!interval) return api.fail(ACL_ERROR_INVALID_PARAM, "interval is NULL");
  *interval = 1;  // timeouts are kept to the millisecond
  return api.done();
}

aclError aclrtSetOpWaitTimeout(uint32_t timeout) {
  ApiCall api("aclrtSetOpWaitTimeout");
  if (!api.ok()) return api.notReady();
  settings().opWaitTimeoutS = timeout;
  return api.done();
}

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  ApiCall api("aclrtSetSysParamOpt");
  if (!api.ok()) return api.notReady();
  if (aclError e = checkOpt(api, opt, value)) return e;
  settings().process[opt] = value;
  return api.done();
}

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
  ApiCall api("aclrtGetSysParamOpt");
  if (!api.ok()) return api.notReady();
  if (!value) return api.fail(ACL_ERROR_INVALID_PARAM, "value is NULL");
  if (aclError e = checkOpt(api, opt, 0)) return e;
  auto it = settings().process.find(opt);
  *value = it == settings().process.end() ? 0 : it->second;
  return api.done();
}

// A context's own value wins over the process-wide one.
aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  ApiCall api("aclrtCtxSetSysParamOpt");
  if (!api.ok()) return api.notReady();
  aclError err;
  npusim::rt::Context* ctx = api.context(&err);
  if (!ctx) return err;
  if (aclError e = checkOpt(api, opt, value)) return e;
  settings().contexts[ctx][opt] = value;
  return api.done();
}

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
  ApiCall api("aclrtCtxGetSysParamOpt");
  if (!api.ok()) return api.notReady();
  if (!value) return api.fail(ACL_ERROR_INVALID_PARAM, "value is NULL");
  aclError err;
  npusim::rt::Context* ctx = api.context(&err);
  if (!ctx) return err;
  if (aclError e = checkOpt(api, opt, 0)) return e;
  const auto& own = settings().contexts[ctx];
  auto it = own.find(opt);
  if (it != own.end()) {
    *value = it->second;
  } else {
    auto p = settings().process.find(opt);
    *value = p == settings().process.end() ? 0 : p->second;
  }
  return api.done();
}

}  // extern "C"
