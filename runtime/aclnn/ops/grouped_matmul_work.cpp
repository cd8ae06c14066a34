#include "runtime/aclnn/ops/grouped_matmul_work.h"

#include <algorithm>

#include "runtime/aclnn/ops/matmul_geometry.h"
#include "runtime/aclnn/ops/matmul_tiling.h"

namespace npusim::aclnn {

rt::OpWork groupedMatmulWork(const GroupedMatmulCost& c) {
  const int64_t groups = std::max<int64_t>(1, std::min(c.E, c.M)), rows = (c.M + groups - 1) / groups;
  MatmulGeometry g;
  g.M = rows;
  g.N = c.N;
  g.K = c.K;
  g.batch = groups;
  g.aSm = c.K, g.aSk = 1, g.bSk = c.N, g.bSn = 1, g.cSm = c.N, g.cSn = 1;
  for (int64_t e = 0; e < groups; ++e) {
    g.aOff.push_back(std::min(e * rows, std::max<int64_t>(c.M - rows, 0)) * c.K);
    g.bOff.push_back(e * c.K * c.N);
    g.cOff.push_back(std::min(e * rows, std::max<int64_t>(c.M - rows, 0)) * c.N);
  }
  const bool int8 = c.x->dtype == ACL_INT8;
  const int64_t inEs = int8 ? 1 : c.x->dtype == ACL_FLOAT ? 4 : 2;
  const MatmulTiling t =
      planMatmul(groups, rows, c.N, c.K, std::max<int64_t>(inEs, 2), rt::coreRates().cubeCores);
  auto base = [](const TensorDesc& d) { return d.data + static_cast<uint64_t>(d.offset) * d.elementSize(); };
  const int64_t wEs = c.weightEs > 0 ? c.weightEs : static_cast<int64_t>(c.weight->elementSize());
  rt::OpWork w = matmulWork(
      t, g,
      MatmulAddressing{base(*c.x), base(*c.weight), base(*c.y), static_cast<int64_t>(c.x->elementSize()), wEs,
                       static_cast<int64_t>(c.y->elementSize()), c.x->dtype == ACL_FLOAT ? 2u : 1u});
  if (int8) w.cubeMacsPerCycleScale = 2;  // the cube's int8 rate is twice its fp16 rate
  return w;
}

}  // namespace npusim::aclnn
