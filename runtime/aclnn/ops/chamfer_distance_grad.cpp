// aclnnChamferDistanceBackward (ops-nn loss/chamfer_distance_grad): the gradient of the chamfer
// distance between point sets xyz1 [B, N, 2] and xyz2 [B, M, 2], given the forward's nearest
// neighbours idx1 [B, N] (into xyz2) and idx2 [B, M] (into xyz1): for each point i of xyz1 with
// j = idx1[i], d = xyz1[i] - xyz2[j] adds 2 gradDist1[i] d to gradXyz1[i] and subtracts it from
// gradXyz2[j]; symmetrically for xyz2. fp32/fp16 (computed in fp64, rounded once), idx int32.
// Cost: every operand read once, both gradients written once, 4 vector passes per point.
#include <fmt/format.h>

#include "aclnnop/aclnn_chamfer_distance_backward.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{
    "aclnnChamferDistanceBackward",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16},
    "gradXyz1[i] += 2 g1[i] (xyz1[i] - xyz2[idx1[i]]), gradXyz2[idx1[i]] -= the same; symmetric"};
const OpRegistrar kRegistrar(kInfo);

class ChamferGradInstance : public OpInstanceBase<ChamferGradInstance> {
 public:
  int64_t b = 0, n = 0, m = 0;

  rt::OpWork work() const override {
    VectorPass p{&inputs, &outputs[0], b * (n + m), 3};
    p.extraWriteBytes = outputs[1].numel() * outputs[1].elementSize();
    return vectorTiles(p);
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> p1 = loadDense<double>(in[0]), p2 = loadDense<double>(in[1]),
                              g1 = loadDense<double>(in[4]), g2 = loadDense<double>(in[5]);
    const std::vector<int64_t> i1 = loadDense<int64_t>(in[2]), i2 = loadDense<int64_t>(in[3]);
    std::vector<double> d1(p1.size(), 0.0), d2(p2.size(), 0.0);
    // Points `count` of set a (batch bi), nearest neighbours `idx` in set b: their pull.
    auto pull = [](int64_t bi, int64_t count, int64_t other, const std::vector<double>& a,
                   const std::vector<double>& bset, const std::vector<int64_t>& idx,
                   const std::vector<double>& g, std::vector<double>& da, std::vector<double>& db) {
      for (int64_t i = 0; i < count; ++i) {
        const int64_t j = idx[static_cast<size_t>(bi * count + i)];
        if (j < 0 || j >= other) continue;  // an index outside the other set adds nothing
        const size_t ai = static_cast<size_t>((bi * count + i) * 2),
                     bj = static_cast<size_t>((bi * other + j) * 2);
        const double s = 2 * g[static_cast<size_t>(bi * count + i)];
        for (size_t k = 0; k < 2; ++k) {
          const double v = s * (a[ai + k] - bset[bj + k]);
          da[ai + k] += v;
          db[bj + k] -= v;
        }
      }
    };
    for (int64_t bi = 0; bi < b; ++bi) {
      pull(bi, n, m, p1, p2, i1, g1, d1, d2);
      pull(bi, m, n, p2, p1, i2, g2, d2, d1);
    }
    storeDense(out[0], d1.data());
    storeDense(out[1], d2.data());
  }
};

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnChamferDistanceBackwardGetWorkspaceSize(
    const aclTensor* xyz1, const aclTensor* xyz2, const aclTensor* idx1, const aclTensor* idx2,
    const aclTensor* gradDist1, const aclTensor* gradDist2, aclTensor* gradXyz1, aclTensor* gradXyz2,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnChamferDistanceBackwardGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const std::initializer_list<std::pair<const char*, const aclTensor*>> all = {
      {"xyz1", xyz1},           {"xyz2", xyz2},           {"idx1", idx1},         {"idx2", idx2},
      {"gradDist1", gradDist1}, {"gradDist2", gradDist2}, {"gradXyz1", gradXyz1}, {"gradXyz2", gradXyz2}};
  for (auto [name, t] : all) {
    if (t == nullptr) return checkNotNull(api, {{name, t}});
  }
  int32_t st = kSuccess;
  for (auto [name, t] : all) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    const bool index = t == idx1 || t == idx2;
    const OpInfo idx{api, ExecUnit::kVector, {ACL_INT32}, ""};
    if ((st = checkDtype(api, name, t->desc.dtype, index ? idx : kInfo)) != kSuccess) return st;
  }
  const auto& s1 = xyz1->desc.shape;
  const auto& s2 = xyz2->desc.shape;
  if (s1.size() != 3 || s1[2] != 2 || s2.size() != 3 || s2[2] != 2 || s2[0] != s1[0]) {
    return fail(api, kErrParamInvalid,
                fmt::format("xyz1 and xyz2 must be [B, N, 2] and [B, M, 2], but are {} and {}",
                            shapeString(s1), shapeString(s2)));
  }
  const std::vector<int64_t> rows1{s1[0], s1[1]}, rows2{s2[0], s2[1]};
  if ((st = checkShape(api, "idx1", idx1->desc.shape, rows1)) != kSuccess) return st;
  if ((st = checkShape(api, "gradDist1", gradDist1->desc.shape, rows1)) != kSuccess) return st;
  if ((st = checkShape(api, "idx2", idx2->desc.shape, rows2)) != kSuccess) return st;
  if ((st = checkShape(api, "gradDist2", gradDist2->desc.shape, rows2)) != kSuccess) return st;
  if ((st = checkShape(api, "gradXyz1", gradXyz1->desc.shape, s1)) != kSuccess) return st;
  if ((st = checkShape(api, "gradXyz2", gradXyz2->desc.shape, s2)) != kSuccess) return st;
  auto inst = std::make_unique<ChamferGradInstance>();
  inst->name = kInfo.name;
  inst->b = s1[0];
  inst->n = s1[1];
  inst->m = s2[1];
  for (auto [name, t] : all) {
    if (t == gradXyz1 || t == gradXyz2) {
      addOutput(*inst, name, t);
    } else {
      addInput(*inst, name, t);
    }
  }
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(ChamferDistanceBackward)
