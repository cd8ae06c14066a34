#pragma once
// What aclnnNsaSelectedAttention, its gradient and its inference form share: where a row of a
// packed (TND), padded (BSND) or paged tensor lives, which keys a query row selects (the
// topkIndices blocks of selectedBlockSize keys, in order, clipped to the sequence, -1 or an
// index past the sequence selecting nothing, the top-left causal rule of sparse mode 2), the
// packed sequence lengths and the cube/vector cost of one tile of query rows.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {

// Element offset of row i of batch b, head n of a [.., N, D] view: b * sb + (first[b] + i) * ss
// + n * sn (first empty = 0: padded layouts); elements of the row are sd apart.
struct NsaRows {
  int64_t sb = 0, ss = 0, sn = 0, sd = 0;
  std::vector<int64_t> first;
  int64_t at(int64_t b, int64_t i, int64_t n) const {
    return b * sb + ((first.empty() ? 0 : first[static_cast<size_t>(b)]) + i) * ss + n * sn;
  }
};

// Query-head rows of one attention tile (the cube's M block).
constexpr int64_t kNsaTileRows = 128;

// Each tensor is valid, of `info`'s types and of the first one's type, and of rank `rank` (0: any)
// (161002); then each of `ints` is a valid int32 tensor.
int32_t nsaCheckPacked(const char* api, const OpInfo& info,
                       std::initializer_list<std::pair<const char*, const aclTensor*>> tensors,
                       size_t rank = 3,
                       std::initializer_list<std::pair<const char*, const aclTensor*>> ints = {});

// The views of a padded 4-D [B, S, N, D] tensor, or of a 3-D [B, S, N * D] one (also key/value
// pages [blockNum, P, N, D] / [blockNum, P, N * D]); false if `t` is neither with `heads` and D.
bool nsaPaddedRows(const TensorDesc& t, int64_t heads, int64_t D, NsaRows* r);

// The views of a [T, N, D] (TND) tensor whose batch b starts at row first[b].
NsaRows nsaPackedRows(const TensorDesc& t, const std::vector<int64_t>& first);

struct NsaSelection {
  int64_t blockSize = 0, blockCount = 0;
  bool causal = false;  // key position p is visible to query row i of batch b only if p <= i + causalShift[b]
  std::vector<int64_t>
      causalShift;             // empty: 0 (training, top-left); inference: keys - queries (bottom-right)
  NsaRows topk;                // topkIndices: heads = key/value heads, "d" = the block counter
  std::vector<int64_t> kvLen;  // keys of each batch

  // Key positions of batch b (0 .. kvLen - 1) query row i, key head g attends, in the order of
  // the selected blocks (a block selected twice counts twice, as the gathered rows do).
  void positions(const HostTensor& indices, int64_t b, int64_t i, int64_t g, std::vector<int64_t>* pos) const;
};

// Checks the doc's block limits: selectedBlockSize a multiple of 16 up to 128, 1 <= count <= 32.
int32_t nsaCheckBlocks(const char* api, int64_t blockSize, int64_t blockCount);

// Cumulative ends (actualSeqQLen / actualSeqKvLen) to first rows and lengths; the last end must be
// the tensor's T, the ends non-decreasing, both arrays of one length B >= 1.
int32_t nsaPackedSequences(const char* api, const aclIntArray* seqQ, const aclIntArray* seqKv, int64_t T1,
                           int64_t T2, std::vector<int64_t>* qFirst, std::vector<int64_t>* qLen,
                           std::vector<int64_t>* kvFirst, std::vector<int64_t>* kvLen);

// A forward problem (training or inference): inputs query, key, value, topkIndices[, blockTable],
// outputs [softmaxMax, softmaxSum,] attentionOut.
struct NsaForwardProblem {
  int64_t heads = 0, kvHeads = 0, dqk = 0, dv = 0;
  std::vector<int64_t> qLen;  // query rows of each batch
  NsaRows q, k, v, out, stats;
  NsaSelection sel;
  int64_t pageBlockSize = 0;  // > 0: key/value are paged, row (page, p % P) with page = blockTable[b, p / P]
  double scale = 1.0;
  bool withStats = false;  // softmaxMax / softmaxSum ([T, N, 8] fp32, the value repeated 8 times)
};

// The operator instance of a forward problem (inputs and outputs still to be added, in the order above).
std::unique_ptr<OpInstance> makeNsaForward(const NsaForwardProblem& p);

// Sequences and checks the training forward and backward share. Checks layout TND, sparseMode 0 or
// 2, the blocks, topkIndices int32 [T1, N2, count], the statistics fp32 [T1, N1, 8] (one set of
// strides), an optional 2-D bool/uint8 mask, and the packed sequences (each key sequence a
// multiple of the block size and at least `count` blocks long, the doc's rule).
struct NsaTrainingArgs {
  const char* layout;
  int64_t sparseMode;
  const aclTensor *mask, *topk, *softmaxMax, *softmaxSum;
  const char *maxName, *sumName;
  int64_t T1, T2, N1, N2, blockSize, blockCount;
  const aclIntArray *seqQ, *seqKv;
};
int32_t nsaCheckTraining(const char* api, const NsaTrainingArgs& a, std::vector<int64_t>* qFirst,
                         std::vector<int64_t>* qLen, std::vector<int64_t>* kvFirst, NsaSelection* sel);

// The trace arguments of the training forward and backward.
std::string nsaTrainingAttrs(double scale, int64_t headNum, int64_t sparseMode, int64_t blockSize,
                             int64_t blockCount);

// One cube tile of `rows` query rows of one key head with `group` query heads: the QK^T and PV
// MACs (macPasses = 1 forward, 2.5 backward: five matmuls) over `keys` selected keys, or its
// softmax on the vector units if longer; reads `readBytes` (the gathered key/value rows and the
// query-side rows), writes `writeBytes`.
rt::TileWork nsaAttentionTile(int64_t rows, int64_t group, int64_t keys, int64_t dqk, int64_t dv,
                              double macPasses, double softmaxPasses, uint64_t readAddr, uint64_t readBytes,
                              uint64_t writeAddr, uint64_t writeBytes);

}  // namespace npusim::aclnn
