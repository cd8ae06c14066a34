// ACL entry points that set how the runtime behaves rather than what the device does: operator
// timeouts, system parameters (process-wide and per context) and AI-core groups.
//
// Timeouts are kept and read back; simulated operators always finish, so none ever expires
// (docs/runtime-surface.md). System parameters are kept: npusim is deterministic whatever
// ACL_OPT_DETERMINISTIC says. The device is one group (id 0) of all its cores.
#include <map>

#include "acl/acl.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;

struct tagRtGroupInfo {
  int32_t groupId = 0;
  uint32_t cube = 0, vector = 0, sdma = 0, queues = 0;
};

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

extern "C" {

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) {
  return setTimeoutMs("aclrtSetOpExecuteTimeOut", static_cast<uint64_t>(timeout) * 1000, nullptr);
}

aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout) {
  return setTimeoutMs("aclrtSetOpExecuteTimeOutWithMs", timeout, nullptr);
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

aclError aclrtGetGroupCount(uint32_t* count) {
  ApiCall api("aclrtGetGroupCount");
  if (!api.ok()) return api.notReady();
  if (!count) return api.fail(ACL_ERROR_INVALID_PARAM, "count is NULL");
  aclError err;
  if (!api.context(&err)) return err;
  *count = 1;
  return api.done();
}

aclrtGroupInfo* aclrtCreateGroupInfo() {
  ApiCall api("aclrtCreateGroupInfo");
  return new tagRtGroupInfo();
}

aclError aclrtDestroyGroupInfo(aclrtGroupInfo* groupInfo) {
  ApiCall api("aclrtDestroyGroupInfo");
  if (!groupInfo) return api.fail(ACL_ERROR_INVALID_PARAM, "groupInfo is NULL");
  delete groupInfo;
  return api.done();
}

aclError aclrtGetAllGroupInfo(aclrtGroupInfo* groupInfo) {
  ApiCall api("aclrtGetAllGroupInfo");
  if (!api.ok()) return api.notReady();
  if (!groupInfo) return api.fail(ACL_ERROR_INVALID_PARAM, "groupInfo is NULL");
  aclError err;
  npusim::rt::Context* ctx = api.context(&err);
  if (!ctx) return err;
  const auto& dev = api.rt.platform().device(ctx->device);
  groupInfo->groupId = 0;
  groupInfo->cube = static_cast<uint32_t>(dev.cores->cubeCores());
  groupInfo->vector = static_cast<uint32_t>(dev.cores->vectorCores());
  groupInfo->sdma = static_cast<uint32_t>(dev.dma->channels());
  groupInfo->queues = static_cast<uint32_t>(api.rt.costs().maxStreams);
  return api.done();
}

aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo* groupInfo, int32_t groupIndex, aclrtGroupAttr attr,
                                 void* attrValue, size_t valueLen, size_t* paramRetSize) {
  ApiCall api("aclrtGetGroupInfoDetail");
  if (!api.ok()) return api.notReady();
  if (!groupInfo || !attrValue || !paramRetSize)
    return api.fail(ACL_ERROR_INVALID_PARAM, "groupInfo, attrValue or paramRetSize is NULL");
  if (groupIndex != 0)
    return api.fail(ACL_ERROR_INVALID_PARAM, "group index {} is not 0 (one group)", groupIndex);
  if (valueLen < sizeof(int32_t))
    return api.fail(ACL_ERROR_INVALID_PARAM, "valueLen {} is below {}", valueLen, sizeof(int32_t));
  int32_t v;
  switch (attr) {
    case ACL_GROUP_AICORE_INT:
      v = static_cast<int32_t>(groupInfo->cube);
      break;
    case ACL_GROUP_AIV_INT:
      v = static_cast<int32_t>(groupInfo->vector);
      break;
    case ACL_GROUP_AIC_INT:
      v = static_cast<int32_t>(groupInfo->cube);
      break;
    case ACL_GROUP_SDMANUM_INT:
      v = static_cast<int32_t>(groupInfo->sdma);
      break;
    case ACL_GROUP_ASQNUM_INT:
      v = static_cast<int32_t>(groupInfo->queues);
      break;
    case ACL_GROUP_GROUPID_INT:
      v = groupInfo->groupId;
      break;
    default:
      return api.fail(ACL_ERROR_INVALID_PARAM, "attr {} is not an aclrtGroupAttr", static_cast<int>(attr));
  }
  *static_cast<int32_t*>(attrValue) = v;
  *paramRetSize = sizeof(int32_t);
  return api.done();
}

aclError aclrtSetGroup(int32_t groupId) {
  ApiCall api("aclrtSetGroup");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!api.context(&err)) return err;
  if (groupId != 0)
    return api.fail(ACL_ERROR_INVALID_PARAM, "group {} does not exist (the device is group 0)", groupId);
  return api.done();
}

}  // extern "C"
