// aclnnLSTM (ops-nn rnn/dynamic_rnn docs/aclnnLSTM.md and op_api) on the recurrent engine
// (rnn_op.h). Gate blocks i, f, g, o: the op_api runs DynamicRNN with gate_order "ifjo" on
// [weight_ih, weight_hh] concatenated, as PyTorch lays them out. Per unit and step:
//   a = gi + gh; i, f, o = sigmoid(a_i, a_f, a_o); j = tanh(a_g); c = f*c + i*j; h = o*tanh(c)
// hx: none (zero states) or {h0, c0}. With train the lists i, j, f, o, h, c, tanh(c) keep every
// step. fp32/fp16, all tensors one type, computed in fp32. dropout must be 0 (the doc: not
// supported).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_lstm.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/rnn_common.h"
#include "runtime/aclnn/ops/rnn_op.h"

namespace npusim::aclnn {
namespace {

const OpRegistrar kLstm({"aclnnLSTM",
                         ExecUnit::kCube,
                         {ACL_FLOAT, ACL_FLOAT16},
                         "per step: gates = x W_ih^T + h W_hh^T + b; c = f*c + i*g; h = o*tanh(c)"});

void lstmCell(int64_t H, int64_t j, const float* gi, const float* gh, float* h, float* c, float* kept) {
  const float ig = gateSigmoid(gi[j] + gh[j]), fg = gateSigmoid(gi[H + j] + gh[H + j]),
              jg = std::tanh(gi[2 * H + j] + gh[2 * H + j]), og = gateSigmoid(gi[3 * H + j] + gh[3 * H + j]);
  c[j] = fg * c[j] + ig * jg;
  const float tc = std::tanh(c[j]);
  h[j] = og * tc;
  const float v[7] = {ig, jg, fg, og, h[j], c[j], tc};
  std::copy(v, v + 7, kept);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnLSTMGetWorkspaceSize(
    const aclTensor* input, const aclTensorList* params, const aclTensorList* hx, const aclTensor* batchSizes,
    bool hasBias, int64_t numLayers, double dropout, bool train, bool bidirectional, bool batchFirst,
    aclTensor* output, aclTensor* hy, aclTensor* cy, aclTensorList* iOut, aclTensorList* jOut,
    aclTensorList* fOut, aclTensorList* oOut, aclTensorList* hOut, aclTensorList* cOut,
    aclTensorList* tanhCOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnLSTMGetWorkspaceSize";
  int32_t st;
  if ((st = require(api, dropout == 0.0,
                    fmt::format("dropout {} is not supported (the doc: only 0)", dropout))) != kSuccess) {
    return st;
  }
  RnnArgs a;
  a.api = api;
  a.name = "aclnnLSTM";
  a.input = input, a.params = params, a.batchSizes = batchSizes, a.output = output;
  if (hx != nullptr && !hx->items.empty()) {
    if ((st = require(api, hx->items.size() == 2,
                      fmt::format("hx holds {} tensors; 2 (h0, c0) or none expected", hx->items.size()))) !=
        kSuccess)
      return st;
    a.hx = {hx->items[0], hx->items[1]};
  }
  a.finals = {hy, cy};
  a.finalNames = {"hy", "cy"};
  a.lists = {iOut, jOut, fOut, oOut, hOut, cOut, tanhCOut};
  a.listNames = {"iOut", "jOut", "fOut", "oOut", "hOut", "cOut", "tanhCOut"};
  RnnShape s;
  s.L = numLayers, s.D = bidirectional ? 2 : 1, s.bias = hasBias, s.train = train, s.batchFirst = batchFirst;
  s.gates = 4, s.states = 2, s.kept = 7;
  s.passes = 5;  // sigmoid/tanh as exp, add, reciprocal; the gi + gh add; about one for the cell update
  return buildRnn(s, lstmCell, a, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(LSTM)
