// ACL entry points: batches of copies (aclrtMemcpyBatch, aclrtMemcpyBatchAsync). Each copy of the
// batch is exactly the copy aclrtMemcpy / aclrtMemcpyAsync would make (same checks, route, timing
// and trace), in order; the attributes say where each side is, and a side they place on the device
// must be device memory. The first copy that fails stops the batch and is named by *failIndex.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>

#include "acl/acl.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;

namespace {

constexpr size_t kMaxBatch = 4096;  // copies the driver takes in one batch

bool onDevice(aclrtMemLocationType t) { return t == ACL_MEM_LOCATION_TYPE_DEVICE; }

aclrtMemcpyKind kindOf(const aclrtMemcpyBatchAttr& a) {
  const bool d = onDevice(a.dstLoc.type), s = onDevice(a.srcLoc.type);
  return d && s ? ACL_MEMCPY_DEVICE_TO_DEVICE
         : d    ? ACL_MEMCPY_HOST_TO_DEVICE
         : s    ? ACL_MEMCPY_DEVICE_TO_HOST
                : ACL_MEMCPY_HOST_TO_HOST;
}

aclError batch(const char* name, void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t n,
               aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs, size_t* failIndex,
               aclrtStream stream, bool async) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  if (failIndex) *failIndex = SIZE_MAX;
  size_t unused = SIZE_MAX;
  if (!failIndex && std::strstr(name, "V2")) failIndex = &unused;  // the V2 calls name no failed copy
  if (!sizes || n == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "sizes is NULL or numBatches is 0");
  // As in the real runtime, a batch that copies no byte succeeds before anything else is checked.
  if (std::all_of(sizes, sizes + n, [](size_t v) { return v == 0; })) return api.done();
  if (!dsts || !destMaxs || !srcs || !attrs || !attrsIndexes || !failIndex)
    return api.fail(ACL_ERROR_INVALID_PARAM, "an array argument or failIndex is NULL");
  if (n > kMaxBatch)
    return api.fail(ACL_ERROR_INVALID_PARAM, "numBatches {} is above the driver's {} copies per batch", n,
                    kMaxBatch);
  if (numAttrs == 0 || numAttrs > n)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "numBatches {} and numAttrs {} must be 1 <= numAttrs <= numBatches", n, numAttrs);
  // Sizes against their destinations and the reserved bytes are checked for the whole batch first:
  // such a batch is refused whole, no copy of it runs.
  for (size_t i = 0; i < n; ++i)
    if (sizes[i] > destMaxs[i])
      return api.fail(ACL_ERROR_INVALID_PARAM, "copy {}: size {} exceeds destMax {}", i, sizes[i],
                      destMaxs[i]);
  for (size_t k = 0; k < numAttrs; ++k)
    if (std::any_of(std::begin(attrs[k].rsv), std::end(attrs[k].rsv), [](uint8_t b) { return b != 0; }))
      return api.fail(ACL_ERROR_INVALID_PARAM, "attrs[{}].rsv is reserved and must be all 0", k);
  if (attrsIndexes[0] != 0) return api.fail(ACL_ERROR_INVALID_PARAM, "attrsIndexes[0] must be 0");
  for (size_t k = 1; k < numAttrs; ++k)
    if (attrsIndexes[k] <= attrsIndexes[k - 1] || attrsIndexes[k] >= n)
      return api.fail(ACL_ERROR_INVALID_PARAM,
                      "attrsIndexes must increase and stay below numBatches ({} at {})", attrsIndexes[k], k);
  for (size_t k = 0; k < numAttrs; ++k)
    for (aclrtMemLocationType t : {attrs[k].dstLoc.type, attrs[k].srcLoc.type})
      if (t != ACL_MEM_LOCATION_TYPE_HOST && t != ACL_MEM_LOCATION_TYPE_DEVICE)
        return api.fail(ACL_ERROR_INVALID_PARAM, "attrs[{}]: a location is HOST or DEVICE (got {})", k,
                        static_cast<int>(t));
  api.args.add("copies", static_cast<uint64_t>(n));
  size_t attr = 0;
  for (size_t i = 0; i < n; ++i) {
    while (attr + 1 < numAttrs && attrsIndexes[attr + 1] <= i) ++attr;
    const aclrtMemcpyKind kind = kindOf(attrs[attr]);
    const aclError e = async ? aclrtMemcpyAsync(dsts[i], destMaxs[i], srcs[i], sizes[i], kind, stream)
                             : aclrtMemcpy(dsts[i], destMaxs[i], srcs[i], sizes[i], kind);
    if (e != ACL_SUCCESS) {
      *failIndex = i;
      return api.done(e);
    }
  }
  return api.done();
}

}  // namespace

extern "C" {

aclError aclrtMemcpyBatch(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                          aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs,
                          size_t* failIndex) {
  return batch("aclrtMemcpyBatch", dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs,
               failIndex, nullptr, false);
}

aclError aclrtMemcpyBatchAsync(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                               aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs,
                               size_t* failIndex, aclrtStream stream) {
  return batch("aclrtMemcpyBatchAsync", dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes,
               numAttrs, failIndex, stream, true);
}

// The same batches without the failed copy's index (the V2 forms).
aclError aclrtMemcpyBatchV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                            aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs) {
  return batch("aclrtMemcpyBatchV2", dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs,
               nullptr, nullptr, false);
}

aclError aclrtMemcpyBatchAsyncV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                                 aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs,
                                 aclrtStream stream) {
  return batch("aclrtMemcpyBatchAsyncV2", dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes,
               numAttrs, nullptr, stream, true);
}

}  // extern "C"
