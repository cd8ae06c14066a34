#pragma once
// The recurrent-network engine of aclnnLSTM and aclnnGRU: L layers of one or two directions
// over T steps (the reverse direction reads the sequence backwards; layer l > 0 reads both
// directions' outputs concatenated, forward first). Per layer, direction and step, the engine
// computes gi = x_t W_ih^T (+ b_ih) and gh = h W_hh^T (+ b_hh), each of `gates` blocks of H,
// and a cell function turns them into the new state and the values kept for the backward.
//
// params per layer, then per direction: weight_ih (G*H, in), weight_hh (G*H, H), then with
// bias bias_ih, bias_hh (G*H). States (h, and c for the LSTM) are (D*L, B, H), row l*D + d.
// Packed sequences (batchSizes): input (T*B, I) laid out as (T, B, I); row b runs the steps t
// with batchSizes[t] > b, keeps its state after its last step (later outputs 0) and the
// reverse direction starts at its last step.
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {

// One hidden unit j of one batch row: gi, gh point at the row's G*H gate sums, h and c at its
// state (c unused by single-state cells); writes the kept values into kept[0..keptCount).
using RnnCell = void (*)(int64_t H, int64_t j, const float* gi, const float* gh, float* h, float* c,
                         float* kept);

struct RnnShape {
  int64_t T = 0, B = 0, I = 0, H = 0, L = 1, D = 1;
  int gates = 4;   // G: 4 (LSTM i, f, g, o) or 3 (GRU r, z, n)
  int states = 2;  // h and c (LSTM) or h (GRU)
  int kept = 7;    // values per unit and step kept when training
  int passes = 5;  // vector passes over the fp32 (B, G*H) gate sums per step
  bool bias = false, train = false, batchFirst = false, packed = false, hasHx = false;
  int64_t layerInput(int64_t l) const { return l == 0 ? I : D * H; }
  int64_t paramIndex(int64_t l, int64_t d) const { return (l * D + d) * (bias ? 4 : 2); }
};

// The tensors of one call, checked by buildRnn. hx: the initial states ({} for zeros, else one
// per state); finals: hy (and cy); lists: `kept` training lists (null entries when !train).
struct RnnArgs {
  const char* api = "";
  const char* name = "";
  const aclTensor* input = nullptr;
  const aclTensorList* params = nullptr;
  std::vector<const aclTensor*> hx;
  const aclTensor* batchSizes = nullptr;
  const aclTensor* output = nullptr;
  std::vector<const aclTensor*> finals;
  std::vector<const char*> finalNames;
  std::vector<const aclTensorList*> lists;
  std::vector<const char*> listNames;
};

// The recurrence on the cores: per layer, direction and step, the step's matmul [x_t, h]
// (B x K+H) by the concatenated weights (K+H x G*H) split by 16-column blocks over the cube
// cores (`macScale` times its MACs: 1 forward, 2 for a backward's input and weight gradients),
// then one vector tile for the gates and the state update. Each step's matmul tiles wait for
// the previous step's vector tile and the vector tile for the step's last matmul tile
// (TileWork::after): the steps run one after another as the recurrence requires.
// weightAddr[l*D + d]: device address of that weight_ih; es: element size of the tensors;
// written: values the vector tile writes per unit and step (states or kept values, es bytes each).
rt::OpWork rnnStepWork(const RnnShape& s, const std::vector<uint64_t>& weightAddr, uint64_t outAddr,
                       uint64_t es, bool fp32, int macScale, int written);

// Checks the arguments against `s` (T, B, I, H are derived here: s gives L, D, gates, states,
// kept, flags) and builds the executor. Codes as the public op_apis: 161001 null, 161002 type,
// count or shape.
int32_t buildRnn(RnnShape s, RnnCell cell, const RnnArgs& a, uint64_t* workspaceSize,
                 aclOpExecutor** executor);

}  // namespace npusim::aclnn
