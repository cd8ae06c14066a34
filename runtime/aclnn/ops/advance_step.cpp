// aclnnAdvanceStep and aclnnAdvanceStepV2 (ops-nn optim/advance_step): vLLM's per-sequence
// bookkeeping between two decoding steps, in place on int64 tensors.
//  - V1, sequence i < numQueries: inputTokens[i] = sampledTokenIds[i]; inputPositions[i] =
//    seqLens[i]; seqLens[i] += 1; with pos the new position, slotMapping[i] =
//    (blockTables[pos / blockSize] + blockTablesStride * i) * blockSize + pos % blockSize:
//    the doc's formula read literally, blockTables indexed as one flat array and the row offset
//    added to the value, as its kernel does. Padding sequences numQueries <= i < numSeqs get
//    token 0, position 0 and slot -1 (vLLM's padding; the doc leaves it implicit).
//  - V2 (speculative decoding, 1 + specNum tokens per sequence): every position of sequence i
//    advances by acceptedNum[i] + 1, seqLens = position + 1, slot = blockTables[i][pos /
//    blockSize] * blockSize + pos % blockSize (its kernel gathers from row i); token 0 of the
//    sequence is the last accepted sampled token (the one before the first -1 of its
//    sampledTokenIds row, or the row's last), tokens 1.. are its specToken row.
// A block index outside blockTables is an execution error (slot -1). Cost: every tensor read
// or written once, 3 vector passes.
#include <fmt/format.h>

#include <vector>

#include "aclnnop/aclnn_advance_step.h"
#include "aclnnop/aclnn_advance_step_v2.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

// The docs' code for shapes that disagree with numSeqs / numQueries (their tiling's failure).
constexpr int32_t kErrShapeTiling = 561002;

const OpInfo kInfoV1{"aclnnAdvanceStep",
                     ExecUnit::kVector,
                     {ACL_INT64},
                     "advance each sequence by its sampled token: positions, lengths, slots"};
const OpInfo kInfoV2{"aclnnAdvanceStepV2",
                     ExecUnit::kVector,
                     {ACL_INT64},
                     "advance each sequence by its accepted speculative tokens"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kInfoV1), OpRegistrar(kInfoV2)};

// Input order of the instance; outputs: inputTokens, inputPositions, seqLens, slotMapping.
enum Input { kSampled, kPositions, kSeqLens, kBlockTables, kSpecToken, kAcceptedNum };

class AdvanceStepInstance : public OpInstanceBase<AdvanceStepInstance> {
 public:
  int64_t numSeqs = 0, numQueries = 0, blockSize = 1, specNum = 0;
  bool speculative = false;

  rt::OpWork work() const override {
    uint64_t extra = 0;
    for (size_t i = 1; i < outputs.size(); ++i)
      extra += static_cast<uint64_t>(outputs[i].numel()) * outputs[i].elementSize();
    VectorPass pass{&inputs, &outputs[0], outputs[0].numel(), 3};
    pass.extraWriteBytes = extra;
    return vectorTiles(pass);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<int64_t> sampled = loadDense<int64_t>(in[kSampled]);
    const std::vector<int64_t> table = loadDense<int64_t>(in[kBlockTables]);
    std::vector<int64_t> positions = loadDense<int64_t>(in[kPositions]);
    std::vector<int64_t> seqLens = loadDense<int64_t>(in[kSeqLens]);
    std::vector<int64_t> tokens = loadDense<int64_t>(out[0]);
    std::vector<int64_t> slots = loadDense<int64_t>(out[3]);
    const int64_t stride = in[kBlockTables].shape[1];
    // V1 reads the table flat and adds the row offset to the value; V2 reads row `seq`.
    auto slotOf = [&](int64_t seq, int64_t pos) -> int64_t {
      const int64_t column = pos / blockSize;
      const int64_t at = speculative ? seq * stride + column : column;
      if (pos < 0 || column >= (speculative ? stride : static_cast<int64_t>(table.size()))) {
        reportExecutionError(name.c_str(), fmt::format("position {} of sequence {} is outside blockTables {}",
                                                       pos, seq, shapeString(in[kBlockTables].shape)));
        return -1;
      }
      const int64_t block = table[static_cast<size_t>(at)] + (speculative ? 0 : stride * seq);
      return block * blockSize + pos % blockSize;
    };
    if (!speculative) {
      for (int64_t i = 0; i < numSeqs; ++i) {
        const size_t s = static_cast<size_t>(i);
        if (i >= numQueries) {
          tokens[s] = 0;
          positions[s] = 0;
          slots[s] = -1;
          continue;
        }
        tokens[s] = sampled[s];
        positions[s] = seqLens[s];
        seqLens[s] += 1;
        slots[s] = slotOf(i, positions[s]);
      }
    } else {
      const std::vector<int64_t> spec = loadDense<int64_t>(in[kSpecToken]);
      const std::vector<int64_t> accepted = loadDense<int64_t>(in[kAcceptedNum]);
      const int64_t perSeq = specNum + 1;
      for (int64_t i = 0; i < numSeqs; ++i) {
        const int64_t* row = sampled.data() + i * perSeq;
        int64_t firstRejected = perSeq;
        for (int64_t j = 0; j < perSeq && firstRejected == perSeq; ++j) {
          if (row[j] == -1) firstRejected = j;
        }
        tokens[static_cast<size_t>(i * perSeq)] = firstRejected > 0 ? row[firstRejected - 1] : -1;
        for (int64_t j = 0; j < specNum; ++j)
          tokens[static_cast<size_t>(i * perSeq + 1 + j)] = spec[static_cast<size_t>(i * specNum + j)];
        for (int64_t j = 0; j < perSeq; ++j) {
          const size_t k = static_cast<size_t>(i * perSeq + j);
          positions[k] += accepted[static_cast<size_t>(i)] + 1;
          seqLens[k] = positions[k] + 1;
          slots[k] = slotOf(i, positions[k]);
        }
      }
    }
    storeDense(out[0], tokens.data());
    storeDense(out[1], positions.data());
    storeDense(out[2], seqLens.data());
    storeDense(out[3], slots.data());
  }
};

struct StepArgs {
  const aclTensor *inputTokens, *sampledTokenIds, *inputPositions, *seqLens, *slotMapping, *blockTables;
  const aclTensor *specToken = nullptr, *acceptedNum = nullptr;
  int64_t numSeqs, numQueries, blockSize;
};

int32_t build(const OpInfo& info, const StepArgs& a, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"inputTokens", a.inputTokens},
                                  {"sampledTokenIds", a.sampledTokenIds},
                                  {"inputPositions", a.inputPositions},
                                  {"seqLens", a.seqLens},
                                  {"slotMapping", a.slotMapping},
                                  {"blockTables", a.blockTables}});
  if (st != kSuccess) return st;
  const bool speculative = a.specToken != nullptr || a.acceptedNum != nullptr;
  if (speculative &&
      (st = checkNotNull(api, {{"specToken", a.specToken}, {"acceptedNum", a.acceptedNum}})) != kSuccess)
    return st;
  std::vector<std::pair<const char*, const aclTensor*>> all = {
      {"inputTokens", a.inputTokens},       {"sampledTokenIds", a.sampledTokenIds},
      {"inputPositions", a.inputPositions}, {"seqLens", a.seqLens},
      {"slotMapping", a.slotMapping},       {"blockTables", a.blockTables}};
  if (speculative) {
    all.emplace_back("specToken", a.specToken);
    all.emplace_back("acceptedNum", a.acceptedNum);
  }
  for (auto [name, t] : all) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, info)) != kSuccess) return st;
    if (t->desc.numel() == 0) return fail(api, kErrParamInvalid, fmt::format("{} must not be empty", name));
  }
  if (a.blockSize <= 0 || a.numSeqs <= 0 || a.numQueries <= 0)
    return fail(api, kErrParamInvalid,
                fmt::format("numSeqs {}, numQueries {} and blockSize {} must be positive", a.numSeqs,
                            a.numQueries, a.blockSize));
  const int64_t specNum = speculative && a.specToken->desc.rank() == 2 ? a.specToken->desc.shape[1] : 0;
  if (speculative && (a.specToken->desc.rank() != 2 || a.specToken->desc.shape[0] != a.numSeqs))
    return fail(api, kErrShapeTiling, fmt::format("specToken must be [numSeqs {}, specNum]", a.numSeqs));
  if (speculative && (a.acceptedNum->desc.rank() != 1 || a.acceptedNum->desc.shape[0] != a.numSeqs))
    return fail(api, kErrShapeTiling, fmt::format("acceptedNum must be [numSeqs {}]", a.numSeqs));
  if (!speculative && a.numSeqs <= a.numQueries)
    return fail(api, kErrShapeTiling,
                fmt::format("numSeqs {} must be greater than numQueries {}", a.numSeqs, a.numQueries));
  // One value per token: [numSeqs * (1 + specNum)] or [numSeqs, 1 + specNum].
  const int64_t perSeq = specNum + 1;
  for (auto [name, t] : {std::pair{"inputTokens", a.inputTokens},
                         {"inputPositions", a.inputPositions},
                         {"seqLens", a.seqLens},
                         {"slotMapping", a.slotMapping}}) {
    const TensorDesc& d = t->desc;
    if (d.numel() != a.numSeqs * perSeq || d.rank() > 2 || (d.rank() == 2 && d.shape[0] != a.numSeqs))
      return fail(api, kErrShapeTiling,
                  fmt::format("{} {} must hold {} values per sequence for numSeqs {}", name,
                              shapeString(d.shape), perSeq, a.numSeqs));
  }
  const TensorDesc& s = a.sampledTokenIds->desc;
  const int64_t sampledRows = speculative ? a.numSeqs : a.numQueries;
  if (s.rank() != 2 || s.shape[0] != sampledRows || s.shape[1] != perSeq)
    return fail(
        api, kErrShapeTiling,
        fmt::format("sampledTokenIds {} must be [{}, {}]", shapeString(s.shape), sampledRows, perSeq));
  const TensorDesc& bt = a.blockTables->desc;
  if (bt.rank() != 2 || bt.shape[0] != a.numSeqs)
    return fail(api, kErrShapeTiling,
                fmt::format("blockTables {} must be [numSeqs {}, blocks]", shapeString(bt.shape), a.numSeqs));

  auto inst = std::make_unique<AdvanceStepInstance>();
  inst->name = info.name;
  inst->numSeqs = a.numSeqs;
  inst->numQueries = a.numQueries;
  inst->blockSize = a.blockSize;
  inst->specNum = specNum;
  inst->speculative = speculative;
  addInput(*inst, "sampledTokenIds", a.sampledTokenIds);
  addInput(*inst, "inputPositions", a.inputPositions);
  addInput(*inst, "seqLens", a.seqLens);
  addInput(*inst, "blockTables", a.blockTables);
  if (speculative) {
    addInput(*inst, "specToken", a.specToken);
    addInput(*inst, "acceptedNum", a.acceptedNum);
  }
  addOutput(*inst, "inputTokens", a.inputTokens);
  addOutput(*inst, "inputPositions", a.inputPositions, kPositions);
  addOutput(*inst, "seqLens", a.seqLens, kSeqLens);
  addOutput(*inst, "slotMapping", a.slotMapping);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnAdvanceStepGetWorkspaceSize(
    const aclTensor* inputTokens, const aclTensor* sampledTokenIds, const aclTensor* inputPositions,
    const aclTensor* seqLens, const aclTensor* slotMapping, const aclTensor* blockTables, int64_t numSeqs,
    int64_t numQueries, int64_t blockSize, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  StepArgs a{inputTokens, sampledTokenIds, inputPositions, seqLens,    slotMapping, blockTables,
             nullptr,     nullptr,         numSeqs,        numQueries, blockSize};
  return build(kInfoV1, a, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(AdvanceStep)

extern "C" aclnnStatus aclnnAdvanceStepV2GetWorkspaceSize(
    const aclTensor* inputTokens, const aclTensor* sampledTokenIds, const aclTensor* inputPositions,
    const aclTensor* seqLens, const aclTensor* slotMapping, const aclTensor* blockTables,
    const aclTensor* specToken, const aclTensor* acceptedNum, int64_t numSeqs, int64_t numQueries,
    int64_t blockSize, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  StepArgs a{inputTokens, sampledTokenIds, inputPositions, seqLens,    slotMapping, blockTables,
             specToken,   acceptedNum,     numSeqs,        numQueries, blockSize};
  return build(kInfoV2, a, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(AdvanceStepV2)
