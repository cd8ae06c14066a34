// Profiling: aclprof* (libmsprofiler), mstx* (libms_tools_ext) and the one profapi call the samples use.
// npusim's trace is the profiler's output: marks are instants and ranges are slices on the calling
// thread's host track, at simulated host time. A model subscription receives one fixed-size record per
// operator the device completes while it is active, with the operator's simulated start and end.
// aclprofInit's result directory receives a summary (npusim_prof.json) at aclprofFinalize.
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "models/sched/hw_stream.h"
#include "models/sched/task.h"
#include "mstx/ms_tools_ext.h"
#include "profiling/aprof_pub.h"
#include "runtime/errors.h"
#include "runtime/prof.h"
#include "runtime/runtime.h"
#include "runtime/sync_objects.h"

struct aclprofConfig {
  std::vector<uint32_t> devices;
  uint64_t dataTypes = 0;
};
struct aclprofSubscribeConfig {
  int8_t timeInfo = 0;
  int fd = -1;
};
struct aclprofStepInfo {
  uint64_t start = 0, end = 0;  // simulated ns
};
struct mstxDomainRegistration_st {
  std::string name;
};

namespace npusim::rt::prof {

namespace {

using nlohmann::json;

struct Stamp {
  std::string message;
};

struct OpenRange {
  std::string name, category;
  trace::Track track;
  Tick start;
};

// One operator as a subscriber reads it from its pipe (aclprofGetOpDescSize bytes).
struct OpRecord {
  uint32_t magic;
  uint32_t modelId;
  uint64_t startNs, endNs;
  char opType[ACL_PROF_MAX_OP_TYPE_LEN];
  char opName[ACL_PROF_MAX_OP_NAME_LEN];
};
constexpr uint32_t kRecordMagic = 0x4e505052;  // "NPPR"

struct State {
  bool initialised = false;
  std::string resultPath;
  const aclprofConfig* running = nullptr;
  std::set<const aclprofConfig*> configs;
  std::set<const aclprofSubscribeConfig*> subscribeConfigs;
  std::map<uint32_t, aclprofSubscribeConfig> subscriptions;  // model id -> copy of its config
  std::map<uint32_t, uint32_t> modelDevice;                  // MsprofSetDeviceIdByGeModelIdx
  std::map<uint64_t, std::string> hashed;                    // MsprofGetHashId / MsprofStr2Id
  std::set<const void*> stamps;
  std::set<const mstxDomainRegistration_st*> domains;
  std::map<uint64_t, OpenRange> ranges;  // aclprof and mstx range ids share one counter
  uint64_t nextRange = 0;
  std::map<int, std::vector<OpenRange>> pushed;  // host thread index -> aclprofPush stack
  json marks = json::array();                    // for the summary file
  json finishedRanges = json::array();
};

State& state() {
  static auto* s = new State;  // never destroyed: read until the process ends
  return *s;
}

double us(Tick t) { return static_cast<double>(t) / 1.0e6; }

void mark(ApiCall& api, const std::string& name, const char* category) {
  api.args.add("message", name);
  auto& tw = api.rt.trace();
  if (tw.wants(trace::Level::Api)) tw.instant(api.th->track, name, category, api.th->clock);
  state().marks.push_back({{"name", name}, {"category", category}, {"time_us", us(api.th->clock)}});
}

uint64_t openRange(ApiCall& api, const std::string& name, const char* category) {
  uint64_t id = ++state().nextRange;
  state().ranges[id] = {name, category, api.th->track, api.th->clock};
  return id;
}

void closeRange(ApiCall& api, const OpenRange& r) {
  auto& tw = api.rt.trace();
  if (tw.wants(trace::Level::Api)) tw.slice(r.track, r.name, r.category, r.start, api.th->clock - r.start);
  state().finishedRanges.push_back(
      {{"name", r.name}, {"category", r.category}, {"start_us", us(r.start)}, {"end_us", us(api.th->clock)}});
}

std::string stampMessage(const void* stamp) { return static_cast<const Stamp*>(stamp)->message; }

const OpRecord* record(const void* info, size_t len, uint32_t index) {
  if (!info || len % sizeof(OpRecord) != 0 || index >= len / sizeof(OpRecord)) return nullptr;
  const auto* r = static_cast<const OpRecord*>(info) + index;
  return r->magic == kRecordMagic ? r : nullptr;
}

aclError copyText(const char* api, const char* text, char* out, size_t outLen) {
  if (!out || std::strlen(text) + 1 > outLen)
    return setRecentError(api, "output buffer is NULL or shorter than the length reported",
                          ACL_ERROR_INVALID_PARAM);
  std::strcpy(out, text);
  return ACL_SUCCESS;
}

void writeSummary() {
  State& s = state();
  if (s.resultPath.empty()) return;
  std::ofstream out(s.resultPath + "/npusim_prof.json");
  if (!out) return;
  out << json{{"marks", s.marks}, {"ranges", s.finishedRanges}}.dump(2) << "\n";
}

}  // namespace

void taskCompleted(const sched::Task& t) {
  State& s = state();
  if (s.subscriptions.empty() || t.kind != sched::TaskKind::Operator) return;
  for (const auto& [model, sub] : s.subscriptions) {
    // A model bound to a device (MsprofSetDeviceIdByGeModelIdx) sees only that device's operators.
    auto bound = s.modelDevice.find(model);
    if (bound != s.modelDevice.end() && t.stream && static_cast<uint32_t>(t.stream->device) != bound->second)
      continue;
    OpRecord r{};
    r.magic = kRecordMagic;
    r.modelId = model;
    if (sub.timeInfo) {
      r.startNs = static_cast<uint64_t>(t.start / 1000);  // ticks are ps
      r.endNs = static_cast<uint64_t>(t.end / 1000);
    }
    std::string name = t.label;
    std::string type = name.rfind("aclnn", 0) == 0 ? name.substr(5) : name;
    std::strncpy(r.opName, name.c_str(), sizeof r.opName - 1);
    std::strncpy(r.opType, type.c_str(), sizeof r.opType - 1);
    // A pipe write of at most PIPE_BUF bytes is atomic: the reader never sees half a record.
    static_assert(sizeof(OpRecord) <= 4096, "records must fit PIPE_BUF");
    if (::write(sub.fd, &r, sizeof r) != static_cast<ssize_t>(sizeof r))
      std::fprintf(stderr, "npusim: aclprofModelSubscribe: cannot write to the subscriber's fd %d\n", sub.fd);
  }
}

}  // namespace npusim::rt::prof

using npusim::rt::ApiCall;
using namespace npusim::rt::prof;
using npusim::rt::setRecentError;

extern "C" {

// ---- collection --------------------------------------------------------------------------------

aclError aclprofInit(const char* profilerResultPath, size_t length) {
  ApiCall api("aclprofInit");
  if (!api.ok()) return api.notReady();
  if (!profilerResultPath || length == 0 || std::strlen(profilerResultPath) != length)
    return api.fail(ACL_ERROR_INVALID_PARAM, "profilerResultPath is NULL or length {} does not match it",
                    length);
  State& s = state();
  if (s.initialised) return api.fail(ACL_ERROR_REPEAT_INITIALIZE, "aclprofInit was already called");
  if (!s.subscriptions.empty())
    return api.fail(ACL_ERROR_PROF_API_CONFLICT, "a model subscription is active (aclprofModelSubscribe)");
  s.initialised = true;
  s.resultPath.assign(profilerResultPath, length);
  return api.done();
}

aclError aclprofFinalize() {
  ApiCall api("aclprofFinalize");
  if (!api.ok()) return api.notReady();
  State& s = state();
  if (!s.initialised) return api.fail(ACL_ERROR_UNINITIALIZE, "aclprofInit was not called");
  if (s.running) return api.fail(ACL_ERROR_PROF_ALREADY_RUN, "profiling is running: call aclprofStop first");
  writeSummary();
  s.initialised = false;
  s.resultPath.clear();
  return api.done();
}

aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums,
                                   aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents* aicoreEvents, uint64_t dataTypeConfig) {
  ApiCall api("aclprofCreateConfig");
  if (!api.ok()) return nullptr;
  if (deviceNums > 0 && !deviceIdList) {
    api.fail(ACL_ERROR_INVALID_PARAM, "deviceIdList is NULL with deviceNums {}", deviceNums);
    return nullptr;
  }
  auto cfg = std::make_unique<aclprofConfig>();
  for (uint32_t i = 0; i < deviceNums; ++i) {
    if (deviceIdList[i] >= static_cast<uint32_t>(api.rt.deviceCount())) {
      api.fail(ACL_ERROR_INVALID_DEVICE, "device {} does not exist", deviceIdList[i]);
      return nullptr;
    }
    cfg->devices.push_back(deviceIdList[i]);
  }
  cfg->dataTypes = dataTypeConfig;
  state().configs.insert(cfg.get());
  return cfg.release();
}

aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig) {
  ApiCall api("aclprofDestroyConfig");
  if (!api.ok()) return api.notReady();
  if (!state().configs.erase(profilerConfig))
    return api.fail(ACL_ERROR_INVALID_PARAM, "not a configuration from aclprofCreateConfig");
  if (state().running == profilerConfig) state().running = nullptr;
  delete profilerConfig;
  return api.done();
}

aclError aclprofStart(const aclprofConfig* profilerConfig) {
  ApiCall api("aclprofStart");
  if (!api.ok()) return api.notReady();
  State& s = state();
  if (!s.configs.count(profilerConfig))
    return api.fail(ACL_ERROR_INVALID_PARAM, "not a configuration from aclprofCreateConfig");
  if (!s.initialised) return api.fail(ACL_ERROR_UNINITIALIZE, "aclprofInit was not called");
  if (s.running) return api.fail(ACL_ERROR_PROF_ALREADY_RUN, "profiling is already running");
  s.running = profilerConfig;
  mark(api, "profiling start", "aclprof");
  return api.done();
}

aclError aclprofStop(const aclprofConfig* profilerConfig) {
  ApiCall api("aclprofStop");
  if (!api.ok()) return api.notReady();
  State& s = state();
  if (!s.configs.count(profilerConfig))
    return api.fail(ACL_ERROR_INVALID_PARAM, "not a configuration from aclprofCreateConfig");
  if (s.running != profilerConfig)
    return api.fail(ACL_ERROR_PROF_NOT_RUN, "profiling was not started with it");
  s.running = nullptr;
  mark(api, "profiling stop", "aclprof");
  return api.done();
}

aclError aclprofSetConfig(aclprofConfigType configType, const char* config, size_t configLength) {
  ApiCall api("aclprofSetConfig");
  if (!api.ok()) return api.notReady();
  if (configType <= ACL_PROF_ARGS_MIN || configType >= ACL_PROF_ARGS_MAX)
    return api.fail(ACL_ERROR_INVALID_PARAM, "unknown configType {}", static_cast<int>(configType));
  if (!config || configLength == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "config is NULL or empty");
  api.args.add("value", std::string(config, strnlen(config, configLength)));  // recorded, nothing to sample
  return api.done();
}

// ---- model subscription --------------------------------------------------------------------------

aclprofSubscribeConfig* aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
                                                     aclprofAicoreMetrics aicoreMetrics, void* fd) {
  ApiCall api("aclprofCreateSubscribeConfig");
  if (!api.ok()) return nullptr;
  if (!fd) {
    api.fail(ACL_ERROR_INVALID_PARAM, "fd is NULL (pass the address of the pipe's write end)");
    return nullptr;
  }
  auto* cfg = new aclprofSubscribeConfig{timeInfoSwitch, *static_cast<int*>(fd)};
  state().subscribeConfigs.insert(cfg);
  return cfg;
}

aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig* profSubscribeConfig) {
  ApiCall api("aclprofDestroySubscribeConfig");
  if (!api.ok()) return api.notReady();
  if (!state().subscribeConfigs.erase(profSubscribeConfig))
    return api.fail(ACL_ERROR_INVALID_PARAM, "not a configuration from aclprofCreateSubscribeConfig");
  delete profSubscribeConfig;
  return api.done();
}

aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig* profSubscribeConfig) {
  ApiCall api("aclprofModelSubscribe");
  if (!api.ok()) return api.notReady();
  State& s = state();
  if (!s.subscribeConfigs.count(profSubscribeConfig))
    return api.fail(ACL_ERROR_INVALID_PARAM, "not a configuration from aclprofCreateSubscribeConfig");
  if (s.running)
    return api.fail(ACL_ERROR_PROF_API_CONFLICT, "aclprofStart is running: subscriptions exclude it");
  if (s.subscriptions.count(modelId))
    return api.fail(ACL_ERROR_PROF_REPEAT_SUBSCRIBE, "model {} is already subscribed", modelId);
  s.subscriptions[modelId] = *profSubscribeConfig;
  return api.done();
}

aclError aclprofModelUnSubscribe(uint32_t modelId) {
  ApiCall api("aclprofModelUnSubscribe");
  if (!api.ok()) return api.notReady();
  auto it = state().subscriptions.find(modelId);
  if (it == state().subscriptions.end())
    return api.fail(ACL_ERROR_INVALID_MODEL_ID, "model {} is not subscribed", modelId);
  const int fd = it->second.fd;
  state().subscriptions.erase(it);
  // As documented for aclprofCreateSubscribeConfig: once its records are sent, the runtime closes
  // the model's pipe write end, so the subscriber's reader sees the end of the data (unless
  // another subscription still writes to the same descriptor).
  bool shared = false;
  for (const auto& [model, sub] : state().subscriptions) shared |= sub.fd == fd;
  if (!shared) ::close(fd);
  return api.done();
}

aclError aclprofGetOpDescSize(size_t* opDescSize) {
  if (!opDescSize) return setRecentError("aclprofGetOpDescSize", "opDescSize is NULL");
  *opDescSize = sizeof(OpRecord);
  return ACL_SUCCESS;
}

aclError aclprofGetOpNum(const void* opInfo, size_t opInfoLen, uint32_t* opNumber) {
  if (!opInfo || !opNumber || opInfoLen % sizeof(OpRecord) != 0)
    return setRecentError("aclprofGetOpNum", "opInfo is NULL or its length is not a whole number of records");
  *opNumber = static_cast<uint32_t>(opInfoLen / sizeof(OpRecord));
  return ACL_SUCCESS;
}

aclError aclprofGetOpTypeLen(const void* opInfo, size_t opInfoLen, uint32_t index, size_t* opTypeLen) {
  const OpRecord* r = record(opInfo, opInfoLen, index);
  if (!r || !opTypeLen) return setRecentError("aclprofGetOpTypeLen", "bad opInfo, index or opTypeLen");
  *opTypeLen = std::strlen(r->opType) + 1;
  return ACL_SUCCESS;
}

aclError aclprofGetOpType(const void* opInfo, size_t opInfoLen, uint32_t index, char* opType,
                          size_t opTypeLen) {
  const OpRecord* r = record(opInfo, opInfoLen, index);
  if (!r) return setRecentError("aclprofGetOpType", "bad opInfo or index");
  return copyText("aclprofGetOpType", r->opType, opType, opTypeLen);
}

aclError aclprofGetOpNameLen(const void* opInfo, size_t opInfoLen, uint32_t index, size_t* opNameLen) {
  const OpRecord* r = record(opInfo, opInfoLen, index);
  if (!r || !opNameLen) return setRecentError("aclprofGetOpNameLen", "bad opInfo, index or opNameLen");
  *opNameLen = std::strlen(r->opName) + 1;
  return ACL_SUCCESS;
}

aclError aclprofGetOpName(const void* opInfo, size_t opInfoLen, uint32_t index, char* opName,
                          size_t opNameLen) {
  const OpRecord* r = record(opInfo, opInfoLen, index);
  if (!r) return setRecentError("aclprofGetOpName", "bad opInfo or index");
  return copyText("aclprofGetOpName", r->opName, opName, opNameLen);
}

uint64_t aclprofGetOpStart(const void* opInfo, size_t opInfoLen, uint32_t index) {
  const OpRecord* r = record(opInfo, opInfoLen, index);
  return r ? r->startNs : 0;
}

uint64_t aclprofGetOpEnd(const void* opInfo, size_t opInfoLen, uint32_t index) {
  const OpRecord* r = record(opInfo, opInfoLen, index);
  return r ? r->endNs : 0;
}

uint64_t aclprofGetOpDuration(const void* opInfo, size_t opInfoLen, uint32_t index) {
  const OpRecord* r = record(opInfo, opInfoLen, index);
  return r ? r->endNs - r->startNs : 0;
}

size_t aclprofGetModelId(const void* opInfo, size_t opInfoLen, uint32_t index) {
  const OpRecord* r = record(opInfo, opInfoLen, index);
  return r ? r->modelId : static_cast<size_t>(-1);
}

aclprofSubscribeOpFlag aclprofGetOpFlag(const void* opInfo, size_t opInfoLen, uint32_t index) {
  return record(opInfo, opInfoLen, index) ? ACL_SUBSCRIBE_OP : ACL_SUBSCRIBE_NONE;
}

const char* aclprofGetOpAttriValue(const void*, size_t, uint32_t, aclprofSubscribeOpAttri) {
  setRecentError("aclprofGetOpAttriValue", "no operator attributes are recorded",
                 ACL_ERROR_FEATURE_UNSUPPORTED);
  return nullptr;
}

// ---- steps, stamps, marks, ranges ------------------------------------------------------------------

aclprofStepInfo* aclprofCreateStepInfo() { return new aclprofStepInfo; }
void aclprofDestroyStepInfo(aclprofStepInfo* stepinfo) { delete stepinfo; }

aclError aclprofGetStepTimestamp(aclprofStepInfo* stepInfo, aclprofStepTag tag, aclrtStream stream) {
  ApiCall api("aclprofGetStepTimestamp");
  if (!api.ok()) return api.notReady();
  if (!stepInfo || (tag != ACL_STEP_START && tag != ACL_STEP_END))
    return api.fail(ACL_ERROR_INVALID_PARAM, "stepInfo is NULL or tag is not ACL_STEP_START/END");
  aclError err = ACL_SUCCESS;
  if (!api.stream(stream, &err)) return err;
  uint64_t ns = static_cast<uint64_t>(api.th->clock / 1000);
  (tag == ACL_STEP_START ? stepInfo->start : stepInfo->end) = ns;
  mark(api, tag == ACL_STEP_START ? "step start" : "step end", "aclprof");
  return api.done();
}

void* aclprofCreateStamp() {
  auto* s = new Stamp;
  ApiCall api("aclprofCreateStamp");
  state().stamps.insert(s);
  return s;
}

void aclprofDestroyStamp(void* stamp) {
  ApiCall api("aclprofDestroyStamp");
  if (state().stamps.erase(stamp)) delete static_cast<Stamp*>(stamp);
}

aclError aclprofSetStampTraceMessage(void* stamp, const char* msg, uint32_t msgLen) {
  ApiCall api("aclprofSetStampTraceMessage");
  if (!api.ok()) return api.notReady();
  if (!state().stamps.count(stamp))
    return api.fail(ACL_ERROR_INVALID_PARAM, "not a stamp from aclprofCreateStamp");
  if (!msg || msgLen == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "msg is NULL or empty");
  static_cast<Stamp*>(stamp)->message.assign(msg, strnlen(msg, msgLen));
  return api.done();
}

aclError aclprofMark(void* stamp) {
  ApiCall api("aclprofMark");
  if (!api.ok()) return api.notReady();
  if (!state().stamps.count(stamp))
    return api.fail(ACL_ERROR_INVALID_PARAM, "not a stamp from aclprofCreateStamp");
  mark(api, stampMessage(stamp), "msproftx");
  return api.done();
}

aclError aclprofMarkEx(const char* msg, size_t msgLen, aclrtStream stream) {
  ApiCall api("aclprofMarkEx");
  if (!api.ok()) return api.notReady();
  if (!msg || msgLen == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "msg is NULL or empty");
  aclError err = ACL_SUCCESS;
  if (!api.stream(stream, &err)) return err;
  mark(api, std::string(msg, strnlen(msg, msgLen)), "msproftx");
  return api.done();
}

aclError aclprofPush(void* stamp) {
  ApiCall api("aclprofPush");
  if (!api.ok()) return api.notReady();
  if (!state().stamps.count(stamp))
    return api.fail(ACL_ERROR_INVALID_PARAM, "not a stamp from aclprofCreateStamp");
  state().pushed[api.th->index].push_back({stampMessage(stamp), "msproftx", api.th->track, api.th->clock});
  return api.done();
}

aclError aclprofPop() {
  ApiCall api("aclprofPop");
  if (!api.ok()) return api.notReady();
  auto& stack = state().pushed[api.th->index];
  if (stack.empty()) return api.fail(ACL_ERROR_INVALID_PARAM, "no aclprofPush is open on this thread");
  closeRange(api, stack.back());
  stack.pop_back();
  return api.done();
}

aclError aclprofRangeStart(void* stamp, uint32_t* rangeId) {
  ApiCall api("aclprofRangeStart");
  if (!api.ok()) return api.notReady();
  if (!state().stamps.count(stamp) || !rangeId)
    return api.fail(ACL_ERROR_INVALID_PARAM, "not a stamp from aclprofCreateStamp, or rangeId is NULL");
  *rangeId = static_cast<uint32_t>(openRange(api, stampMessage(stamp), "msproftx"));
  return api.done();
}

aclError aclprofRangeStop(uint32_t rangeId) {
  ApiCall api("aclprofRangeStop");
  if (!api.ok()) return api.notReady();
  auto it = state().ranges.find(rangeId);
  if (it == state().ranges.end()) return api.fail(ACL_ERROR_INVALID_PARAM, "range {} is not open", rangeId);
  closeRange(api, it->second);
  state().ranges.erase(it);
  return api.done();
}

uint64_t aclprofStr2Id(const char* message) {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a: a stable id per string
  for (const char* p = message ? message : ""; *p; ++p)
    h = (h ^ static_cast<unsigned char>(*p)) * 1099511628211ULL;
  return h;
}

aclError aclprofRangePushEx(aclprofEventAttributes* attr) {
  ApiCall api("aclprofRangePushEx");
  if (!api.ok()) return api.notReady();
  if (!attr) return api.fail(ACL_ERROR_INVALID_PARAM, "attr is NULL");
  state().pushed[api.th->index].push_back({"tensor info", "msproftx", api.th->track, api.th->clock});
  return api.done();
}

aclError aclprofRangePop() {
  ApiCall api("aclprofRangePop");
  if (!api.ok()) return api.notReady();
  auto& stack = state().pushed[api.th->index];
  if (stack.empty()) return api.fail(ACL_ERROR_INVALID_PARAM, "no aclprofRangePushEx is open on this thread");
  closeRange(api, stack.back());
  stack.pop_back();
  return api.done();
}

// ---- mstx ------------------------------------------------------------------------------------------

void mstxMarkA(const char* message, aclrtStream) {
  ApiCall api("mstxMarkA");
  if (api.ok() && message) mark(api, message, "mstx");
}

mstxRangeId mstxRangeStartA(const char* message, aclrtStream) {
  ApiCall api("mstxRangeStartA");
  if (!api.ok() || !message) return MSTX_INVALID_ID;
  return openRange(api, message, "mstx");
}

void mstxRangeEnd(mstxRangeId id) {
  ApiCall api("mstxRangeEnd");
  if (!api.ok()) return;
  auto it = state().ranges.find(id);
  if (it == state().ranges.end()) return;
  closeRange(api, it->second);
  state().ranges.erase(it);
}

mstxDomainHandle_t mstxDomainCreateA(const char* name) {
  ApiCall api("mstxDomainCreateA");
  if (!api.ok() || !name) return nullptr;
  auto* d = new mstxDomainRegistration_st{name};
  state().domains.insert(d);
  return d;
}

void mstxDomainDestroy(mstxDomainHandle_t domain) {
  ApiCall api("mstxDomainDestroy");
  if (state().domains.erase(domain)) delete domain;
}

void mstxDomainMarkA(mstxDomainHandle_t domain, const char* message, aclrtStream) {
  ApiCall api("mstxDomainMarkA");
  if (api.ok() && message && state().domains.count(domain)) mark(api, domain->name + ": " + message, "mstx");
}

mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char* message, aclrtStream) {
  ApiCall api("mstxDomainRangeStartA");
  if (!api.ok() || !message || !state().domains.count(domain)) return MSTX_INVALID_ID;
  return openRange(api, domain->name + ": " + message, "mstx");
}

void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id) {
  ApiCall api("mstxDomainRangeEnd");
  if (!api.ok() || !state().domains.count(domain)) return;
  auto it = state().ranges.find(id);
  if (it == state().ranges.end()) return;
  closeRange(api, it->second);
  state().ranges.erase(it);
}

// profapi (include/profiling/aprof_pub.h). A model bound to a device receives, through its
// subscription, only the operators that device runs (without a binding: every device's).
int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId) {
  ApiCall api("MsprofSetDeviceIdByGeModelIdx");
  if (!api.ok()) return -1;
  if (deviceId >= static_cast<uint32_t>(api.rt.deviceCount())) {
    api.fail(ACL_ERROR_INVALID_DEVICE, "device {} does not exist (model {})", deviceId, geModelIdx);
    return -1;
  }
  state().modelDevice[geModelIdx] = deviceId;
  return 0;
}

int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId) {
  ApiCall api("MsprofUnsetDeviceIdByGeModelIdx");
  if (!api.ok()) return -1;
  auto it = state().modelDevice.find(geModelIdx);
  if (it == state().modelDevice.end() || it->second != deviceId) {
    api.fail(ACL_ERROR_INVALID_PARAM, "model {} is not bound to device {}", geModelIdx, deviceId);
    return -1;
  }
  state().modelDevice.erase(it);
  return 0;
}

// String ids for profiling records: the same text always gives the same id (FNV-1a, 64 bit),
// and MsprofId2Str gives the text back.
uint64_t MsprofGetHashId(const char* hashInfo, size_t length) {
  if (!hashInfo) return 0;
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < length; ++i) h = (h ^ static_cast<unsigned char>(hashInfo[i])) * 1099511628211ull;
  npusim::rt::Runtime& rt = npusim::rt::Runtime::get();
  std::lock_guard<std::recursive_mutex> lock(rt.mu);
  state().hashed.emplace(h, std::string(hashInfo, length));
  return h;
}

uint64_t MsprofStr2Id(const char* hashInfo, size_t length) { return MsprofGetHashId(hashInfo, length); }

char* MsprofId2Str(const uint64_t id) {
  npusim::rt::Runtime& rt = npusim::rt::Runtime::get();
  std::lock_guard<std::recursive_mutex> lock(rt.mu);
  auto it = state().hashed.find(id);
  return it == state().hashed.end() ? nullptr : it->second.data();
}

// The calling thread's simulated host time in ns (profiling timestamps follow simulated time).
uint64_t MsprofSysCycleTime(void) {
  ApiCall api("MsprofSysCycleTime");
  if (!api.ok()) return 0;
  return static_cast<uint64_t>(api.th->clock / 1000);  // ticks are ps
}

// Operator profiling is on while an aclprofStart collection runs (for every operator type).
bool MsprofCheckOpSwitch(uint32_t type, const char* op, size_t len) {
  (void)len;
  npusim::rt::Runtime& rt = npusim::rt::Runtime::get();
  std::lock_guard<std::recursive_mutex> lock(rt.mu);
  return type == 0 && op && state().running;
}

// A user mark in stream order: a task on the stream whose trace name carries the (up to 18) bytes.
aclError aclrtProfTrace(void* userdata, int32_t length, aclrtStream stream) {
  ApiCall api("aclrtProfTrace");
  if (!api.ok()) return api.notReady();
  if (!userdata || length <= 0 || length > 18)
    return api.fail(ACL_ERROR_INVALID_PARAM, "userdata is NULL or length {} is outside 1..18", length);
  aclError err = ACL_SUCCESS;
  npusim::rt::Stream* s = api.stream(stream, &err);
  if (!s) return err;
  uint8_t bytes[18] = {};  // shorter data is padded with zeros to 18 bytes
  std::memcpy(bytes, userdata, static_cast<size_t>(length));
  std::string label = "ProfTrace 0x";
  for (uint8_t b : bytes) label += fmt::format("{:02x}", b);
  npusim::rt::launchBuiltin(api, s, label.c_str(), [](npusim::sched::Task&) {});
  return api.done();
}

}  // extern "C"
