#pragma once
// The normalisation engine: batch, group, layer and RMS norms, their add/activation fusions,
// their gradients, the vector norms and the masked softmaxes. An operator is its phase 1 (the
// checks its documentation states, then a NormInstance naming its tensors) and a kernel on
// dense fp64 copies of those tensors; the engine owns the tensor plumbing (optional tensors by
// name, strided views, one rounding per output), the row statistics and the cost model.
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/base/tensor.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

class NormInstance;

// What a kernel sees: the instance's tensors by the names phase 1 gave them.
class NormIo {
 public:
  NormIo(const NormInstance& op, const std::vector<HostTensor>& in, const std::vector<HostTensor>& out)
      : op_(op), in_(in), out_(out) {}
  bool hasIn(const std::string& name) const;
  bool hasOut(const std::string& name) const;
  // Dense row-major copy of an input; `fill` repeated `n` times when the input is absent.
  std::vector<double> load(const std::string& name) const;
  std::vector<double> loadOr(const std::string& name, size_t n, double fill) const;
  // Writes an output (no-op when absent); values rounded once to its type.
  void store(const std::string& name, const std::vector<double>& v) const;

 private:
  const NormInstance& op_;
  const std::vector<HostTensor>& in_;
  const std::vector<HostTensor>& out_;
};

using NormKernel = std::function<void(const NormIo&)>;

class NormInstance : public OpInstanceBase<NormInstance> {
 public:
  NormInstance(const char* opName, NormKernel k, int vectorPasses)
      : kernel(std::move(k)), passes(vectorPasses) {
    name = opName;
  }
  // Adds a tensor under `argName` unless it is null (optional arguments).
  void input(const char* argName, const aclTensor* t);
  void output(const char* argName, const aclTensor* t, int alias = -1);
  int inputIndex(const std::string& argName) const;   // -1 when absent
  int outputIndex(const std::string& argName) const;  // -1 when absent

  // Every tensor read once and written once, the vector unit making `passes` passes over the
  // largest tensor (statistics, normalise, affine...).
  rt::OpWork work() const override;
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override;

  NormKernel kernel;
  int passes;
};

// The element types of the family's data tensors.
inline const std::initializer_list<aclDataType> kNormFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// One tensor argument of phase 1.
struct NormArg {
  const char* name;
  const aclTensor* t;
  bool optional = false;
};

// 161001 for a null required argument, then checkTensor on every present one.
int32_t checkNormArgs(const char* api, std::initializer_list<NormArg> args);
// 161002 unless every present argument's type is in `info`'s list.
int32_t checkNormTypes(const char* api, const OpInfo& info, std::initializer_list<NormArg> args);
// 161002 unless every present argument has the first present one's type.
int32_t checkSameType(const char* api, std::initializer_list<NormArg> args);
// 161002 unless the type is one of `allowed`.
int32_t checkTypeIn(const char* api, const NormArg& a, std::initializer_list<aclDataType> allowed);
// 161002 unless a present argument has `shape`.
int32_t checkArgShape(const char* api, const NormArg& a, const std::vector<int64_t>& shape);
// 161002 unless a present argument has `n` elements.
int32_t checkArgNumel(const char* api, const NormArg& a, int64_t n);
// 161002 unless `tail` equals the trailing dimensions of `x` (gamma of a layer/RMS norm).
int32_t checkTrailing(const char* api, const NormArg& tail, const std::vector<int64_t>& x);
// The three flags of a backward's outputMask (input, weight, bias gradients): 161001 when null,
// 161002 unless it has three.
int32_t readOutputMask(const char* api, const aclBoolArray* outputMask, bool mask[3]);
// x's shape with its last `normDims` dimensions set to 1 (the shape of a norm's mean/rstd).
std::vector<int64_t> statShape(const std::vector<int64_t>& x, size_t normDims);

// Phase 1's end: builds the executor.
int32_t launchNorm(const char* api, std::unique_ptr<NormInstance> inst, uint64_t* workspaceSize,
                   aclOpExecutor** executor);

// Mean and 1/sqrt(var + eps) of n values (biased variance); `centred` false gives the RMS
// norm's statistics (mean 0, rstd = 1/sqrt(mean(x^2) + eps)).
struct RowStats {
  double mean, rstd;
};
RowStats rowStats(const double* x, int64_t n, double eps, bool centred);

// Layer-norm backward over rows of n elements given the saved statistics: dx, and adds
// dy*xhat and dy into dgamma / dbeta (size n). `g` (size n) multiplies dy first.
void layerNormBackwardRows(const std::vector<double>& dy, const std::vector<double>& x,
                           const std::vector<double>& mean, const std::vector<double>& rstd,
                           const std::vector<double>& g, int64_t n, std::vector<double>* dx,
                           std::vector<double>* dgamma, std::vector<double>* dbeta);

}  // namespace npusim::aclnn
