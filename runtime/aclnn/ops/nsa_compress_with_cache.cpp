// aclnnNsaCompressWithCache (ops-transformer attention/nsa_compress_with_cache/docs/
// aclnnNsaCompressWithCache.md): at inference each batch b gains one token per step; when its
// length s (actSeqLenOptional, per-batch lengths, actSeqLenType 1) completes a window,
// s >= l and (s - l) % d == 0, its last l = compressBlockSize tokens are compressed into its slot
// of the cache:
//   outputCache[slotMapping[b], n, :] = sum_j weight[j, n] * token(b, s - l + j)[n, :],
// token(b, t) = input[blockTable[b, t / P], t % P] (the paged cache [blockNum, P, N, D], P =
// pageBlockSize). Other batches and slots are left as they are. fp16/bf16, fp32 sums, one
// rounding. The public kernel reads every token through the block table, so the TND form
// without one is refused (161002); so are the doc's limits. A slot or page index outside its
// tensor on the device skips that batch (the kernel would write or read out of bounds).
// Cost: one vector tile per (compressed batch, head) reading its l token rows, writing one row.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "aclnnop/aclnn_nsa_compress_with_cache.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnNsaCompressWithCache",
                   ExecUnit::kVector,
                   {ACL_FLOAT16, ACL_BF16},
                   "cache[slot[b],n,:] = sum_j weight[j,n] * token(b, s_b - l + j)[n,:]"};
const OpRegistrar kRegistrar(kInfo);

class NsaCompressWithCacheInstance : public OpInstanceBase<NsaCompressWithCacheInstance> {
 public:
  std::vector<int64_t> batches;  // the batches that complete a window
  std::vector<int64_t> lengths;  // every batch's length
  int64_t block = 0;

  rt::OpWork work() const override {
    const TensorDesc& x = inputs[0];
    const int64_t N = x.shape[2], D = x.shape[3];
    const auto es = static_cast<uint64_t>(x.elementSize());
    rt::OpWork w;
    for (size_t i = 0; i < batches.size(); ++i) {
      for (int64_t n = 0; n < N; ++n) {
        rt::TileWork t;
        t.readAddr = x.data + static_cast<uint64_t>(x.offset) * es;
        t.readBytes = static_cast<uint64_t>(block * D) * es;
        if (i == 0 && n == 0) t.readBytes += static_cast<uint64_t>(inputs[1].numel()) * es;  // the weight
        t.vectorBytes = static_cast<uint64_t>(block * D) * 4 * 2;  // fp32 cast, multiply-add
        t.writeAddr = outputs[0].data + static_cast<uint64_t>(outputs[0].offset) * es;
        t.writeBytes = static_cast<uint64_t>(D) * es;
        w.tiles.push_back(t);
      }
    }
    return w;
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const HostTensor &X = in[0], &W = in[1], &slots = in[2], &table = in[3], &C = out[0];
    const int64_t pages = X.shape[0], P = X.shape[1], N = X.shape[2], D = X.shape[3];
    const int64_t es = static_cast<int64_t>(dtypeSize(X.dtype)),
                  ces = static_cast<int64_t>(dtypeSize(C.dtype));
    auto int32At = [](const HostTensor& t, int64_t off) {
      int32_t v = 0;
      std::memcpy(&v, t.data + off * 4, 4);
      return static_cast<int64_t>(v);
    };
    std::vector<float> acc(static_cast<size_t>(D)), row(static_cast<size_t>(D));
    for (int64_t b : batches) {
      const int64_t slot = int32At(slots, b * slots.strides[0]);
      if (slot < 0 || slot >= C.shape[0]) continue;
      const int64_t first = lengths[static_cast<size_t>(b)] - block;
      bool pagesOk = true;
      std::vector<const char*> tok(static_cast<size_t>(block));
      for (int64_t j = 0; j < block && pagesOk; ++j) {
        const int64_t t = first + j, col = t / P;
        const int64_t page =
            col < table.shape[1] ? int32At(table, b * table.strides[0] + col * table.strides[1]) : -1;
        pagesOk = page >= 0 && page < pages;
        tok[static_cast<size_t>(j)] = X.data + (page * X.strides[0] + (t % P) * X.strides[1]) * es;
      }
      if (!pagesOk) continue;
      for (int64_t n = 0; n < N; ++n) {
        std::fill(acc.begin(), acc.end(), 0.0f);
        for (int64_t j = 0; j < block; ++j) {
          float wj = 0;
          loadRow(W.dtype, W.data + (j * W.strides[0] + n * W.strides[1]) * es, es, 1, &wj);
          loadRow(X.dtype, tok[static_cast<size_t>(j)] + n * X.strides[2] * es, X.strides[3] * es, D,
                  row.data());
          for (int64_t d = 0; d < D; ++d) acc[static_cast<size_t>(d)] += wj * row[static_cast<size_t>(d)];
        }
        storeRow(C.dtype, C.data + (slot * C.strides[0] + n * C.strides[1]) * ces, C.strides[2] * ces, D,
                 acc.data());
      }
    }
  }
};

int32_t build(const aclTensor* input, const aclTensor* weight, const aclTensor* slotMapping,
              const aclIntArray* seqLens, const aclTensor* blockTable, int64_t block, int64_t stride,
              int64_t seqLenType, int64_t pageBlockSize, const aclTensor* outputCache,
              uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnNsaCompressWithCacheGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"input", input},
                                  {"weight", weight},
                                  {"slotMapping", slotMapping},
                                  {"actSeqLenOptional", seqLens},
                                  {"outputCache", outputCache}});
  if (st != kSuccess) return st;
  for (const auto& [name, t] : {std::pair<const char*, const aclTensor*>{"input", input},
                                {"weight", weight},
                                {"outputCache", outputCache}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess ||
        (st = checkDtype(api, name, t->desc.dtype, kInfo)) != kSuccess)
      return st;
    if (t->desc.dtype != input->desc.dtype)
      return fail(api, kErrParamInvalid, "input, weight and outputCache must have one type");
  }
  if (blockTable == nullptr) {
    return fail(api, kErrParamInvalid,
                "only the paged cache is simulated (blockTableOptional given): the public kernel reads every "
                "token through the block table");
  }
  if ((st = checkTensor(api, "slotMapping", slotMapping->desc)) != kSuccess ||
      (st = checkTensor(api, "blockTableOptional", blockTable->desc)) != kSuccess)
    return st;
  const auto& is = input->desc.shape;
  const auto B = static_cast<int64_t>(seqLens->values.size());
  if (slotMapping->desc.dtype != ACL_INT32 || blockTable->desc.dtype != ACL_INT32 ||
      slotMapping->desc.shape != std::vector<int64_t>{B} || blockTable->desc.rank() != 2 ||
      blockTable->desc.shape[0] != B) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("slotMapping {} must be int32 [B] and blockTableOptional {} int32 [B, pages], B = {} "
                    "(the entries of actSeqLenOptional)",
                    slotMapping->desc.brief(), blockTable->desc.brief(), B));
  }
  if (seqLenType != 1) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("actSeqLenType must be 1 (per-batch lengths, the only form the doc supports), got {}",
                    seqLenType));
  }
  const bool strideOk = stride == 16 || stride == 32 || stride == 48 || stride == 64;
  if (block % 16 != 0 || block <= 0 || block > 64 || !strideOk || block < stride ||
      (pageBlockSize != 64 && pageBlockSize != 128)) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("compressBlockSize {} (a multiple of 16 up to 64), compressStride {} (16, 32, 48 or "
                    "64, at most compressBlockSize) or pageBlockSize {} (64 or 128) outside the doc's limits",
                    block, stride, pageBlockSize));
  }
  const auto& ws = weight->desc.shape;
  const auto& cs = outputCache->desc.shape;
  if (is.size() != 4 || is[1] != pageBlockSize || is[2] <= 0 || is[2] > 64 || is[3] % 16 != 0 ||
      ws != std::vector<int64_t>{block, is[2]} || cs.size() != 3 || cs[1] != is[2] || cs[2] != is[3]) {
    return fail(api, kErrParamInvalid,
                fmt::format("input {} must be [blockNum, pageBlockSize {}, N <= 64, D % 16 == 0], weight {} "
                            "[compressBlockSize, N] and outputCache {} [slots, N, D]",
                            shapeString(is), pageBlockSize, shapeString(ws), shapeString(cs)));
  }
  auto inst = std::make_unique<NsaCompressWithCacheInstance>();
  inst->block = block;
  inst->lengths = seqLens->values;
  for (int64_t b = 0; b < B; ++b) {
    const int64_t s = seqLens->values[static_cast<size_t>(b)];
    if (s > blockTable->desc.shape[1] * pageBlockSize) {
      return fail(api, kErrParamInvalid,
                  fmt::format("batch {} has {} tokens, more than its {} pages of {} hold", b, s,
                              blockTable->desc.shape[1], pageBlockSize));
    }
    if (s >= block && (s - block) % stride == 0) inst->batches.push_back(b);
  }
  inst->name = "aclnnNsaCompressWithCache";
  addInput(*inst, "input", input);
  addInput(*inst, "weight", weight);
  addInput(*inst, "slotMapping", slotMapping);
  addInput(*inst, "blockTable", blockTable);
  addOutput(*inst, "outputCache", outputCache);
  inst->attrs =
      fmt::format("compressBlockSize={}, compressStride={}, pageBlockSize={}, compressed batches={}", block,
                  stride, pageBlockSize, inst->batches.size());
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnNsaCompressWithCacheGetWorkspaceSize(
    const aclTensor* input, const aclTensor* weight, const aclTensor* slotMapping,
    const aclIntArray* actSeqLenOptional, const aclTensor* blockTableOptional, char* layoutOptional,
    int64_t compressBlockSize, int64_t compressStride, int64_t actSeqLenType, int64_t pageBlockSize,
    aclTensor* outputCache, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)layoutOptional;  // the doc: not read when blockTableOptional is given (the only form simulated)
  return npusim::aclnn::build(input, weight, slotMapping, actSeqLenOptional, blockTableOptional,
                              compressBlockSize, compressStride, actSeqLenType, pageBlockSize, outputCache,
                              workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(NsaCompressWithCache)
