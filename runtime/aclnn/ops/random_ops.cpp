// The random operators of ops-math random/ (issue 28) on the random engine (random_op.h):
// dsa_random_uniform (InplaceUniform, InplaceRandom and their Tensor forms, whose seed and offset
// come from device tensors), dsa_random_normal (InplaceNormal, InplaceNormalTensor),
// stateless_random_normal_v2 (Normal{Float,Tensor}{Float,Tensor}: mean and std as host floats
// or tensors), stateless_randperm (Randperm), stateless_bernoulli (Bernoulli, InplaceBernoulli)
// and dsa_gen_bit_mask (DropoutGenMask, V2, V2Tensor: the keep bit mask that
// aclnnDropoutDoMask/aclnnDropoutBackward read, dropout_mask.cpp). Types from each operator's doc.
#include <string>

#include "aclnnop/aclnn_bernoulli.h"
#include "aclnnop/aclnn_dropout_gen_mask.h"
#include "aclnnop/aclnn_normal.h"
#include "aclnnop/aclnn_normal_out.h"
#include "aclnnop/aclnn_random.h"
#include "aclnnop/aclnn_randperm.h"
#include "aclnnop/aclnn_sim_thread_exponential.h"
#include "aclnnop/aclnn_uniform.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/random_op.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kUniformTypes = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_BF16,  ACL_FLOAT16,
                                                ACL_INT16, ACL_INT8,  ACL_UINT8, ACL_DOUBLE};
const std::vector<aclDataType> kRandomTypes = {ACL_BF16,  ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT32,
                                               ACL_INT64, ACL_INT16,   ACL_INT8,  ACL_UINT8,  ACL_BOOL};
const std::vector<aclDataType> kNormalTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
const std::vector<aclDataType> kPermTypes = {ACL_INT64, ACL_INT32,   ACL_INT16,  ACL_UINT8, ACL_INT8,
                                             ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};

const OpInfo kInplaceUniform{"aclnnInplaceUniform", ExecUnit::kVector, kUniformTypes,
                             "selfRef ~ U[from, to)"};
const OpInfo kInplaceUniformTensor{"aclnnInplaceUniformTensor", ExecUnit::kVector, kUniformTypes,
                                   "selfRef ~ U[from, to), seed and offset from tensors"};
const OpInfo kInplaceRandom{"aclnnInplaceRandom", ExecUnit::kVector, kRandomTypes,
                            "selfRef ~ integers uniform in [from, to)"};
const OpInfo kInplaceRandomTensor{"aclnnInplaceRandomTensor", ExecUnit::kVector, kRandomTypes,
                                  "selfRef ~ integers uniform in [from, to), seed and offset from tensors"};
const OpInfo kInplaceNormal{"aclnnInplaceNormal", ExecUnit::kVector, kNormalTypes,
                            "selfRef ~ N(mean, std^2)"};
const OpInfo kInplaceNormalTensor{"aclnnInplaceNormalTensor", ExecUnit::kVector, kNormalTypes,
                                  "selfRef ~ N(mean, std^2), seed and offset from tensors"};
const OpInfo kNormalFloatFloat{"aclnnNormalFloatFloat", ExecUnit::kVector, kNormalTypes,
                               "out ~ N(mean, std^2)"};
const OpInfo kNormalFloatTensor{"aclnnNormalFloatTensor", ExecUnit::kVector, kNormalTypes,
                                "out_i ~ N(mean, std_i^2)"};
const OpInfo kNormalTensorFloat{"aclnnNormalTensorFloat", ExecUnit::kVector, kNormalTypes,
                                "out_i ~ N(mean_i, std^2)"};
const OpInfo kNormalTensorTensor{"aclnnNormalTensorTensor", ExecUnit::kVector, kNormalTypes,
                                 "out_i ~ N(mean_i, std_i^2)"};
const OpInfo kRandperm{"aclnnRandperm", ExecUnit::kVector, kPermTypes,
                       "out = a random permutation of 0 .. n-1"};
const std::vector<aclDataType> kBernoulliTypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_UINT8, ACL_INT8,
                                                  ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL,  ACL_BF16};
const OpInfo kBernoulli{"aclnnBernoulli", ExecUnit::kVector, kBernoulliTypes,
                        "out ~ Bernoulli(prob), self's shape"};
const OpInfo kInplaceBernoulli{"aclnnInplaceBernoulli", ExecUnit::kVector, kBernoulliTypes,
                               "selfRef ~ Bernoulli(prob)"};
// the probability's types (probDataType); the mask itself is uint8 bytes
const std::vector<aclDataType> kMaskTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const OpInfo kDropoutGenMask{"aclnnDropoutGenMask", ExecUnit::kVector, kMaskTypes,
                             "out = keep bits, each 1 with probability 1 - prob"};
const OpInfo kDropoutGenMaskV2{"aclnnDropoutGenMaskV2", ExecUnit::kVector, kMaskTypes,
                               "out = keep bits, each 1 with probability 1 - prob"};
const OpInfo kDropoutGenMaskV2Tensor{"aclnnDropoutGenMaskV2Tensor", ExecUnit::kVector, kMaskTypes,
                                     "out = keep bits, seed and offset from tensors"};
const std::vector<aclDataType> kExponentialTypes = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT};
const OpInfo kSimThreadExponential{"aclnnSimThreadExponential", ExecUnit::kVector, kExponentialTypes,
                                   "selfRef ~ Exp(lambda): -ln(1 - u) / lambda"};
const OpRegistrar kRegs2[] = {OpRegistrar(kSimThreadExponential), OpRegistrar(kBernoulli),
                              OpRegistrar(kInplaceBernoulli),     OpRegistrar(kDropoutGenMask),
                              OpRegistrar(kDropoutGenMaskV2),     OpRegistrar(kDropoutGenMaskV2Tensor)};
const OpRegistrar kRegs[] = {OpRegistrar(kInplaceUniform),    OpRegistrar(kInplaceUniformTensor),
                             OpRegistrar(kInplaceRandom),     OpRegistrar(kInplaceRandomTensor),
                             OpRegistrar(kInplaceNormal),     OpRegistrar(kInplaceNormalTensor),
                             OpRegistrar(kNormalFloatFloat),  OpRegistrar(kNormalFloatTensor),
                             OpRegistrar(kNormalTensorFloat), OpRegistrar(kNormalTensorTensor),
                             OpRegistrar(kRandperm)};

RandomArgs args(const aclTensor* out, bool inplace, RandomKind kind, double p0, double p1, uint64_t seed,
                uint64_t offset) {
  RandomArgs a;
  a.out = out;
  a.inplace = inplace;
  a.kind = kind;
  a.params[0] = p0;
  a.params[1] = p1;
  a.seed = seed;
  a.offset = offset;
  return a;
}
RandomArgs withSeedTensors(RandomArgs a, const aclTensor* seedTensor, const aclTensor* offsetTensor) {
  a.seedTensor = seedTensor;
  a.offsetTensor = offsetTensor;
  return a;
}

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::args;
using npusim::aclnn::buildRandom;
using npusim::aclnn::RandomKind;
using npusim::aclnn::withSeedTensors;

// Entry points: aclnn<Name>GetWorkspaceSize(<Params>) builds `a` for the operator `Info`.
#define NPUSIM_RANDOM(Name, Info, Params, a)                                                    \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize Params {                                 \
    return buildRandom(npusim::aclnn::Info, "aclnn" #Name "GetWorkspaceSize", "aclnn" #Name, a, \
                       workspaceSize, executor);                                                \
  }                                                                                             \
  NPUSIM_ACLNN_PHASE2(Name)

// The seed and offset tensors must both be given (161001 otherwise, as the docs' null checks).
#define NPUSIM_SEED_TENSORS_REQUIRED(Name)                                                            \
  if (seedTensor == nullptr || offsetTensor == nullptr) {                                             \
    return npusim::aclnn::fail(                                                                       \
        "aclnn" #Name "GetWorkspaceSize", npusim::aclnn::kErrParamNullptr,                            \
        std::string(seedTensor == nullptr ? "seedTensor" : "offsetTensor") + " must not be nullptr"); \
  }

NPUSIM_RANDOM(InplaceUniform, kInplaceUniform,
              (const aclTensor* selfRef, double from, double to, uint64_t seed, uint64_t offset,
               uint64_t* workspaceSize, aclOpExecutor** executor),
              args(selfRef, true, RandomKind::kUniform, from, to, seed, offset))
NPUSIM_RANDOM(InplaceRandom, kInplaceRandom,
              (const aclTensor* selfRef, int64_t from, int64_t to, int64_t seed, int64_t offset,
               uint64_t* workspaceSize, aclOpExecutor** executor),
              args(selfRef, true, RandomKind::kInteger, static_cast<double>(from), static_cast<double>(to),
                   static_cast<uint64_t>(seed), static_cast<uint64_t>(offset)))
NPUSIM_RANDOM(InplaceNormal, kInplaceNormal,
              (const aclTensor* selfRef, float mean, float std, int64_t seed, int64_t offset,
               uint64_t* workspaceSize, aclOpExecutor** executor),
              args(selfRef, true, RandomKind::kNormal, mean, std, static_cast<uint64_t>(seed),
                   static_cast<uint64_t>(offset)))
NPUSIM_RANDOM(NormalFloatFloat, kNormalFloatFloat,
              (float mean, float std, int64_t seed, int64_t offset, aclTensor* out, uint64_t* workspaceSize,
               aclOpExecutor** executor),
              args(out, false, RandomKind::kNormal, mean, std, static_cast<uint64_t>(seed),
                   static_cast<uint64_t>(offset)))
NPUSIM_RANDOM(Randperm, kRandperm,
              (int64_t n, int64_t seed, int64_t offset, aclTensor* out, uint64_t* workspaceSize,
               aclOpExecutor** executor),
              args(out, false, RandomKind::kPermutation, static_cast<double>(n), 0,
                   static_cast<uint64_t>(seed), static_cast<uint64_t>(offset)))

extern "C" aclnnStatus aclnnInplaceUniformTensorGetWorkspaceSize(const aclTensor* selfRef, double from,
                                                                 double to, const aclTensor* seedTensor,
                                                                 const aclTensor* offsetTensor,
                                                                 uint64_t offset, uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
  NPUSIM_SEED_TENSORS_REQUIRED(InplaceUniformTensor)
  return buildRandom(npusim::aclnn::kInplaceUniformTensor, "aclnnInplaceUniformTensorGetWorkspaceSize",
                     "aclnnInplaceUniformTensor",
                     withSeedTensors(args(selfRef, true, RandomKind::kUniform, from, to, 0, offset),
                                     seedTensor, offsetTensor),
                     workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceUniformTensor)

extern "C" aclnnStatus aclnnInplaceRandomTensorGetWorkspaceSize(const aclTensor* selfRef, int64_t from,
                                                                int64_t to, const aclTensor* seedTensor,
                                                                const aclTensor* offsetTensor, int64_t offset,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  NPUSIM_SEED_TENSORS_REQUIRED(InplaceRandomTensor)
  return buildRandom(npusim::aclnn::kInplaceRandomTensor, "aclnnInplaceRandomTensorGetWorkspaceSize",
                     "aclnnInplaceRandomTensor",
                     withSeedTensors(args(selfRef, true, RandomKind::kInteger, static_cast<double>(from),
                                          static_cast<double>(to), 0, static_cast<uint64_t>(offset)),
                                     seedTensor, offsetTensor),
                     workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceRandomTensor)

extern "C" aclnnStatus aclnnInplaceNormalTensorGetWorkspaceSize(const aclTensor* selfRef, float mean,
                                                                float std, const aclTensor* seedTensor,
                                                                const aclTensor* offsetTensor, int64_t offset,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  NPUSIM_SEED_TENSORS_REQUIRED(InplaceNormalTensor)
  return buildRandom(
      npusim::aclnn::kInplaceNormalTensor, "aclnnInplaceNormalTensorGetWorkspaceSize",
      "aclnnInplaceNormalTensor",
      withSeedTensors(args(selfRef, true, RandomKind::kNormal, mean, std, 0, static_cast<uint64_t>(offset)),
                      seedTensor, offsetTensor),
      workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceNormalTensor)

// Normal with a mean and/or std tensor (null is 161001).
namespace {
int32_t normalWithTensors(const npusim::aclnn::OpInfo& info, const char* api, const char* op,
                          const aclTensor* mean, float meanValue, const aclTensor* std, float stdValue,
                          bool meanIsTensor, bool stdIsTensor, int64_t seed, int64_t offset, aclTensor* out,
                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  if ((meanIsTensor && mean == nullptr) || (stdIsTensor && std == nullptr)) {
    return npusim::aclnn::fail(
        api, npusim::aclnn::kErrParamNullptr,
        std::string(meanIsTensor && mean == nullptr ? "mean" : "std") + " must not be nullptr");
  }
  npusim::aclnn::RandomArgs a = args(out, false, RandomKind::kNormal, meanValue, stdValue,
                                     static_cast<uint64_t>(seed), static_cast<uint64_t>(offset));
  a.meanTensor = mean;
  a.stdTensor = std;
  return buildRandom(info, api, op, a, workspaceSize, executor);
}
}  // namespace

extern "C" aclnnStatus aclnnNormalFloatTensorGetWorkspaceSize(float mean, const aclTensor* std, int64_t seed,
                                                              int64_t offset, aclTensor* out,
                                                              uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  return normalWithTensors(npusim::aclnn::kNormalFloatTensor, "aclnnNormalFloatTensorGetWorkspaceSize",
                           "aclnnNormalFloatTensor", nullptr, mean, std, 0, false, true, seed, offset, out,
                           workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(NormalFloatTensor)
extern "C" aclnnStatus aclnnNormalTensorFloatGetWorkspaceSize(const aclTensor* mean, float std, int64_t seed,
                                                              int64_t offset, aclTensor* out,
                                                              uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  return normalWithTensors(npusim::aclnn::kNormalTensorFloat, "aclnnNormalTensorFloatGetWorkspaceSize",
                           "aclnnNormalTensorFloat", mean, 0, nullptr, std, true, false, seed, offset, out,
                           workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(NormalTensorFloat)
extern "C" aclnnStatus aclnnNormalTensorTensorGetWorkspaceSize(const aclTensor* mean, const aclTensor* std,
                                                               int64_t seed, int64_t offset, aclTensor* out,
                                                               uint64_t* workspaceSize,
                                                               aclOpExecutor** executor) {
  return normalWithTensors(npusim::aclnn::kNormalTensorTensor, "aclnnNormalTensorTensorGetWorkspaceSize",
                           "aclnnNormalTensorTensor", mean, 0, std, 0, true, true, seed, offset, out,
                           workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(NormalTensorTensor)

// Bernoulli(prob): the prob scalar null is 161001; out takes self's shape.
namespace {
int32_t bernoulli(const npusim::aclnn::OpInfo& info, const char* api, const char* op, const aclTensor* self,
                  const aclScalar* prob, int64_t seed, int64_t offset, const aclTensor* out, bool inplace,
                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (prob == nullptr)
    return npusim::aclnn::fail(api, npusim::aclnn::kErrParamNullptr, "prob must not be nullptr");
  if (self == nullptr)
    return npusim::aclnn::fail(api, npusim::aclnn::kErrParamNullptr, "self must not be nullptr");
  npusim::aclnn::RandomArgs a = args(out, inplace, RandomKind::kBernoulli, prob->value.toDouble(), 0,
                                     static_cast<uint64_t>(seed), static_cast<uint64_t>(offset));
  a.shapeOf = self;
  return buildRandom(info, api, op, a, workspaceSize, executor);
}

// The dropout keep mask for `shape`'s elements; a null shape is 161001.
int32_t genMask(const npusim::aclnn::OpInfo& info, const char* api, const char* op, const aclIntArray* shape,
                double prob, uint64_t seed, uint64_t offset, const aclTensor* seedTensor,
                const aclTensor* offsetTensor, aclDataType probDataType, aclTensor* out,
                uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  if (shape == nullptr) return fail(api, kErrParamNullptr, "shape must not be nullptr");
  if (probDataType != ACL_FLOAT && probDataType != ACL_FLOAT16 && probDataType != ACL_BF16) {
    return fail(api, kErrParamInvalid, "probDataType must be fp32, fp16 or bf16");
  }
  int64_t n = 1;
  for (int64_t d : shape->values) {
    if (d < 0) return fail(api, kErrParamInvalid, "shape has a negative dimension");
    n *= d;
  }
  RandomArgs a =
      withSeedTensors(args(out, false, RandomKind::kBitMask, prob, static_cast<double>(n), seed, offset),
                      seedTensor, offsetTensor);
  return buildRandom(info, api, op, a, workspaceSize, executor);
}
}  // namespace

extern "C" aclnnStatus aclnnBernoulliGetWorkspaceSize(const aclTensor* self, const aclScalar* prob,
                                                      int64_t seed, int64_t offset, aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return bernoulli(npusim::aclnn::kBernoulli, "aclnnBernoulliGetWorkspaceSize", "aclnnBernoulli", self, prob,
                   seed, offset, out, false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Bernoulli)
extern "C" aclnnStatus aclnnInplaceBernoulliGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* prob,
                                                             int64_t seed, int64_t offset,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
  return bernoulli(npusim::aclnn::kInplaceBernoulli, "aclnnInplaceBernoulliGetWorkspaceSize",
                   "aclnnInplaceBernoulli", selfRef, prob, seed, offset, selfRef, true, workspaceSize,
                   executor);
}
NPUSIM_ACLNN_PHASE2(InplaceBernoulli)

extern "C" aclnnStatus aclnnDropoutGenMaskGetWorkspaceSize(const aclIntArray* shape, double prob,
                                                           int64_t seed, int64_t offset, aclTensor* out,
                                                           uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  return genMask(npusim::aclnn::kDropoutGenMask, "aclnnDropoutGenMaskGetWorkspaceSize", "aclnnDropoutGenMask",
                 shape, prob, static_cast<uint64_t>(seed), static_cast<uint64_t>(offset), nullptr, nullptr,
                 ACL_FLOAT, out, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(DropoutGenMask)
extern "C" aclnnStatus aclnnDropoutGenMaskV2GetWorkspaceSize(const aclIntArray* shape, double prob,
                                                             int64_t seed, int64_t offset,
                                                             aclDataType probDataType, aclTensor* out,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
  return genMask(npusim::aclnn::kDropoutGenMaskV2, "aclnnDropoutGenMaskV2GetWorkspaceSize",
                 "aclnnDropoutGenMaskV2", shape, prob, static_cast<uint64_t>(seed),
                 static_cast<uint64_t>(offset), nullptr, nullptr, probDataType, out, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(DropoutGenMaskV2)
extern "C" aclnnStatus aclnnDropoutGenMaskV2TensorGetWorkspaceSize(const aclIntArray* shape, double prob,
                                                                   const aclTensor* seedTensor,
                                                                   const aclTensor* offsetTensor,
                                                                   int64_t offset, aclDataType probDataType,
                                                                   aclTensor* out, uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor) {
  NPUSIM_SEED_TENSORS_REQUIRED(DropoutGenMaskV2Tensor)
  return genMask(npusim::aclnn::kDropoutGenMaskV2Tensor, "aclnnDropoutGenMaskV2TensorGetWorkspaceSize",
                 "aclnnDropoutGenMaskV2Tensor", shape, prob, 0, static_cast<uint64_t>(offset), seedTensor,
                 offsetTensor, probDataType, out, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(DropoutGenMaskV2Tensor)

// SimThreadExponential: `count` values of Exp(lambda) fill selfRef (count must be its element
// count: the examples pass it so and the doc does not say what the rest would hold).
extern "C" aclnnStatus aclnnSimThreadExponentialGetWorkspaceSize(aclTensor* selfRef, int64_t count,
                                                                 double lambda, int64_t seed, int64_t offset,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnSimThreadExponentialGetWorkspaceSize";
  if (selfRef != nullptr && count != selfRef->desc.numel()) {
    return fail(api, kErrParamInvalid,
                "count (" + std::to_string(count) + ") must be selfRef's element count (" +
                    std::to_string(selfRef->desc.numel()) + ")");
  }
  return buildRandom(kSimThreadExponential, api, "aclnnSimThreadExponential",
                     args(selfRef, true, RandomKind::kExponential, lambda, static_cast<double>(count),
                          static_cast<uint64_t>(seed), static_cast<uint64_t>(offset)),
                     workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(SimThreadExponential)
