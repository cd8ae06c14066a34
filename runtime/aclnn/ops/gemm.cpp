#include "runtime/aclnn/ops/gemm.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#ifdef NPUSIM_HAVE_OPENBLAS
#include <cblas.h>
#include <dlfcn.h>
#endif

namespace npusim::aclnn {

namespace {

#ifdef NPUSIM_HAVE_OPENBLAS
// OpenBLAS's sgemm, loaded on the first matmul rather than linked: the library starts its
// thread pool when it is loaded, and idle pool threads spin in sched_yield for a while, which on
// a two-core machine takes a core from every program, matmul or not. Null if it is not there.
using SgemmFn = decltype(&cblas_sgemm);
SgemmFn openblasSgemm() {
  static const SgemmFn fn = []() -> SgemmFn {
    void* lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libopenblas.so", RTLD_NOW | RTLD_LOCAL);
    return lib ? reinterpret_cast<SgemmFn>(dlsym(lib, "cblas_sgemm")) : nullptr;
  }();
  return fn;
}
#endif

typedef float v4f __attribute__((vector_size(16)));

constexpr int64_t kMr = 4;    // rows of the register tile
constexpr int64_t kNr = 8;    // columns of the register tile (two 4-lane vectors)
constexpr int64_t kKc = 256;  // depth of a packed block (A panel 4x256 and B panel 256x8 stay in L1)
constexpr int64_t kNc = 512;  // columns of a packed B block (256 x 512 x 4 B = 512 KiB, L2-sized)
constexpr int64_t kMc = 64;   // rows of a packed A block

inline v4f load4(const float* p) {
  v4f v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void store4(float* p, v4f v) { std::memcpy(p, &v, sizeof v); }

// C[4 x 8] += Ap (kc x 4, interleaved by k) * Bp (kc x 8, interleaved by k).
inline void microKernel(int64_t kc, const float* Ap, const float* Bp, float* C, int64_t ldc, int64_t mr,
                        int64_t nr) {
  v4f c00 = {0, 0, 0, 0}, c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  for (int64_t k = 0; k < kc; ++k) {
    const v4f b0 = load4(Bp + k * kNr), b1 = load4(Bp + k * kNr + 4);
    const float* a = Ap + k * kMr;
    const v4f a0 = {a[0], a[0], a[0], a[0]};
    const v4f a1 = {a[1], a[1], a[1], a[1]};
    const v4f a2 = {a[2], a[2], a[2], a[2]};
    const v4f a3 = {a[3], a[3], a[3], a[3]};
    c00 += a0 * b0;
    c01 += a0 * b1;
    c10 += a1 * b0;
    c11 += a1 * b1;
    c20 += a2 * b0;
    c21 += a2 * b1;
    c30 += a3 * b0;
    c31 += a3 * b1;
  }
  float t[kMr][kNr];
  store4(t[0], c00);
  store4(t[0] + 4, c01);
  store4(t[1], c10);
  store4(t[1] + 4, c11);
  store4(t[2], c20);
  store4(t[2] + 4, c21);
  store4(t[3], c30);
  store4(t[3] + 4, c31);
  for (int64_t i = 0; i < mr; ++i) {
    for (int64_t j = 0; j < nr; ++j) C[i * ldc + j] += t[i][j];
  }
}

// Rows [m0, m1) of C for every column.
void gemmRows(int64_t m0, int64_t m1, int64_t N, int64_t K, const float* A, int64_t lda, const float* B,
              int64_t ldb, float* C, int64_t ldc) {
  for (int64_t i = m0; i < m1; ++i) std::fill(C + i * ldc, C + i * ldc + N, 0.0f);
  std::vector<float> Bp(static_cast<size_t>(kKc * ((kNc + kNr - 1) / kNr) * kNr));
  std::vector<float> Ap(static_cast<size_t>(kKc * ((kMc + kMr - 1) / kMr) * kMr));
  for (int64_t jc = 0; jc < N; jc += kNc) {
    const int64_t nc = std::min(kNc, N - jc);
    for (int64_t pc = 0; pc < K; pc += kKc) {
      const int64_t kc = std::min(kKc, K - pc);
      // Pack B[pc:pc+kc, jc:jc+nc] into kNr-wide panels, zero-padded.
      for (int64_t jr = 0; jr < nc; jr += kNr) {
        float* dst = Bp.data() + (jr / kNr) * kc * kNr;
        const int64_t nr = std::min(kNr, nc - jr);
        for (int64_t k = 0; k < kc; ++k) {
          const float* src = B + (pc + k) * ldb + jc + jr;
          int64_t j = 0;
          for (; j < nr; ++j) dst[k * kNr + j] = src[j];
          for (; j < kNr; ++j) dst[k * kNr + j] = 0.0f;
        }
      }
      for (int64_t ic = m0; ic < m1; ic += kMc) {
        const int64_t mc = std::min(kMc, m1 - ic);
        // Pack A[ic:ic+mc, pc:pc+kc] into kMr-tall panels, zero-padded.
        for (int64_t ir = 0; ir < mc; ir += kMr) {
          float* dst = Ap.data() + (ir / kMr) * kc * kMr;
          const int64_t mr = std::min(kMr, mc - ir);
          for (int64_t k = 0; k < kc; ++k) {
            int64_t i = 0;
            for (; i < mr; ++i) dst[k * kMr + i] = A[(ic + ir + i) * lda + pc + k];
            for (; i < kMr; ++i) dst[k * kMr + i] = 0.0f;
          }
        }
        for (int64_t jr = 0; jr < nc; jr += kNr) {
          for (int64_t ir = 0; ir < mc; ir += kMr) {
            microKernel(kc, Ap.data() + (ir / kMr) * kc * kMr, Bp.data() + (jr / kNr) * kc * kNr,
                        C + (ic + ir) * ldc + jc + jr, ldc, std::min(kMr, mc - ir), std::min(kNr, nc - jr));
          }
        }
      }
    }
  }
}

}  // namespace

void gemmF32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb,
             float* C, int64_t ldc, int threads) {
  if (M <= 0 || N <= 0) return;
  if (K <= 0) {
    for (int64_t i = 0; i < M; ++i) std::fill(C + i * ldc, C + i * ldc + N, 0.0f);
    return;
  }
#ifdef NPUSIM_HAVE_OPENBLAS
  // OpenBLAS (Debian's libopenblas-dev) when the build found it: several times faster than the
  // portable kernel below on AVX2/AVX-512 hosts (bench/ops_bench, "matmul 1024^3"). Each output
  // element is still one fp32 dot product, as on the cube.
  if (threads <= 0 && openblasSgemm() != nullptr) {
    openblasSgemm()(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(M),
                    static_cast<blasint>(N), static_cast<blasint>(K), 1.0f, A, static_cast<blasint>(lda), B,
                    static_cast<blasint>(ldb), 0.0f, C, static_cast<blasint>(ldc));
    return;
  }
#endif
  if (threads <= 0) {
    const double macs = static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(K);
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    threads = macs >= 4.0e6 ? std::min(hw, 8) : 1;
  }
  threads = static_cast<int>(std::min<int64_t>(threads, (M + kMr - 1) / kMr));
  if (threads <= 1) {
    gemmRows(0, M, N, K, A, lda, B, ldb, C, ldc);
    return;
  }
  // Split rows in kMr multiples; each thread packs its own copy of B (cheap next to the MACs).
  std::vector<std::thread> pool;
  const int64_t panels = (M + kMr - 1) / kMr;
  for (int t = 0; t < threads; ++t) {
    const int64_t p0 = panels * t / threads, p1 = panels * (t + 1) / threads;
    const int64_t m0 = p0 * kMr, m1 = std::min(M, p1 * kMr);
    if (m0 >= m1) continue;
    pool.emplace_back([=] { gemmRows(m0, m1, N, K, A, lda, B, ldb, C, ldc); });
  }
  for (std::thread& th : pool) th.join();
}

}  // namespace npusim::aclnn
