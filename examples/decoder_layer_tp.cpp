// The decoder layer of examples/decoder_layer split tensor-parallel over T NPUs (Megatron style),
// one host thread per rank, as a framework runs it:
//
//   rank r holds heads [r·N/T, (r+1)·N/T) of Wq, Wk, Wv (columns), the matching rows of Wo, and
//   columns [r·I/T, (r+1)·I/T) of the gate and up projections with the matching rows of Wd.
//   n1 = RmsNorm(x); q, k, v = n1 · W{q,k,v}_r; attention over its N/T heads; o_r = attn · Wo_r;
//   o = AllReduce(o_r); h = x + o; n2 = RmsNorm(h); a = SwiGLU(n2 · Wgu_r); d = AllReduce(a · Wd_r);
//   y = h + d.
//
// for a prefill of S tokens and one decode step at position S (KV cache per rank, its own heads).
// Each rank records an event after every operator and collective on its stream; the program prints
// rank 0's per-operator device time, the slowest rank's prefill and decode time and how much of it
// the AllReduces take. Run it on a preset with enough devices (910b-hccs: 8 NPUs on an HCCS mesh;
// 910b: the same NPUs on PCIe only).
//
//   decoder_layer_tp [--tp T] [--tokens S] [--hidden H] [--heads N] [--mlp I] [--check]
//   defaults: T 8, S 2048, H 4096, N 32, I 11008 (LLaMA-7B). --check (functional runs) checks that
//   every rank ends with the same y and that it matches a host fp32 reference within fp16 error.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_flash_attention_score.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "hccl/hccl.h"

namespace {

void fail(const char* what, int code) {
  std::fprintf(stderr, "%s failed: %d (%s)\n", what, code, aclGetRecentErrMsg());
  std::exit(1);
}
#define ACL_OK(expr) \
  if (int rc_ = static_cast<int>(expr); rc_ != 0) fail(#expr, rc_)

struct Shape {
  int64_t T = 8, S = 2048, H = 4096, N = 32, I = 11008;
  int64_t D() const { return H / N; }   // head size
  int64_t Hr() const { return H / T; }  // this rank's share of q/k/v columns
  int64_t Ir() const { return I / T; }  // this rank's share of the MLP
  int64_t Nr() const { return N / T; }  // this rank's heads
  int64_t L() const { return S + 1; }   // KV cache rows
};

// A device tensor: one allocation, dense row-major views of it.
struct DevTensor {
  void* ptr = nullptr;
  int64_t elems = 0;
  aclDataType type = ACL_FLOAT16;
  size_t size() const {
    return static_cast<size_t>(elems) * (type == ACL_FLOAT16 ? 2 : type == ACL_UINT8 ? 1 : 4);
  }
};

class Rank {
 public:
  Rank(int rank, const Shape& s, HcclComm comm) : r_(rank), s_(s), comm_(comm) {}

  // Weights of this rank's shard: fp16 multiples of 2^-16 from a per-element hash, so every
  // rank can build its shard of the same full matrices without holding them.
  void setUp() {
    ACL_OK(aclrtSetDevice(r_));
    ACL_OK(aclrtCreateStream(&stream_));
    const int64_t S = s_.S, H = s_.H, D = s_.D(), L = s_.L();
    g1_ = make(H, ACL_FLOAT16, [](int64_t i) { return 1.0f + gridValue(1, i, 0.25f); });
    g2_ = make(H, ACL_FLOAT16, [](int64_t i) { return 1.0f + gridValue(2, i, 0.25f); });
    const float ws = 1.0f / 64.0f;
    const int64_t c0 = r_ * s_.Hr(), i0 = r_ * s_.Ir();
    for (int w = 0; w < 3; ++w)  // Wq, Wk, Wv: [H, Hr], columns c0.. of the full [H, H]
      wqkv_[w] = make(H * s_.Hr(), ACL_FLOAT16,
                      [&](int64_t e) { return gridValue(3 + w, (e / s_.Hr()) * H + c0 + e % s_.Hr(), ws); });
    wo_ = make(s_.Hr() * H, ACL_FLOAT16, [&](int64_t e) { return gridValue(6, c0 * H + e, ws); });
    // [gate_r | up_r]: SwiGLU splits the last dimension in halves.
    wgu_ = make(H * 2 * s_.Ir(), ACL_FLOAT16, [&](int64_t e) {
      const int64_t row = e / (2 * s_.Ir()), col = e % (2 * s_.Ir());
      const int64_t full = col < s_.Ir() ? i0 + col : s_.I + i0 + col - s_.Ir();
      return gridValue(7, row * 2 * s_.I + full, ws);
    });
    wd_ = make(s_.Ir() * H, ACL_FLOAT16, [&](int64_t e) { return gridValue(8, i0 * H + e, 1.0f / 128.0f); });
    cos_ = make(L * D, ACL_FLOAT16, [&](int64_t e) { return std::cos(angle(e / D, e % D)); });
    sin_ = make(L * D, ACL_FLOAT16, [&](int64_t e) { return std::sin(angle(e / D, e % D)); });
    mask_ = make(2048 * 2048, ACL_UINT8, [](int64_t e) { return e % 2048 > e / 2048 ? 1.0f : 0.0f; });
    x_ = make(S * H, ACL_FLOAT16, [](int64_t e) { return gridValue(9, e, 1.0f); });
    x1_ = make(H, ACL_FLOAT16, [](int64_t e) { return gridValue(10, e, 1.0f); });
    kc_ = make(L * s_.Hr(), ACL_FLOAT16, nullptr);
    vc_ = make(L * s_.Hr(), ACL_FLOAT16, nullptr);
  }

  // The current device is per host thread: every entry point a thread calls selects it.
  void run(bool timed) {
    ACL_OK(aclrtSetDevice(r_));
    timed_ = timed;
    marks_.clear();  // (the warm-up records none)
    mark("start");
    step(s_.S, 0);
    prefillMarks_ = marks_.size();
    step(1, s_.S);
    ACL_OK(aclrtSynchronizeStream(stream_));
  }

  // Device time between consecutive marks, summed per operator name in first-seen order, for [from, to).
  std::vector<std::pair<std::string, float>> breakdown(size_t from, size_t to) const {
    std::vector<std::pair<std::string, float>> out;
    for (size_t i = std::max<size_t>(from, 1); i < to; ++i) {
      float ms = 0;
      ACL_OK(aclrtEventElapsedTime(&ms, marks_[i - 1].second, marks_[i].second));
      auto it =
          std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == marks_[i].first; });
      if (it == out.end()) it = out.insert(out.end(), {marks_[i].first, 0.0f});
      it->second += ms * 1000.0f;
    }
    return out;
  }
  float span(size_t from, size_t to) const {
    float ms = 0;
    ACL_OK(aclrtEventElapsedTime(&ms, marks_[from].second, marks_[to - 1].second));
    return ms * 1000.0f;
  }
  size_t prefillMarks() const { return prefillMarks_; }
  size_t marks() const { return marks_.size(); }
  std::vector<uint16_t> output() const {
    ACL_OK(aclrtSetDevice(r_));
    std::vector<uint16_t> y(static_cast<size_t>(s_.S * s_.H));
    ACL_OK(aclrtMemcpy(y.data(), y.size() * 2, y_.ptr, y.size() * 2, ACL_MEMCPY_DEVICE_TO_HOST));
    return y;
  }

  void tearDown() {
    ACL_OK(aclrtSetDevice(r_));
    for (auto& m : marks_) aclrtDestroyEvent(m.second);
    for (aclTensor* t : views_) aclDestroyTensor(t);
    for (void* p : allocations_) aclrtFree(p);
    aclrtDestroyStream(stream_);
    aclrtResetDevice(r_);
  }

  static float gridValue(int seed, int64_t i, float scale) {  // in [-scale, scale), step scale/1024
    uint32_t h = (static_cast<uint32_t>(i) ^ (static_cast<uint32_t>(seed) * 0x9e3779b9u)) * 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return scale * (static_cast<float>(static_cast<int32_t>(h >> 21) - 1024) / 1024.0f);
  }

 private:
  template <typename F>
  DevTensor make(int64_t elems, aclDataType type, F&& value) {
    DevTensor t;
    t.elems = elems;
    t.type = type;
    ACL_OK(aclrtMalloc(&t.ptr, std::max<size_t>(t.size(), 1), ACL_MEM_MALLOC_HUGE_FIRST));
    allocations_.push_back(t.ptr);
    if constexpr (!std::is_same_v<std::decay_t<F>, std::nullptr_t>) {
      std::vector<uint8_t> host(t.size());
      for (int64_t e = 0; e < elems; ++e) {
        const float v = value(e);
        if (type == ACL_FLOAT16) {
          const aclFloat16 h = aclFloatToFloat16(v);
          std::memcpy(&host[static_cast<size_t>(e) * 2], &h, 2);
        } else {
          host[static_cast<size_t>(e)] = static_cast<uint8_t>(v);
        }
      }
      ACL_OK(aclrtMemcpy(t.ptr, t.size(), host.data(), t.size(), ACL_MEMCPY_HOST_TO_DEVICE));
    }
    return t;
  }

  float angle(int64_t pos, int64_t i) const {
    const double inv =
        std::pow(10000.0, -2.0 * static_cast<double>(i % (s_.D() / 2)) / static_cast<double>(s_.D()));
    return static_cast<float>(static_cast<double>(pos) * inv);
  }

  aclTensor* v(const DevTensor& t, std::vector<int64_t> shape, int64_t offset = 0) {
    std::vector<int64_t> strides(shape.size(), 1);
    for (size_t i = shape.size() - 1; i > 0; --i) strides[i - 1] = strides[i] * shape[i];
    int64_t storage = t.elems;
    aclTensor* view = aclCreateTensor(shape.data(), shape.size(), t.type, strides.data(), offset,
                                      ACL_FORMAT_ND, &storage, 1, t.ptr);
    views_.push_back(view);
    return view;
  }

  DevTensor scratch(const std::string& name, int64_t elems, aclDataType type = ACL_FLOAT16) {
    auto it = scratch_.find(name);
    if (it == scratch_.end()) it = scratch_.emplace(name, make(elems, type, nullptr)).first;
    return it->second;
  }

  void mark(const char* name) {
    if (!timed_) return;
    aclrtEvent e = nullptr;
    ACL_OK(aclrtCreateEvent(&e));
    ACL_OK(aclrtRecordEvent(e, stream_));
    marks_.emplace_back(name, e);
  }

  // Runs an aclnn operator (both phases, workspace from a pool that grows) and marks it.
  template <typename Phase1, typename Phase2>
  void op(const char* name, Phase1&& phase1, Phase2 phase2) {
    uint64_t need = 0;
    aclOpExecutor* executor = nullptr;
    ACL_OK(phase1(&need, &executor));
    if (need > workspaceSize_) {
      if (workspace_ != nullptr) ACL_OK(aclrtSynchronizeStream(stream_));
      if (workspace_ != nullptr) aclrtFree(workspace_);
      ACL_OK(aclrtMalloc(&workspace_, need, ACL_MEM_MALLOC_HUGE_FIRST));
      workspaceSize_ = need;
    }
    ACL_OK(phase2(workspace_, need, executor, stream_));
    mark(name);
  }

  void allReduce(const DevTensor& t, int64_t elems) {
    const HcclResult rc = HcclAllReduce(t.ptr, t.ptr, static_cast<uint64_t>(elems), HCCL_DATA_TYPE_FP16,
                                        HCCL_REDUCE_SUM, comm_, stream_);
    if (rc != HCCL_SUCCESS) fail("HcclAllReduce", rc);
    mark("HcclAllReduce");
  }

  // One pass of the layer over `rows` tokens at positions pos0.. (the prefill: rows S from 0;
  // a decode step: one row at S).
  void step(int64_t rows, int64_t pos0) {
    const bool prefill = pos0 == 0;
    const std::string p = prefill ? "p." : "d.";
    const int64_t H = s_.H, Hr = s_.Hr(), D = s_.D(), Nr = s_.Nr(), Ir = s_.Ir(), L = pos0 + rows;
    const DevTensor& x = prefill ? x_ : x1_;
    const DevTensor n1 = scratch(p + "n1", rows * H), rstd = scratch(p + "rstd", rows, ACL_FLOAT);
    const DevTensor q = scratch(p + "q", rows * Hr), qr = scratch(p + "qr", rows * Hr);
    const DevTensor k = scratch(p + "k", rows * Hr);
    const DevTensor attn = scratch(p + "attn", rows * Hr), o = scratch(p + "o", rows * H);
    const DevTensor h = scratch(p + "h", rows * H), n2 = scratch(p + "n2", rows * H);
    const DevTensor gu = scratch(p + "gu", rows * 2 * Ir), act = scratch(p + "act", rows * Ir);
    const DevTensor dn = scratch(p + "dn", rows * H);
    const DevTensor mx = scratch(p + "mx", Nr * rows * 8, ACL_FLOAT),
                    sm = scratch(p + "sm", Nr * rows * 8, ACL_FLOAT);
    const DevTensor cs = scratch(p + "cos", rows * D), sn = scratch(p + "sin", rows * D);
    if (prefill) y_ = scratch("y", rows * H);
    const DevTensor y = prefill ? y_ : scratch("d.y", rows * H);

    auto rms = [&](const DevTensor& in, const DevTensor& g, const DevTensor& out) {
      op(
          "RmsNorm",
          [&](uint64_t* ws, aclOpExecutor** ex) {
            return aclnnRmsNormGetWorkspaceSize(v(in, {rows, H}), v(g, {H}), 1e-6, v(out, {rows, H}),
                                                v(rstd, {rows, 1}), ws, ex);
          },
          aclnnRmsNorm);
    };
    auto matmul = [&](const char* name, aclTensor* a, aclTensor* b, aclTensor* c) {
      op(
          name, [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnMmGetWorkspaceSize(a, b, c, 0, ws, ex); },
          aclnnMm);
    };
    auto add = [&](const DevTensor& a, const DevTensor& b, const DevTensor& c) {
      op(
          "Add",
          [&](uint64_t* ws, aclOpExecutor** ex) {
            const float one = 1.0f;
            aclScalar* alpha = aclCreateScalar(const_cast<float*>(&one), ACL_FLOAT);
            const int rc =
                aclnnAddGetWorkspaceSize(v(a, {rows, H}), v(b, {rows, H}), alpha, v(c, {rows, H}), ws, ex);
            aclDestroyScalar(alpha);
            return rc;
          },
          aclnnAdd);
    };

    rms(x, g1_, n1);
    matmul("Mm (q)", v(n1, {rows, H}), v(wqkv_[0], {H, Hr}), v(q, {rows, Hr}));
    matmul("Mm (k)", v(n1, {rows, H}), v(wqkv_[1], {H, Hr}), v(k, {rows, Hr}));
    // Values go straight into the cache rows of these positions.
    matmul("Mm (v)", v(n1, {rows, H}), v(wqkv_[2], {H, Hr}), v(vc_, {rows, Hr}, pos0 * Hr));
    for (const DevTensor* table : {&cos_, &sin_}) {  // the rows of these positions
      const DevTensor& out = table == &cos_ ? cs : sn;
      op(
          "Slice",
          [&](uint64_t* ws, aclOpExecutor** ex) {
            return aclnnSliceGetWorkspaceSize(v(*table, {1, s_.L(), 1, D}), 1, pos0, pos0 + rows, 1,
                                              v(out, {1, rows, 1, D}), ws, ex);
          },
          aclnnSlice);
    }
    auto rope = [&](aclTensor* in, aclTensor* out) {
      op(
          "RotaryPositionEmbedding",
          [&](uint64_t* ws, aclOpExecutor** ex) {
            return aclnnRotaryPositionEmbeddingGetWorkspaceSize(in, v(cs, {1, rows, 1, D}),
                                                                v(sn, {1, rows, 1, D}), 0, out, ws, ex);
          },
          aclnnRotaryPositionEmbedding);
    };
    rope(v(q, {1, rows, Nr, D}), v(qr, {1, rows, Nr, D}));
    rope(v(k, {1, rows, Nr, D}), v(kc_, {1, rows, Nr, D}, pos0 * Hr));  // rotated keys into the cache
    op(
        "FlashAttentionScore",
        [&](uint64_t* ws, aclOpExecutor** ex) {
          char layout[] = "BSH";
          return aclnnFlashAttentionScoreGetWorkspaceSize(
              v(qr, {1, rows, Hr}), v(kc_, {1, L, Hr}), v(vc_, {1, L, Hr}), nullptr, nullptr, nullptr,
              prefill ? v(mask_, {2048, 2048}) : nullptr, nullptr, 1.0 / std::sqrt(static_cast<double>(D)),
              1.0, 2147483647, 2147483647, Nr, layout, 0, prefill ? 3 : 0, v(mx, {1, Nr, rows, 8}),
              v(sm, {1, Nr, rows, 8}), nullptr, v(attn, {1, rows, Hr}), ws, ex);
        },
        aclnnFlashAttentionScore);
    matmul("Mm (o)", v(attn, {rows, Hr}), v(wo_, {Hr, H}), v(o, {rows, H}));
    allReduce(o, rows * H);
    add(x, o, h);
    rms(h, g2_, n2);
    matmul("Mm (gate|up)", v(n2, {rows, H}), v(wgu_, {H, 2 * Ir}), v(gu, {rows, 2 * Ir}));
    op(
        "SwiGlu",
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnSwiGluGetWorkspaceSize(v(gu, {rows, 2 * Ir}), -1, v(act, {rows, Ir}), ws, ex);
        },
        aclnnSwiGlu);
    matmul("Mm (down)", v(act, {rows, Ir}), v(wd_, {Ir, H}), v(dn, {rows, H}));
    allReduce(dn, rows * H);
    add(h, dn, y);
  }

  int r_;
  Shape s_;
  HcclComm comm_;
  aclrtStream stream_ = nullptr;
  bool timed_ = false;
  DevTensor g1_, g2_, wqkv_[3], wo_, wgu_, wd_, cos_, sin_, mask_, x_, x1_, kc_, vc_, y_;
  std::map<std::string, DevTensor> scratch_;
  std::vector<std::pair<std::string, aclrtEvent>> marks_;
  size_t prefillMarks_ = 0;
  std::vector<aclTensor*> views_;
  std::vector<void*> allocations_;
  void* workspace_ = nullptr;
  uint64_t workspaceSize_ = 0;
};

// ---- host reference of the prefill (fp32, fp16 where the device stores fp16), for --check ----

using Host = std::vector<float>;

float half(float x) { return aclFloat16ToFloat(aclFloatToFloat16(x)); }

Host matrix(int seed, int64_t rows, int64_t cols, float scale) {
  Host m(static_cast<size_t>(rows * cols));
  for (int64_t e = 0; e < rows * cols; ++e) m[e] = half(Rank::gridValue(seed, e, scale));
  return m;
}

Host times(const Host& a, const Host& b, int64_t rows, int64_t inner, int64_t cols) {
  Host c(static_cast<size_t>(rows * cols), 0.0f);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t k = 0; k < inner; ++k)
      for (int64_t j = 0; j < cols; ++j) c[i * cols + j] += a[i * inner + k] * b[k * cols + j];
  for (float& x : c) x = half(x);
  return c;
}

Host normed(const Host& x, int gainSeed, int64_t rows, int64_t H) {
  Host out(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    double squares = 0;
    for (int64_t i = 0; i < H; ++i) squares += static_cast<double>(x[r * H + i]) * x[r * H + i];
    const double scale = 1.0 / std::sqrt(squares / static_cast<double>(H) + 1e-6);
    for (int64_t i = 0; i < H; ++i)
      out[r * H + i] =
          half(static_cast<float>(x[r * H + i] * scale) * half(1.0f + Rank::gridValue(gainSeed, i, 0.25f)));
  }
  return out;
}

Host referencePrefill(const Shape& s) {
  const int64_t S = s.S, H = s.H, D = s.D(), I = s.I;
  const Host x = matrix(9, S, H, 1.0f);
  const Host n1 = normed(x, 1, S, H);
  const float ws = 1.0f / 64.0f;
  Host qkv[3];
  for (int w = 0; w < 3; ++w) qkv[w] = times(n1, matrix(3 + w, H, H, ws), S, H, H);
  for (int w = 0; w < 2; ++w) {  // rotate q and k (rotate-half), positions 0..S-1
    Host rotated(qkv[w].size());
    for (int64_t t = 0; t < S; ++t)
      for (int64_t c = 0; c < H; ++c) {
        const int64_t i = c % D, base = t * H + c - i;
        const double inv =
            std::pow(10000.0, -2.0 * static_cast<double>(i % (D / 2)) / static_cast<double>(D));
        const float cs = half(static_cast<float>(std::cos(t * inv))),
                    sn = half(static_cast<float>(std::sin(t * inv)));
        const float other = i < D / 2 ? -qkv[w][base + i + D / 2] : qkv[w][base + i - D / 2];
        rotated[t * H + c] = half(qkv[w][t * H + c] * cs + other * sn);
      }
    qkv[w] = rotated;
  }
  Host attn(static_cast<size_t>(S * H));
  for (int64_t n = 0; n < s.N; ++n)
    for (int64_t t = 0; t < S; ++t) {
      std::vector<double> score(static_cast<size_t>(t + 1));
      double top = -1e300, total = 0;
      for (int64_t u = 0; u <= t; ++u) {
        double dot = 0;
        for (int64_t i = 0; i < D; ++i) dot += qkv[0][t * H + n * D + i] * qkv[1][u * H + n * D + i];
        score[u] = dot / std::sqrt(static_cast<double>(D));
        top = std::max(top, score[u]);
      }
      for (double& e : score) total += (e = std::exp(e - top));
      for (int64_t i = 0; i < D; ++i) {
        double acc = 0;
        for (int64_t u = 0; u <= t; ++u) acc += score[u] * qkv[2][u * H + n * D + i];
        attn[t * H + n * D + i] = half(static_cast<float>(acc / total));
      }
    }
  const Host o = times(attn, matrix(6, H, H, ws), S, H, H);
  Host h(x.size());
  for (size_t e = 0; e < h.size(); ++e) h[e] = half(x[e] + o[e]);
  const Host gu = times(normed(h, 2, S, H), matrix(7, H, 2 * I, ws), S, H, 2 * I);
  Host act(static_cast<size_t>(S * I));
  for (int64_t t = 0; t < S; ++t)
    for (int64_t i = 0; i < I; ++i) {
      const float a = gu[t * 2 * I + i], b = gu[t * 2 * I + I + i];
      act[t * I + i] = half(a / (1.0f + std::exp(-a)) * b);
    }
  const Host dn = times(act, matrix(8, I, H, 1.0f / 128.0f), S, I, H);
  Host y(x.size());
  for (size_t e = 0; e < y.size(); ++e) y[e] = half(h[e] + dn[e]);
  return y;
}

}  // namespace

int main(int argc, char** argv) {
  Shape s;
  bool check = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    int64_t* field = a == "--tp"       ? &s.T
                     : a == "--tokens" ? &s.S
                     : a == "--hidden" ? &s.H
                     : a == "--heads"  ? &s.N
                     : a == "--mlp"    ? &s.I
                                       : nullptr;
    if (field != nullptr && i + 1 < argc) {
      *field = std::atoll(argv[++i]);
    } else if (a == "--check") {
      check = true;
    } else {
      std::fprintf(stderr, "usage: %s [--tp T] [--tokens S] [--hidden H] [--heads N] [--mlp I] [--check]\n",
                   argv[0]);
      return 2;
    }
  }
  if (s.T < 1 || s.S < 1 || s.S > 2048 || s.N % s.T != 0 || s.H % s.N != 0 || s.I % s.T != 0 ||
      s.D() % 2 != 0) {
    std::fprintf(stderr, "need T | heads, heads | hidden, T | mlp, an even head size and 1..2048 tokens\n");
    return 2;
  }
  ACL_OK(aclInit(nullptr));
  uint32_t devices = 0;
  ACL_OK(aclrtGetDeviceCount(&devices));
  if (static_cast<int64_t>(devices) < s.T) {
    std::fprintf(stderr, "--tp %lld needs %lld devices, the preset has %u (try NPUSIM_CONFIG=910b-hccs)\n",
                 static_cast<long long>(s.T), static_cast<long long>(s.T), devices);
    return 2;
  }
  std::printf(
      "decoder layer, tensor-parallel over %lld NPUs: %lld tokens, hidden %lld, %lld heads, MLP %lld, fp16\n",
      static_cast<long long>(s.T), static_cast<long long>(s.S), static_cast<long long>(s.H),
      static_cast<long long>(s.N), static_cast<long long>(s.I));

  std::vector<int32_t> ids(static_cast<size_t>(s.T));
  for (int32_t r = 0; r < s.T; ++r) ids[r] = r;
  std::vector<HcclComm> comms(ids.size());
  if (HcclResult rc = HcclCommInitAll(static_cast<uint32_t>(s.T), ids.data(), comms.data());
      rc != HCCL_SUCCESS)
    fail("HcclCommInitAll", rc);
  std::vector<Rank> ranks;
  for (int r = 0; r < s.T; ++r) ranks.emplace_back(r, s, comms[r]);
  auto onEveryRank = [&](auto&& body) {
    std::vector<std::thread> threads;
    for (Rank& rank : ranks) threads.emplace_back([&rank, &body] { body(rank); });
    for (std::thread& t : threads) t.join();
  };
  onEveryRank([](Rank& rank) { rank.setUp(); });
  onEveryRank([](Rank& rank) { rank.run(false); });  // warm-up: caches, workspaces, first-touch
  onEveryRank([](Rank& rank) { rank.run(true); });

  // The slowest rank sets each phase's time; rank 0's breakdown shows where it goes.
  float prefillUs = 0, decodeUs = 0;
  for (const Rank& rank : ranks) {
    prefillUs = std::max(prefillUs, rank.span(0, rank.prefillMarks()));
    decodeUs = std::max(decodeUs, rank.span(rank.prefillMarks() - 1, rank.marks()));
  }
  const Rank& r0 = ranks[0];
  const auto prefillOps = r0.breakdown(0, r0.prefillMarks()),
             decodeOps = r0.breakdown(r0.prefillMarks(), r0.marks());
  std::printf("prefill %.1f us, decode step %.1f us (device time, slowest rank)\n", prefillUs, decodeUs);
  for (const auto& [phase, ops] : {std::pair{"prefill", &prefillOps}, std::pair{"decode ", &decodeOps}}) {
    float total = 0;
    for (const auto& [name, us] : *ops) total += us;
    for (const auto& [name, us] : *ops)
      std::printf("rank 0 %s %-26s %10.1f us %5.1f %%\n", phase, name.c_str(), us, 100.0f * us / total);
  }
  std::printf("NPUSIM_METRIC prefill_us=%.3f\nNPUSIM_METRIC decode_us=%.3f\n", prefillUs, decodeUs);
  auto allReduceUs = [](const std::vector<std::pair<std::string, float>>& ops) {
    float us = 0;
    for (const auto& [name, t] : ops) us += name == "HcclAllReduce" ? t : 0.0f;
    return us;
  };
  std::printf("NPUSIM_METRIC prefill_allreduce_us=%.3f\nNPUSIM_METRIC decode_allreduce_us=%.3f\n",
              allReduceUs(prefillOps), allReduceUs(decodeOps));

  bool ok = true;
  if (check) {
    const std::vector<uint16_t> y0 = ranks[0].output();
    for (const Rank& rank : ranks) ok = ok && rank.output() == y0;
    std::printf("every rank holds the same y: %s\n", ok ? "yes" : "NO");
    const Host ref = referencePrefill(s);
    double worst = 0, scale = 0;
    for (size_t e = 0; e < ref.size(); ++e) {
      worst = std::max(worst, std::fabs(static_cast<double>(aclFloat16ToFloat(y0[e])) - ref[e]));
      scale = std::max(scale, std::fabs(static_cast<double>(ref[e])));
    }
    const bool close = worst <= 2e-2 * scale;
    std::printf("prefill against the host reference: max error %.3g of max |y| %.3g: %s\n", worst, scale,
                close ? "correct" : "WRONG");
    ok = ok && close;
  }
  onEveryRank([](Rank& rank) { rank.tearDown(); });
  for (HcclComm c : comms) HcclCommDestroy(c);
  aclFinalize();
  std::printf("decoder layer tp: %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
