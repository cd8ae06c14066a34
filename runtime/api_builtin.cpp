// ACL entry points: stream configuration handles (aclrtCreateStreamV2), the built-in reduce task
// (aclrtReduceAsync) and the thread's last task id.
//
// A reduce is an SDMA copy that combines instead of overwriting. It runs as three tasks in stream
// order: a builtin that keeps dst's old bytes, the device-local DMA copy src -> dst (timed on the DMA
// engine and HBM like any copy of `count` bytes), and a builtin that writes dst = old (kind) src.
#include <unistd.h>

#include <cstring>
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "runtime/copy_plan.h"
#include "runtime/host_thread.h"
#include "runtime/runtime.h"
#include "runtime/sync_objects.h"

using npusim::rt::ApiCall;
using npusim::rt::Stream;

namespace {

size_t reduceElementSize(aclDataType type) {
  switch (type) {
    case ACL_FLOAT:
    case ACL_INT32:
      return 4;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
      return 2;
    case ACL_INT8:
      return 1;
    default:
      return 0;
  }
}

float bf16ToFloat(uint16_t v) {
  uint32_t bits = static_cast<uint32_t>(v) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t floatToBf16(float f) {  // round to nearest even, as the hardware's conversion
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu))
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

template <typename T>
T combine(T a, T b, aclrtReduceKind kind) {
  switch (kind) {
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM:
      return static_cast<T>(a + b);
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX:
      return a > b ? a : b;
    default:  // MIN
      return a < b ? a : b;
  }
}

// Elements of `width` bytes, loaded as T (widened for the 16-bit floats), combined, stored back.
template <typename T, typename Load, typename Store>
void reduceAs(size_t width, uint8_t* dst, const uint8_t* old, size_t bytes, aclrtReduceKind kind, Load load,
              Store store) {
  for (size_t i = 0; i + width <= bytes; i += width)
    store(dst + i, combine(load(old + i), load(dst + i), kind));
}

template <typename T>
void reduceRaw(uint8_t* dst, const uint8_t* old, size_t bytes, aclrtReduceKind kind) {
  auto load = [](const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  };
  auto store = [](uint8_t* p, T v) { std::memcpy(p, &v, sizeof(T)); };
  reduceAs<T>(sizeof(T), dst, old, bytes, kind, load, store);
}

// dst holds src (the copy has landed); `old` holds dst's bytes before it.
void reduceBytes(uint8_t* dst, const uint8_t* old, size_t bytes, aclrtReduceKind kind, aclDataType type) {
  auto store16 = [](uint8_t* p, uint16_t v) { std::memcpy(p, &v, 2); };
  auto load16 = [](const uint8_t* p) {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
  };
  switch (type) {
    case ACL_FLOAT:
      return reduceRaw<float>(dst, old, bytes, kind);
    case ACL_INT32:
      return reduceRaw<int32_t>(dst, old, bytes, kind);
    case ACL_INT16:
      return reduceRaw<int16_t>(dst, old, bytes, kind);
    case ACL_INT8:
      return reduceRaw<int8_t>(dst, old, bytes, kind);
    case ACL_FLOAT16:
      return reduceAs<float>(
          2, dst, old, bytes, kind, [&](const uint8_t* p) { return aclFloat16ToFloat(load16(p)); },
          [&](uint8_t* p, float v) { store16(p, aclFloatToFloat16(v)); });
    default:  // ACL_BF16
      return reduceAs<float>(
          2, dst, old, bytes, kind, [&](const uint8_t* p) { return bf16ToFloat(load16(p)); },
          [&](uint8_t* p, float v) { store16(p, floatToBf16(v)); });
  }
}

}  // namespace

extern "C" {

aclrtStreamConfigHandle* aclrtCreateStreamConfigHandle(void) {
  return new aclrtStreamConfigHandle{nullptr, 0, 0, 0};
}

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle* handle) {
  ApiCall api("aclrtDestroyStreamConfigHandle");
  if (!handle) return api.fail(ACL_ERROR_INVALID_PARAM, "handle is NULL");
  delete handle;
  return ACL_SUCCESS;
}

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle* handle, aclrtStreamConfigAttr attr,
                                 const void* attrValue, size_t valueSize) {
  ApiCall api("aclrtSetStreamConfigOpt");
  if (!handle || !attrValue) return api.fail(ACL_ERROR_INVALID_PARAM, "handle or attrValue is NULL");
  auto need = [&](size_t n) { return valueSize >= n; };
  switch (attr) {
    case ACL_RT_STREAM_WORK_ADDR_PTR:
      if (!need(sizeof(void*))) break;
      std::memcpy(&handle->workptr, attrValue, sizeof(void*));
      return ACL_SUCCESS;
    case ACL_RT_STREAM_WORK_SIZE:
      if (!need(sizeof(size_t))) break;
      std::memcpy(&handle->workSize, attrValue, sizeof(size_t));
      return ACL_SUCCESS;
    case ACL_RT_STREAM_FLAG: {
      if (!need(sizeof(uint32_t))) break;
      uint32_t flag;
      std::memcpy(&flag, attrValue, sizeof(flag));
      handle->flag = flag;
      return ACL_SUCCESS;
    }
    case ACL_RT_STREAM_PRIORITY: {
      if (!need(sizeof(uint32_t))) break;
      uint32_t priority;
      std::memcpy(&priority, attrValue, sizeof(priority));
      if (priority > 7) return api.fail(ACL_ERROR_INVALID_PARAM, "priority {} is outside 0..7", priority);
      handle->priority = priority;
      return ACL_SUCCESS;
    }
    default:
      return api.fail(ACL_ERROR_INVALID_PARAM, "attr {} is not an aclrtStreamConfigAttr",
                      static_cast<int>(attr));
  }
  return api.fail(ACL_ERROR_INVALID_PARAM, "valueSize {} is too small for attr {}", valueSize,
                  static_cast<int>(attr));
}

aclError aclrtCreateStreamV2(aclrtStream* stream, const aclrtStreamConfigHandle* handle) {
  if (!handle) return aclrtCreateStream(stream);
  return aclrtCreateStreamWithConfig(stream, handle->priority, static_cast<uint32_t>(handle->flag));
}

aclError aclrtGetThreadLastTaskId(uint32_t* taskId) {
  ApiCall api("aclrtGetThreadLastTaskId");
  if (!api.ok()) return api.notReady();
  if (!taskId) return api.fail(ACL_ERROR_INVALID_PARAM, "taskId is NULL");
  *taskId = static_cast<uint32_t>(api.th->lastTaskId);
  return api.done();
}

aclError aclrtDeviceGetBareTgid(int32_t* pid) {
  ApiCall api("aclrtDeviceGetBareTgid");
  if (!api.ok()) return api.notReady();
  if (!pid) return api.fail(ACL_ERROR_INVALID_PARAM, "pid is NULL");
  *pid = static_cast<int32_t>(getpid());
  return api.done();
}

aclError aclrtReduceAsync(void* dst, const void* src, uint64_t count, aclrtReduceKind kind, aclDataType type,
                          aclrtStream stream, void* reserve) {
  ApiCall api("aclrtReduceAsync");
  if (!api.ok()) return api.notReady();
  if (reserve) return api.fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
  if (kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL)
    return api.fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "reduce kind EQUAL is not simulated (its result is undocumented)");
  if (kind != ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM && kind != ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX &&
      kind != ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN)
    return api.fail(ACL_ERROR_INVALID_PARAM, "kind {} is not an aclrtReduceKind", static_cast<int>(kind));
  size_t elem = reduceElementSize(type);
  if (elem == 0)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "data type {} cannot be reduced (float, float16, bf16, int8/16/32)",
                    static_cast<int>(type));
  if (count == 0 || count % elem != 0)
    return api.fail(ACL_ERROR_INVALID_PARAM, "count {} is not a positive multiple of the element size {}",
                    count, elem);
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  npusim::rt::CopyPlan plan;
  if (aclError e =
          npusim::rt::planCopy(api, dst, src, count, 1, count, count, ACL_MEMCPY_DEVICE_TO_DEVICE, &plan))
    return e;
  npusim::rt::PointerInfo info = api.rt.memory().classify(dst);
  if (plan.route != npusim::sched::CopyRoute::DeviceLocal || info.device != s->device)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "a reduce runs within the stream's device {} (dst, src on device {})", s->device,
                    info.device);
  auto* dstView = static_cast<uint8_t*>(api.rt.memory().hostView(info, dst));
  auto old = std::make_shared<std::vector<uint8_t>>();
  size_t bytes = static_cast<size_t>(count);
  npusim::rt::launchBuiltin(api, s, "ReduceKeep", [old, dstView, bytes](npusim::sched::Task&) {
    old->assign(dstView, dstView + bytes);
  });
  plan.label = "Reduce";
  if (aclError e = npusim::rt::launchAsync(api, s, plan)) return e;
  npusim::rt::launchBuiltin(api, s, "ReduceCombine", [old, dstView, bytes, kind, type](npusim::sched::Task&) {
    reduceBytes(dstView, old->data(), bytes, kind, type);
  });
  return api.done();
}

}  // extern "C"
