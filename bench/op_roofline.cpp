// Each transformer operator's simulated device time against its roofline bound on the
// configured device (timing-only mode unless NPUSIM_SET says otherwise): memory-bound
// operators against the HBM model's streaming rate for their read/write mix, matmuls against
// max(cube peak, memory), attention against max(its causal MACs on the cube, its memory
// traffic), where cube-core memory traffic moves no faster than the HBM and than the cube cores'
// MTE ports (the "GM ports" bound: 24 x 32 B/cycle, below the HBM's rate). "net" leaves out the
// device's fixed cost per task (dispatch + task start), which every operator pays once.
//
//   op_roofline            (NPUSIM_CONFIG / NPUSIM_SET choose the device, e.g. hbm.stacks=8)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_flash_attention_score.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "tests/aicore/roofline.h"

namespace {

struct T {
  aclTensor* t = nullptr;
  void* dev = nullptr;
  uint64_t bytes = 0;
};

std::vector<void*> gAllocs;

T make(std::vector<int64_t> shape, aclDataType dt) {
  T r;
  uint64_t n = 1;
  for (int64_t d : shape) n *= static_cast<uint64_t>(d);
  r.bytes = n * (dt == ACL_FLOAT ? 4 : dt == ACL_UINT8 ? 1 : 2);
  if (aclrtMalloc(&r.dev, r.bytes, ACL_MEM_MALLOC_HUGE_FIRST) != 0) std::exit(1);
  gAllocs.push_back(r.dev);
  std::vector<int64_t> st(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) st[i - 1] = st[i] * shape[i];
  r.t = aclCreateTensor(shape.data(), shape.size(), dt, st.data(), 0, ACL_FORMAT_ND, shape.data(),
                        shape.size(), r.dev);
  return r;
}

using Phase1 = std::function<int(uint64_t*, aclOpExecutor**)>;
using Phase2 = int (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

void launch(const Phase1& p1, Phase2 p2, aclrtStream s) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  if (p1(&ws, &ex) != 0 || p2(nullptr, ws, ex, s) != 0) {
    std::fprintf(stderr, "launch failed: %s\n", aclGetRecentErrMsg());
    std::exit(1);
  }
}

// Device seconds of one launch, measured between events while a first launch keeps the stream busy.
double deviceSec(const Phase1& p1, Phase2 p2, aclrtStream s) {
  aclrtEvent a = nullptr, b = nullptr;
  aclrtCreateEvent(&a);
  aclrtCreateEvent(&b);
  launch(p1, p2, s);
  aclrtRecordEvent(a, s);
  launch(p1, p2, s);
  aclrtRecordEvent(b, s);
  aclrtSynchronizeStream(s);
  float ms = 0;
  aclrtEventElapsedTime(&ms, a, b);
  aclrtDestroyEvent(a);
  aclrtDestroyEvent(b);
  return 1e-3 * ms;
}

double gFixedSec = 0;  // the device's fixed cost per operator task: sched.dispatch_ns + aicore.task_start_ns

// "ratio" is the whole device time over the bound; "net" leaves out the fixed per-task cost.
void row(const char* name, const char* shape, double sec, double bound, const char* limit) {
  std::printf("%-22s %-30s %10.1f %10.1f %7.2f %7.2f  %s\n", name, shape, sec * 1e6, bound * 1e6, sec / bound,
              (sec - gFixedSec) / bound, limit);
}

}  // namespace

int main() {
  if (std::getenv("NPUSIM_SET") == nullptr) setenv("NPUSIM_SET", "sim.functional=false", 1);
  if (aclInit(nullptr) != 0 || aclrtSetDevice(0) != 0) return 1;
  aclrtStream s = nullptr;
  aclrtCreateStream(&s);
  const npusim::Config cfg = npusim::Config::fromEnvironment();
  const double peak = roofline::cubeMacsPerSec(cfg);
  gFixedSec = 1e-9 * (cfg.getFloat("sched.dispatch_ns") + cfg.getFloat("aicore.task_start_ns"));
  std::printf("fixed cost per operator task (sched.dispatch_ns + aicore.task_start_ns): %.1f us\n",
              gFixedSec * 1e6);
  std::printf("%-22s %-30s %10s %10s %7s %7s  %s\n", "operator", "shape (fp16)", "sim us", "bound us",
              "ratio", "net", "bound");

  const int64_t S = 2048, H = 4096, I = 11008, N = 32, D = 128;
  T x = make({S, H}, ACL_FLOAT16), y = make({S, H}, ACL_FLOAT16), z = make({S, H}, ACL_FLOAT16);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  auto mem = [&](const char* name, const char* shape, const Phase1& p1, Phase2 p2, uint64_t rd, uint64_t wr) {
    row(name, shape, deviceSec(p1, p2, s), roofline::memorySec(cfg, rd, wr), "HBM");
  };
  mem(
      "Add", "[2048,4096]",
      [&](uint64_t* w, aclOpExecutor** e) { return aclnnAddGetWorkspaceSize(x.t, y.t, alpha, z.t, w, e); },
      aclnnAdd, 2 * x.bytes, x.bytes);
  T g = make({H}, ACL_FLOAT16), rstd = make({S, 1}, ACL_FLOAT);
  mem(
      "RmsNorm", "[2048,4096]",
      [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnRmsNormGetWorkspaceSize(x.t, g.t, 1e-6, z.t, rstd.t, w, e);
      },
      aclnnRmsNorm, x.bytes + g.bytes, x.bytes + rstd.bytes);
  T gu = make({S, 2 * I}, ACL_FLOAT16), act = make({S, I}, ACL_FLOAT16);
  mem(
      "SwiGlu", "[2048,22016]->[2048,11008]",
      [&](uint64_t* w, aclOpExecutor** e) { return aclnnSwiGluGetWorkspaceSize(gu.t, -1, act.t, w, e); },
      aclnnSwiGlu, gu.bytes, act.bytes);
  T act2 = make({S, I}, ACL_FLOAT16);
  mem(
      "Silu", "[2048,11008]",
      [&](uint64_t* w, aclOpExecutor** e) { return aclnnSiluGetWorkspaceSize(act.t, act2.t, w, e); },
      aclnnSilu, act.bytes, act.bytes);
  T sc = make({8192, 2048}, ACL_FLOAT16), sc2 = make({8192, 2048}, ACL_FLOAT16);
  mem(
      "Softmax", "[8192,2048]",
      [&](uint64_t* w, aclOpExecutor** e) { return aclnnSoftmaxGetWorkspaceSize(sc.t, -1, sc2.t, w, e); },
      aclnnSoftmax, sc.bytes, sc.bytes);
  T x32 = make({S, H}, ACL_FLOAT);
  mem(
      "Cast fp16->fp32", "[2048,4096]",
      [&](uint64_t* w, aclOpExecutor** e) { return aclnnCastGetWorkspaceSize(x.t, ACL_FLOAT, x32.t, w, e); },
      aclnnCast, x.bytes, x32.bytes);
  T q4 = make({1, S, N, D}, ACL_FLOAT16), q4o = make({1, S, N, D}, ACL_FLOAT16),
    cs = make({1, S, 1, D}, ACL_FLOAT16);
  mem(
      "RotaryPositionEmb.", "[1,2048,32,128]",
      [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnRotaryPositionEmbeddingGetWorkspaceSize(q4.t, cs.t, cs.t, 0, q4o.t, w, e);
      },
      aclnnRotaryPositionEmbedding, q4.bytes + 2 * cs.bytes, q4.bytes);
  mem(
      "InplaceCopy", "[2048,4096]",
      [&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceCopyGetWorkspaceSize(z.t, x.t, w, e); },
      aclnnInplaceCopy, x.bytes, x.bytes);

  // Which bound a cube operator meets: its MACs, or its traffic at the HBM or at the ports.
  auto cubeLimit = [&](double cube, double mem, uint64_t read, uint64_t write) {
    return cube >= mem ? "cube" : roofline::cubePortsBound(cfg, read, write) ? "GM ports" : "HBM";
  };
  auto mm = [&](const char* name, const char* shape, int64_t M, int64_t K, int64_t Nn) {
    T a = make({M, K}, ACL_FLOAT16), b = make({K, Nn}, ACL_FLOAT16), c = make({M, Nn}, ACL_FLOAT16);
    const double macs = static_cast<double>(M) * static_cast<double>(K) * static_cast<double>(Nn);
    const double memB = roofline::cubeMemorySec(cfg, a.bytes + b.bytes, c.bytes), cube = macs / peak;
    row(name, shape,
        deviceSec(
            [&](uint64_t* w, aclOpExecutor** e) { return aclnnMmGetWorkspaceSize(a.t, b.t, c.t, 0, w, e); },
            aclnnMm, s),
        std::max(cube, memB), cubeLimit(cube, memB, a.bytes + b.bytes, c.bytes));
  };
  mm("Mm", "2048x4096 @ 4096x4096", S, H, H);
  mm("Mm (awkward N)", "2048x4096 @ 4096x11008", S, H, I);
  mm("Mm (awkward K)", "2048x11008 @ 11008x4096", S, I, H);
  mm("Mm (decode GEMV)", "1x4096 @ 4096x4096", 1, H, H);
  {
    T a = make({N, S, D}, ACL_FLOAT16), b = make({N, D, S}, ACL_FLOAT16), c = make({N, S, S}, ACL_FLOAT16);
    const double macs = static_cast<double>(N * S) * static_cast<double>(S * D);
    const double memB = roofline::cubeMemorySec(cfg, a.bytes + b.bytes, c.bytes), cube = macs / peak;
    row("BatchMatMul", "32 x 2048x128 @ 128x2048",
        deviceSec([&](uint64_t* w,
                      aclOpExecutor** e) { return aclnnBatchMatMulGetWorkspaceSize(a.t, b.t, c.t, 0, w, e); },
                  aclnnBatchMatMul, s),
        std::max(cube, memB), cubeLimit(cube, memB, a.bytes + b.bytes, c.bytes));
  }
  auto fa = [&](const char* name, const char* shape, int64_t S1, int64_t S2, bool causal) {
    T q = make({1, S1, H}, ACL_FLOAT16), k = make({1, S2, H}, ACL_FLOAT16), o = make({1, S1, H}, ACL_FLOAT16);
    T mx = make({1, N, S1, 8}, ACL_FLOAT), sm = make({1, N, S1, 8}, ACL_FLOAT),
      mask = make({2048, 2048}, ACL_UINT8);
    // Visible (query, key) pairs: causal from the bottom right or all.
    const double pairs = causal ? static_cast<double>(S1) * static_cast<double>(S2) -
                                      static_cast<double>(S1) * static_cast<double>(S1 - 1) / 2
                                : static_cast<double>(S1) * static_cast<double>(S2);
    const double cube = pairs * N * 2 * D / peak;
    const double memB = roofline::cubeMemorySec(cfg, q.bytes + 2 * k.bytes, o.bytes + mx.bytes + sm.bytes);
    char layout[] = "BSH";
    row(name, shape,
        deviceSec(
            [&](uint64_t* w, aclOpExecutor** e) {
              return aclnnFlashAttentionScoreGetWorkspaceSize(
                  q.t, k.t, k.t, nullptr, nullptr, nullptr, causal ? mask.t : nullptr, nullptr, 0.088, 1.0,
                  2147483647, 2147483647, N, layout, 0, causal ? 3 : 0, mx.t, sm.t, nullptr, o.t, w, e);
            },
            aclnnFlashAttentionScore, s),
        std::max(cube, memB), cubeLimit(cube, memB, q.bytes + 2 * k.bytes, o.bytes + mx.bytes + sm.bytes));
  };
  fa("FlashAttention causal", "S=2048, 32 heads x 128", S, S, true);
  fa("FlashAttention full", "S=2048, 32 heads x 128", S, S, false);
  fa("FlashAttention decode", "1 query x 2049 keys", 1, S + 1, false);

  aclDestroyScalar(alpha);
  for (void* p : gAllocs) aclrtFree(p);
  aclrtDestroyStream(s);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
