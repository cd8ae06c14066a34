// Dump (libascend_dump): aclmdlInitDump/SetDump/FinalizeDump, aclInit's "dump" section,
// aclopStartDumpArgs, acldumpRegCallback, acldumpGetPath, acldumpSaveExceptionInfo.
//
// npusim writes real files. With data dump on (dump_op_switch "on" or a dump_list), every operator the
// device completes writes its output bytes (the memory its tiles wrote) to
//   <dump_path>/npusim_dump/<device>/<operator>.<task id>.bin
// or, with a callback registered, hands the same bytes to the callback as one chunk instead. With
// args dump on, every operator writes its arguments to <path>/npusim_args/<device>/<operator>.<task id>.txt.
// With a dump_scene, acldumpSaveExceptionInfo writes under CANN's exception directory,
// <dump_path>/extra-info/data-dump/<device>/<fileName>.custom.<time stamp>.
// The real dump format (protobuf headers) is not reproduced: the files hold the raw data.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "models/sched/hw_stream.h"
#include "models/sched/task.h"
#include "runtime/dump.h"
#include "runtime/errors.h"
#include "runtime/objects.h"
#include "runtime/op_launch.h"
#include "runtime/runtime.h"

namespace npusim::rt::dump {

namespace {

using DumpCallback = int32_t (*)(const acldumpChunk*, int32_t);

struct State {
  bool modelDumpInitialised = false;
  std::string dataPath;       // DATA_DUMP: set when data dump is on
  std::string exceptionPath;  // AIC_ERR_*_DUMP: set by a dump_scene
  acldumpType exceptionKind = AIC_ERR_BRIEF_DUMP;
  std::string overflowPath;  // OVERFLOW_DUMP: dump_debug "on"
  std::string argsPath;      // aclopStartDumpArgs
  DumpCallback callback = nullptr;
};

State& state() {
  static auto* s = new State;  // never destroyed: used until the process ends
  return *s;
}

std::string absolute(const std::string& p) {
  if (!p.empty() && p[0] == '/') return p;
  char cwd[PATH_MAX];
  std::string base = getcwd(cwd, sizeof cwd) ? cwd : ".";
  return p.empty() || p == "." || p == "./" ? base : base + "/" + p;
}

bool makeDirs(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  return !ec;
}

// CANN's exception dump directory of a device: <dump_path>/extra-info/data-dump/<device>/ (acl_dump.h,
// acldumpGetExceptionInfoPath; hicann/runtime src/dfx/adump/adump/exception/exception_dumper.cpp).
std::string exceptionDir(int device) {
  return state().exceptionPath + "/extra-info/data-dump/" + std::to_string(device) + "/";
}

bool hasParentSegment(const std::string& path) {
  for (size_t start = 0; start <= path.size();) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    if (path.compare(start, end - start, "..") == 0) return true;
    start = end + 1;
  }
  return false;
}

// CANN stamps a saved exception file with the local wall time in ms (YYYYMMDDhhmmss then mmm). npusim
// uses the calling thread's simulated time, counted from the Unix epoch in UTC, so reruns name it alike.
std::string simulatedStamp(Tick ps) {
  const uint64_t ms = ps / 1000000000ull;
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm t{};
  gmtime_r(&secs, &t);
  char buf[32];
  std::size_t n = std::strftime(buf, sizeof buf, "%Y%m%d%H%M%S", &t);
  std::snprintf(buf + n, sizeof buf - n, "%03u", static_cast<unsigned>(ms % 1000));
  return buf;
}

// Writes one dump file, or hands it to the registered callback as a single last chunk.
void emit(const std::string& dir, const std::string& name, const void* data, size_t bytes) {
  std::string file = dir + "/" + name;
  State& s = state();
  if (s.callback) {
    std::vector<unsigned char> buf(sizeof(acldumpChunk) + bytes);
    auto* chunk = reinterpret_cast<acldumpChunk*>(buf.data());
    std::strncpy(chunk->fileName, file.c_str(), ACL_DUMP_MAX_FILE_PATH_LENGTH - 1);
    chunk->bufLen = static_cast<uint32_t>(bytes);
    chunk->isLastChunk = 1;
    chunk->offset = 0;
    if (bytes) std::memcpy(chunk->dataBuf, data, bytes);  // dataBuf may start inside the struct's padding
    s.callback(chunk, static_cast<int32_t>(buf.size()));
    return;
  }
  if (!makeDirs(dir)) {
    std::fprintf(stderr, "npusim: dump: cannot create %s\n", dir.c_str());
    return;
  }
  std::ofstream out(file, std::ios::binary);
  if (out) out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  if (!out) std::fprintf(stderr, "npusim: dump: cannot write %s\n", file.c_str());
}

}  // namespace

aclError applyConfig(const std::string& jsonText, std::string* why) {
  if (jsonText.empty()) return ACL_SUCCESS;
  nlohmann::json cfg = nlohmann::json::parse(jsonText, nullptr, false);
  if (cfg.is_discarded() || !cfg.is_object()) {
    *why = "not a JSON object";
    return ACL_ERROR_INVALID_DUMP_CONFIG;
  }
  if (!cfg.contains("dump")) return ACL_SUCCESS;
  const auto& d = cfg["dump"];
  if (!d.is_object() || !d.contains("dump_path") || !d["dump_path"].is_string()) {
    *why = "the \"dump\" section needs a string \"dump_path\"";
    return ACL_ERROR_INVALID_DUMP_CONFIG;
  }
  std::string path = absolute(d["dump_path"].get<std::string>());
  State& s = state();
  bool data = (d.contains("dump_op_switch") && d["dump_op_switch"] == "on") ||
              (d.contains("dump_list") && d["dump_list"].is_array() && !d["dump_list"].empty());
  if (d.contains("dump_scene")) {
    std::string scene = d["dump_scene"].is_string() ? d["dump_scene"].get<std::string>() : "";
    if (scene == "aic_err_brief_dump")
      s.exceptionKind = AIC_ERR_BRIEF_DUMP;
    else if (scene == "aic_err_norm_dump")
      s.exceptionKind = AIC_ERR_NORM_DUMP;
    else if (scene == "aic_err_detail_dump")
      s.exceptionKind = AIC_ERR_DETAIL_DUMP;
    else if (scene == "lite_exception")
      s.exceptionKind = AIC_ERR_BRIEF_DUMP;
    else {
      *why = "unknown dump_scene '" + scene + "'";
      return ACL_ERROR_INVALID_DUMP_CONFIG;
    }
    s.exceptionPath = path;
  }
  if (d.contains("dump_debug") && d["dump_debug"] == "on") s.overflowPath = path;
  if (data) s.dataPath = path;
  return ACL_SUCCESS;
}

void taskCompleted(const sched::Task& t) {
  State& s = state();
  if (t.kind != sched::TaskKind::Operator || !t.op || (s.dataPath.empty() && s.argsPath.empty())) return;
  const OpLaunch& op = *t.op;
  std::string base = op.name + "." + std::to_string(t.id);
  int device = t.stream ? t.stream->device : 0;
  if (!s.argsPath.empty()) {
    std::string text = op.name + "(" + op.argsSummary + ")\n";
    emit(s.argsPath + "/npusim_args/" + std::to_string(device), base + ".txt", text.data(), text.size());
  }
  if (!s.dataPath.empty()) {
    // The output: the span of device memory the operator's tiles wrote.
    uint64_t lo = UINT64_MAX, hi = 0;
    for (const auto& tile : op.work.tiles)
      if (tile.writeBytes) {
        lo = std::min(lo, tile.writeAddr);
        hi = std::max(hi, tile.writeAddr + tile.writeBytes);
      }
    const void* data = lo < hi ? deviceBacking(reinterpret_cast<const void*>(lo), hi - lo) : nullptr;
    emit(s.dataPath + "/npusim_dump/" + std::to_string(device), base + ".bin", data, data ? hi - lo : 0);
  }
}

}  // namespace npusim::rt::dump

using npusim::rt::ApiCall;
using namespace npusim::rt::dump;

extern "C" {

aclError aclmdlInitDump() {
  ApiCall api("aclmdlInitDump");
  if (!api.ok()) return api.notReady();
  if (state().modelDumpInitialised)
    return api.fail(ACL_ERROR_DUMP_ALREADY_RUN, "aclmdlInitDump was already called");
  state().modelDumpInitialised = true;
  return api.done();
}

aclError aclmdlSetDump(const char* dumpCfgPath) {
  ApiCall api("aclmdlSetDump");
  if (!api.ok()) return api.notReady();
  if (!dumpCfgPath) return api.fail(ACL_ERROR_INVALID_PARAM, "dumpCfgPath is NULL");
  if (!state().modelDumpInitialised) return api.fail(ACL_ERROR_DUMP_NOT_RUN, "call aclmdlInitDump first");
  std::ifstream in(dumpCfgPath);
  if (!in) return api.fail(ACL_ERROR_INVALID_FILE, "cannot open '{}'", dumpCfgPath);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string why;
  if (aclError e = applyConfig(text, &why)) return api.fail(e, "{}: {}", dumpCfgPath, why);
  return api.done();
}

aclError aclmdlFinalizeDump() {
  ApiCall api("aclmdlFinalizeDump");
  if (!api.ok()) return api.notReady();
  if (!state().modelDumpInitialised) return api.fail(ACL_ERROR_DUMP_NOT_RUN, "aclmdlInitDump was not called");
  state().modelDumpInitialised = false;
  state().dataPath.clear();
  return api.done();
}

aclError aclopStartDumpArgs(uint32_t dumpType, const char* path) {
  ApiCall api("aclopStartDumpArgs");
  if (!api.ok()) return api.notReady();
  if (dumpType != ACL_OP_DUMP_OP_AICORE_ARGS || !path)
    return api.fail(ACL_ERROR_INVALID_PARAM, "dumpType must be ACL_OP_DUMP_OP_AICORE_ARGS and path non-NULL");
  state().argsPath = absolute(path);
  return api.done();
}

aclError aclopStopDumpArgs(uint32_t dumpType) {
  ApiCall api("aclopStopDumpArgs");
  if (!api.ok()) return api.notReady();
  if (dumpType != ACL_OP_DUMP_OP_AICORE_ARGS)
    return api.fail(ACL_ERROR_INVALID_PARAM, "dumpType must be ACL_OP_DUMP_OP_AICORE_ARGS");
  if (state().argsPath.empty()) return api.fail(ACL_ERROR_DUMP_NOT_RUN, "aclopStartDumpArgs was not called");
  state().argsPath.clear();
  return api.done();
}

aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk*, int32_t), int32_t flag) {
  ApiCall api("acldumpRegCallback");
  if (!api.ok()) return api.notReady();
  if (!messageCallback) return api.fail(ACL_ERROR_INVALID_PARAM, "messageCallback is NULL");
  state().callback = messageCallback;
  return api.done();
}

void acldumpUnregCallback() {
  ApiCall api("acldumpUnregCallback");
  state().callback = nullptr;
}

const char* acldumpGetPath(acldumpType dumpType) {
  ApiCall api("acldumpGetPath");
  State& s = state();
  const std::string* p = dumpType == DATA_DUMP         ? &s.dataPath
                         : dumpType == OVERFLOW_DUMP   ? &s.overflowPath
                         : dumpType == s.exceptionKind ? &s.exceptionPath
                                                       : nullptr;
  return p && !p->empty() ? p->c_str() : nullptr;
}

aclError acldumpGetExceptionInfoPath(char* path, size_t maxLen) {
  ApiCall api("acldumpGetExceptionInfoPath");
  if (!api.ok()) return api.notReady();
  if (!path || maxLen == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "path is NULL or maxLen is 0");
  if (state().exceptionPath.empty())
    return api.fail(ACL_ERROR_DUMP_NOT_RUN,
                    "exception dump is not enabled (dump_scene in the aclInit configuration)");
  auto* ctx = api.rt.currentContext();
  std::string dir = exceptionDir(ctx ? ctx->device : 0);
  if (dir.size() + 1 > maxLen)
    return api.fail(ACL_ERROR_INVALID_PARAM, "maxLen {} is shorter than the path ({} bytes)", maxLen,
                    dir.size() + 1);
  if (!makeDirs(dir))
    return api.fail(ACL_ERROR_FAILURE, "cannot create the exception dump directory {}", dir);
  std::strcpy(path, dir.c_str());
  return api.done();
}

aclError acldumpSaveExceptionInfo(const char* fileName, const char* userTag, const acldumpTensorInfo* tensors,
                                  size_t tensorCount) {
  ApiCall api("acldumpSaveExceptionInfo");
  if (!api.ok()) return api.notReady();
  if (!fileName || !*fileName || hasParentSegment(fileName) || (tensorCount && !tensors))
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "fileName must be a non-empty path without '..' segments and tensors non-NULL");
  char dir[ACL_DUMP_MAX_FILE_PATH_LENGTH];
  if (aclError e = acldumpGetExceptionInfoPath(dir, sizeof dir))
    return api.fail(e, "exception dump is not enabled");
  // fileName is relative to the exception directory (leading '/' dropped, as CANN does); the file is
  // <fileName>.custom.<time stamp> in the sub-directories it names.
  std::string file = dir + std::string(fileName).substr(std::strspn(fileName, "/"));
  if (file.back() == '/')
    return api.fail(ACL_ERROR_INVALID_PARAM, "fileName '{}' names a directory", fileName);
  file += ".custom." + simulatedStamp(api.th->clock);
  size_t slash = file.rfind('/');
  // A JSON description of the tensors, then each tensor's bytes (raw addresses only; others are described).
  nlohmann::json desc = {{"user_tag", userTag ? userTag : ""}, {"tensors", nlohmann::json::array()}};
  std::string data;
  for (size_t i = 0; i < tensorCount; ++i) {
    const acldumpTensorInfo& t = tensors[i];
    const void* bytes = nullptr;
    if (t.addrType == ACL_DUMP_ADDR_RAW && t.tensorAddr)
      bytes = t.placement == ACL_DUMP_PLACEMENT_HOST ? t.tensorAddr
                                                     : npusim::rt::deviceBacking(t.tensorAddr, t.tensorSize);
    std::vector<uint64_t> shape(t.shape, t.shape + std::min<uint32_t>(t.shapeNum, ACL_DUMP_MAX_SHAPE_NUM));
    desc["tensors"].push_back({{"type", static_cast<int>(t.type)},
                               {"size", t.tensorSize},
                               {"data_type", t.dataType},
                               {"format", t.format},
                               {"shape", shape},
                               {"data_offset", bytes ? static_cast<int64_t>(data.size()) : -1}});
    if (bytes) data.append(static_cast<const char*>(bytes), t.tensorSize);
  }
  std::string text = desc.dump() + "\n" + data;
  emit(file.substr(0, slash), file.substr(slash + 1), text.data(), text.size());
  return api.done();
}

}  // extern "C"
