// ACL entry point: the built-in random-number task (aclrtRandomNumAsync).
//
// The generator is counter based, so a task's numbers depend only on the seed and the offset in
// the task's 16-byte counter (which each task advances by randomNum): element i of a task is
// made from mix(seed, offset + i, attempt), a SplitMix64 finaliser chain. The same program gives
// the same numbers on every run, and two tasks sharing a counter never repeat each other.
// Distributions: uniform in [min, max) (integers and floating types), normal (Box-Muller), normal
// truncated to mean +/- 2 stddev (redrawn until inside), and a dropout bitmask (bit i is 1, kept,
// with probability 1 - ratio; bits fill each byte from its least significant bit).
//
// Timing: a builtin task on the stream that writes its results at the SDMA's rate
// (dma.channel_gbps); the HBM traffic of those bytes is not charged.
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "models/common/sim_time.h"
#include "npusim/config.h"
#include "runtime/aclnn/base/float_bits.h"
#include "runtime/random_task.h"
#include "runtime/runtime.h"
#include "runtime/sync_objects.h"

using npusim::rt::ApiCall;
using npusim::rt::Stream;

namespace {

uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A uniform double in [0, 1) for (seed, element, attempt).
double unit(uint64_t seed, uint64_t element, uint64_t attempt) {
  const uint64_t bits = mix(mix(seed) ^ mix(element) ^ (attempt * 0xd1b54a32d192ed03ull));
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

size_t elementSize(aclDataType t) {
  switch (t) {
    case ACL_FLOAT16:
    case ACL_BF16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
      return 4;
    case ACL_INT64:
    case ACL_UINT64:
      return 8;
    default:
      return 0;
  }
}

bool isFloating(aclDataType t) { return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16; }

// A parameter's bytes: inline, or where its device address points (read when the task runs).
struct Param {
  uint8_t inlineBytes[8] = {};
  const uint8_t* at = nullptr;  // host view of device memory, for isAddr
  size_t size = 0;
  const uint8_t* bytes() const { return at ? at : inlineBytes; }
};

// The host view of `bytes` of device memory at `p` on `device`, or nullptr.
uint8_t* deviceView(const void* p, uint64_t bytes, int device) {
  const npusim::rt::MemoryManager& mem = npusim::rt::Runtime::get().memory();
  npusim::rt::PointerInfo info = mem.classify(p);
  if (!p || info.kind != npusim::rt::PointerKind::Device || info.device != device ||
      !mem.rangeInside(info, p, bytes))
    return nullptr;
  return static_cast<uint8_t*>(mem.hostView(info, p));
}

// Resolves a parameter of `size` bytes on `device`: empty, or why it is malformed.
std::string resolve(const aclrtRandomParaInfo& in, size_t size, int device, const char* what, Param* out) {
  *out = Param{};
  out->size = size;
  if (in.isAddr > 1) return fmt::format("{}.isAddr is {} (0: a value, 1: a device address)", what, in.isAddr);
  if (!in.isAddr) {
    if (in.size != size)
      return fmt::format("{}.size is {} but the value takes {} bytes", what, in.size, size);
    std::memcpy(out->inlineBytes, in.valueOrAddr, size);
    return {};
  }
  void* addr = nullptr;
  std::memcpy(&addr, in.valueOrAddr, sizeof addr);
  out->at = deviceView(addr, size, device);
  if (!out->at)
    return fmt::format("{} points at {}, not {} bytes of device memory on device {}", what, addr, size,
                       device);
  return {};
}

// The same, failing `api` when it is malformed.
aclError param(ApiCall& api, const aclrtRandomParaInfo& in, size_t size, const Stream* s, const char* what,
               Param* out) {
  const std::string why = resolve(in, size, s->device, what, out);
  return why.empty() ? ACL_SUCCESS : api.fail(ACL_ERROR_INVALID_PARAM, "{}", why);
}

// A value of type `t` as a double (integers exactly up to 2^53, which the ranges here need).
double load(aclDataType t, const uint8_t* p) {
  switch (t) {
    case ACL_FLOAT16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      return npusim::aclnn::halfToFloat(h);
    }
    case ACL_BF16: {
      uint16_t b;
      std::memcpy(&b, p, 2);
      return npusim::aclnn::bf16ToFloat(b);
    }
    case ACL_FLOAT: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case ACL_INT32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case ACL_UINT32: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case ACL_INT64: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<double>(v);
    }
    default: {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<double>(v);
    }
  }
}

void storeFloating(aclDataType t, double v, uint8_t* p) {
  if (t == ACL_FLOAT) {
    const float f = static_cast<float>(v);
    std::memcpy(p, &f, 4);
    return;
  }
  const uint16_t h = t == ACL_FLOAT16 ? npusim::aclnn::doubleToHalf(v) : npusim::aclnn::doubleToBf16(v);
  std::memcpy(p, &h, 2);
}

uint64_t loadU64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// min + floor(u * (max - min)) for an integer type, in [min, max).
void storeInteger(aclDataType t, const uint8_t* minP, const uint8_t* maxP, double u, uint8_t* p) {
  if (t == ACL_INT64 || t == ACL_INT32) {
    const int64_t lo =
        t == ACL_INT64 ? static_cast<int64_t>(loadU64(minP)) : static_cast<int64_t>(load(t, minP));
    const int64_t hi =
        t == ACL_INT64 ? static_cast<int64_t>(loadU64(maxP)) : static_cast<int64_t>(load(t, maxP));
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    const int64_t v = lo + static_cast<int64_t>(static_cast<uint64_t>(u * static_cast<double>(span)) % span);
    if (t == ACL_INT64) {
      std::memcpy(p, &v, 8);
    } else {
      const int32_t w = static_cast<int32_t>(v);
      std::memcpy(p, &w, 4);
    }
    return;
  }
  const uint64_t lo = t == ACL_UINT64 ? loadU64(minP) : static_cast<uint64_t>(load(t, minP));
  const uint64_t hi = t == ACL_UINT64 ? loadU64(maxP) : static_cast<uint64_t>(load(t, maxP));
  const uint64_t v = lo + static_cast<uint64_t>(u * static_cast<double>(hi - lo)) % (hi - lo);
  if (t == ACL_UINT64) {
    std::memcpy(p, &v, 8);
  } else {
    const uint32_t w = static_cast<uint32_t>(v);
    std::memcpy(p, &w, 4);
  }
}

struct RandomTask {
  aclrtRandomNumFuncType func;
  aclDataType type;
  Param a, b;  // min/max, mean/stddev, or the ratio in a
  Param seed, count;
  uint8_t* result;
  uint64_t resultBytes;  // capacity checked at launch for the count known then
  uint8_t* counter;
};

// The count as the task reads it; the result range is checked against it at launch when inline.
uint64_t resultBytesFor(aclrtRandomNumFuncType f, aclDataType t, uint64_t n) {
  return f == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK ? (n + 7) / 8 : n * elementSize(t);
}

// Generates the numbers; returns the bytes written.
uint64_t generate(const RandomTask& r) {
  const uint64_t seed = loadU64(r.seed.bytes());
  const uint64_t n =
      std::min<uint64_t>(loadU64(r.count.bytes()), r.resultBytes / std::max<size_t>(1, elementSize(r.type)));
  uint64_t offset = loadU64(r.counter);
  const size_t es = elementSize(r.type);
  switch (r.func) {
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK: {
      const double ratio = load(r.type, r.a.bytes());
      const uint64_t bits = std::min<uint64_t>(loadU64(r.count.bytes()), r.resultBytes * 8);
      std::memset(r.result, 0, (bits + 7) / 8);
      for (uint64_t i = 0; i < bits; ++i)
        if (unit(seed, offset + i, 0) >= ratio) r.result[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
      offset += bits;
      std::memcpy(r.counter, &offset, 8);
      return (bits + 7) / 8;
    }
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS: {
      const double lo = load(r.type, r.a.bytes()), hi = load(r.type, r.b.bytes());
      for (uint64_t i = 0; i < n; ++i) {
        const double u = unit(seed, offset + i, 0);
        if (isFloating(r.type))
          storeFloating(r.type, lo + u * (hi - lo), r.result + i * es);
        else
          storeInteger(r.type, r.a.bytes(), r.b.bytes(), u, r.result + i * es);
      }
      break;
    }
    default: {  // normal, truncated normal
      const double mean = load(r.type, r.a.bytes()), stddev = load(r.type, r.b.bytes());
      const bool truncated = r.func == ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS;
      for (uint64_t i = 0; i < n; ++i) {
        double z = 0;
        for (uint64_t attempt = 0;; attempt += 2) {
          const double u1 = 1.0 - unit(seed, offset + i, attempt), u2 = unit(seed, offset + i, attempt + 1);
          z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
          if (!truncated || std::fabs(z) <= 2.0) break;
        }
        storeFloating(r.type, mean + stddev * z, r.result + i * es);
      }
      break;
    }
  }
  offset += n;
  std::memcpy(r.counter, &offset, 8);
  return n * es;
}

// Points `r` at the seed, count, counter and results of `in` on `device` (what a task update may
// change; the distribution stays): empty, or why they are malformed.
std::string target(const aclrtRandomNumTaskInfo& in, int device, RandomTask* r) {
  if (std::string why = resolve(in.randomSeed, 8, device, "randomSeed", &r->seed); !why.empty()) return why;
  if (std::string why = resolve(in.randomNum, 8, device, "randomNum", &r->count); !why.empty()) return why;
  r->counter = deviceView(in.randomCounterAddr, 16, device);
  if (!r->counter)
    return fmt::format("randomCounterAddr {} is not 16 bytes of device memory on device {}",
                       in.randomCounterAddr, device);
  // An inline count fixes the result's size now; a count read from the device is bounded by the
  // allocation the result lies in.
  void* out = in.randomResultAddr;
  const npusim::rt::MemoryManager& mem = npusim::rt::Runtime::get().memory();
  npusim::rt::PointerInfo info = mem.classify(out);
  if (!out || info.kind != npusim::rt::PointerKind::Device || info.device != device || !info.alloc)
    return fmt::format("randomResultAddr {} is not device memory on device {}", out, device);
  const uint64_t room = info.alloc->offset + info.alloc->requested - info.offset;
  if (!r->count.at) {
    const uint64_t need = resultBytesFor(r->func, r->type, loadU64(r->count.bytes()));
    if (need == 0) return "randomNum is 0";
    if (need > room)
      return fmt::format("{} bytes of results do not fit the {} bytes at randomResultAddr", need, room);
  }
  r->result = static_cast<uint8_t*>(mem.hostView(info, out));
  r->resultBytes = room;
  return {};
}

// The task's body on the device; its state is shared by a captured task's replays, so that a
// task update (aclrtTaskUpdateAsync) reaches the replays after it.
struct RandomBody {
  std::shared_ptr<RandomTask> task;
  double rate = 0;  // bytes per second
  void operator()(npusim::sched::Task&) const {
    const uint64_t bytes = generate(*task);
    npusim::waitUntil(npusim::simNow() + npusim::transferTicks(bytes, rate));
  }
};

}  // namespace

extern "C" aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo* taskInfo, const aclrtStream stream,
                                        void* reserve) {
  ApiCall api("aclrtRandomNumAsync");
  if (!api.ok()) return api.notReady();
  if (!taskInfo) return api.fail(ACL_ERROR_INVALID_PARAM, "taskInfo is NULL");
  if (reserve) return api.fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  RandomTask r{};
  r.func = taskInfo->randomNumFuncParaInfo.funcType;
  r.type = taskInfo->dataType;
  const auto& p = taskInfo->randomNumFuncParaInfo.paramInfo;
  const size_t es = elementSize(r.type);
  switch (r.func) {
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK:
      if (!isFloating(r.type))
        return api.fail(ACL_ERROR_INVALID_PARAM,
                        "a dropout ratio is float, float16 or bfloat16 (dataType {})",
                        static_cast<int>(r.type));
      if (aclError e = param(api, p.dropoutBitmaskInfo.dropoutRation, es, s, "dropoutRation", &r.a)) return e;
      break;
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
      if (es == 0)
        return api.fail(
            ACL_ERROR_INVALID_PARAM,
            "uniform numbers are float, float16, bfloat16, int32, int64, uint32 or uint64 (dataType {})",
            static_cast<int>(r.type));
      if (aclError e = param(api, p.uniformDisInfo.min, es, s, "min", &r.a)) return e;
      if (aclError e = param(api, p.uniformDisInfo.max, es, s, "max", &r.b)) return e;
      break;
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS:
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS:
      if (!isFloating(r.type))
        return api.fail(ACL_ERROR_INVALID_PARAM,
                        "normal numbers are float, float16 or bfloat16 (dataType {})",
                        static_cast<int>(r.type));
      if (aclError e = param(api, p.normalDisInfo.mean, es, s, "mean", &r.a)) return e;
      if (aclError e = param(api, p.normalDisInfo.stddev, es, s, "stddev", &r.b)) return e;
      break;
    default:
      return api.fail(ACL_ERROR_INVALID_PARAM, "funcType {} is not an aclrtRandomNumFuncType",
                      static_cast<int>(r.func));
  }
  if (const std::string why = target(*taskInfo, s->device, &r); !why.empty())
    return api.fail(ACL_ERROR_INVALID_PARAM, "{}", why);
  if (!r.a.at && !r.b.at && r.func == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS &&
      !(load(r.type, r.a.bytes()) < load(r.type, r.b.bytes())))
    return api.fail(ACL_ERROR_INVALID_PARAM, "uniform numbers need min < max");
  const double rate = api.rt.platform().config().getFloat("dma.channel_gbps") * 1e9;
  api.args.add("func", static_cast<int64_t>(r.func)).add("dtype", static_cast<int64_t>(r.type));
  npusim::rt::launchBuiltin(api, s, "RandomNum", RandomBody{std::make_shared<RandomTask>(r), rate});
  return api.done();
}

namespace npusim::rt {

std::function<std::string(const aclrtRandomNumTaskInfo&, int)> randomTaskUpdater(const sched::Task& t) {
  const RandomBody* body = t.run.target<RandomBody>();
  if (!body) return nullptr;
  std::shared_ptr<RandomTask> state = body->task;
  return [state](const aclrtRandomNumTaskInfo& in, int device) {
    RandomTask fresh = *state;
    std::string why = target(in, device, &fresh);
    if (why.empty()) *state = fresh;
    return why;
  };
}

}  // namespace npusim::rt
