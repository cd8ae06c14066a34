// aclnnGRU (ops-nn rnn/gru docs/aclnnGRU.md and kernel) on the recurrent engine (rnn_op.h).
// Gate blocks r, z, n (the kernel's offsets 0, H, 2H, as PyTorch). Per unit and step, with
// gi = x W_ih^T + b_ih and gh = h W_hh^T + b_hh:
//   r = sigmoid(gi_r + gh_r); z = sigmoid(gi_z + gh_z); n = tanh(gi_n + r * gh_n)
//   h = (1 - z) * n + z * h
// hx: one (D*L, B, H) tensor or null (zero state). With train the lists r, z, n, hn = gh_n and
// h keep every step. fp32/fp16, all tensors one type, computed in fp32. dropout is ignored (the
// doc: not implemented, any value computes the same); batchSizes (packed sequences) is refused
// with 161002, as the doc says the mode is not supported yet.
#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_gru.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/rnn_common.h"
#include "runtime/aclnn/ops/rnn_op.h"

namespace npusim::aclnn {
namespace {

const OpRegistrar kGru({"aclnnGRU",
                        ExecUnit::kCube,
                        {ACL_FLOAT, ACL_FLOAT16},
                        "per step: r, z = sigmoid; n = tanh(gi_n + r * gh_n); h = (1 - z) * n + z * h"});

void gruCell(int64_t H, int64_t j, const float* gi, const float* gh, float* h, float* /*c*/, float* kept) {
  const float r = gateSigmoid(gi[j] + gh[j]), z = gateSigmoid(gi[H + j] + gh[H + j]);
  const float hn = gh[2 * H + j], n = std::tanh(gi[2 * H + j] + r * hn);
  h[j] = (1 - z) * n + z * h[j];
  const float v[5] = {r, z, n, hn, h[j]};
  std::copy(v, v + 5, kept);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnGRUGetWorkspaceSize(
    const aclTensor* input, const aclTensorList* params, const aclTensor* hx, const aclTensor* batchSizes,
    bool hasBias, int64_t numLayers, double /*dropout*/, bool train, bool bidirection, bool batchFirst,
    aclTensor* output, aclTensor* hy, aclTensorList* rOut, aclTensorList* zOut, aclTensorList* nOut,
    aclTensorList* hnOut, aclTensorList* hOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnGRUGetWorkspaceSize";
  int32_t st;
  if ((st = require(
           api, batchSizes == nullptr,
           "batchSizes (packed sequences) is not supported: the doc says the mode is not available yet")) !=
      kSuccess) {
    return st;
  }
  RnnArgs a;
  a.api = api;
  a.name = "aclnnGRU";
  a.input = input, a.params = params, a.output = output;
  if (hx != nullptr) a.hx = {hx};
  a.finals = {hy};
  a.finalNames = {"hy"};
  a.lists = {rOut, zOut, nOut, hnOut, hOut};
  a.listNames = {"rOut", "zOut", "nOut", "hnOut", "hOut"};
  RnnShape s;
  s.L = numLayers, s.D = bidirection ? 2 : 1, s.bias = hasBias, s.train = train, s.batchFirst = batchFirst;
  s.gates = 3, s.states = 1, s.kept = 5;
  s.passes = 6;  // two sigmoids and a tanh as exp, add, reciprocal; the adds, r * gh_n and the blend
  return buildRnn(s, gruCell, a, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(GRU)
