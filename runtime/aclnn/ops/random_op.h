#pragma once
// Random-number operators (ops-math random/: aclnnInplaceUniform, aclnnInplaceNormal,
// aclnnInplaceRandom, aclnnNormal*, aclnnRandperm): every value is drawn from a counter-based
// generator, Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
// SC 2011), keyed by the seed, so a call is repeatable from (seed, offset) alone and any element
// can be computed independently, as the device's random units do. Element i of a call takes the
// four 32-bit words of Philox(key = seed, counter = offset + i). The values follow the
// documented distributions but are not bit-identical to the hardware's (its mapping of counters
// to elements is not documented).
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

// The four words of Philox4x32-10 at a 128-bit counter (lo 64 bits, hi 64 bits) under a 64-bit key.
std::array<uint32_t, 4> philox(uint64_t key, uint64_t counterLo, uint64_t counterHi = 0);

// Uniform in [0, 1) with 24 random bits (fp32 resolution), from one word.
double uniformFromWord(uint32_t w);
// Standard normal from two words (Box-Muller).
double normalFromWords(uint32_t a, uint32_t b);

enum class RandomKind {
  kUniform,      // from + (to - from) * u, params {from, to}
  kNormal,       // mean + std * n; params {mean, std}, or per element from the mean/std inputs
  kInteger,      // an integer uniform in [from, to), params {from, to}
  kPermutation,  // a random permutation of 0 .. n-1 (Fisher-Yates; step i draws from counter offset + i)
  kBernoulli,    // 1 with probability params[0], else 0
  kExponential,  // -ln(v) / params[0], v uniform in (0, 1]
  kBitMask,      // dropout keep mask: bit i (byte i / 8, bit i % 8 from the least significant) is 1
                 // with probability 1 - params[0], for the params[1] elements; the rest of out is 0
};

// Where a call's stream starts: (key, first counter) from the host seed and offset, the seed
// replaced by the seed tensor's value and the offset tensor's value added when they are inputs
// (index in `in`, or -1).
std::pair<uint64_t, uint64_t> streamStart(uint64_t seed, uint64_t offset, const std::vector<HostTensor>& in,
                                          int seedInput, int offsetInput);

// 161002 unless a seed or offset tensor is one int64 element.
int32_t checkSeedTensor(const char* api, const char* name, const aclTensor* t);

// Bytes of a dropout bit mask for n elements: one bit each, rounded up to 128 bits (the docs'
// mask size, the vector unit's 128-element blocks).
int64_t bitMaskBytes(int64_t n);

struct RandomArgs {
  const aclTensor* out = nullptr;  // written (selfRef for the in-place forms)
  bool inplace = false;
  RandomKind kind = RandomKind::kUniform;
  double params[2] = {0, 1};
  const aclTensor* meanTensor = nullptr;  // kNormal: per-element mean (broadcast to out), or null
  const aclTensor* stdTensor = nullptr;   // kNormal: per-element std, or null
  uint64_t seed = 0, offset = 0;
  const aclTensor* seedTensor = nullptr;    // read when the operator runs, replacing seed
  const aclTensor* offsetTensor = nullptr;  // read when the operator runs, added to offset
  const aclTensor* shapeOf = nullptr;       // out must have this tensor's shape (aclnnBernoulli's self)
};

// Phase 1 of the distribution operators: out of an accepted type, from < to, std >= 0,
// 0 <= p <= 1, seed/offset tensors of one int64 element, a bit mask's out of the mask's bytes.
int32_t buildRandom(const OpInfo& info, const char* api, const char* opName, const RandomArgs& a,
                    uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace npusim::aclnn
