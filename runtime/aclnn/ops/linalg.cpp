// Small dense linear algebra of ops-math (issue 28): Slogdet (math/slogdet and the experimental
// folder), TriangularSolve, Qr and LinalgQr, Svd (Jacobi rotations of AᵀA: sigma descending,
// U and V one valid pair, their column signs possibly LAPACK's opposite), over batches of matrices [*, m, n]
// computed in fp64 (LU with partial pivoting, substitution, Householder reflections as LAPACK's geqrf: R's
// diagonal is -sign(x0)·|x|). Real types only: a complex tensor is 161002 (the simulator holds
// no complex values). Cost: inputs read, outputs written, and n vector passes per element (the
// O(n^3) work of an n x n factorisation spread over its n^2 elements).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_linalg_qr.h"
#include "aclnnop/aclnn_qr.h"
#include "aclnnop/aclnn_slogdet.h"
#include "aclnnop/aclnn_svd.h"
#include "aclnnop/aclnn_triangular_solve.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kReal = {ACL_FLOAT, ACL_DOUBLE};
const OpInfo kSlogdet{"aclnnSlogdet", ExecUnit::kVector, kReal, "signOut, logOut = sign and ln|det| of self"};
const OpInfo kTriangularSolve{"aclnnTriangularSolve", ExecUnit::kVector, kReal,
                              "xOut = X with op(A) X = self (A triangular), mOut = A"};
const OpInfo kQr{"aclnnQr", ExecUnit::kVector, kReal, "Q R = self, Q orthonormal, R upper triangular"};
const OpInfo kLinalgQr{"aclnnLinalgQr", ExecUnit::kVector, kReal,
                       "Q R = self; mode 0 reduced, 1 complete, 2 R only"};
const OpInfo kSvd{"aclnnSvd", ExecUnit::kVector, kReal, "input = u diag(sigma) vT, sigma descending"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kSlogdet), OpRegistrar(kTriangularSolve), OpRegistrar(kQr),
                                   OpRegistrar(kLinalgQr), OpRegistrar(kSvd)};

// SVD of the m x n row-major a: sigma (min(m, n), descending), u (m x m), v (n x n), from the
// eigen-decomposition of AᵀA by cyclic Jacobi rotations; u's columns past the non-zero
// singular values are completed by Gram-Schmidt on the unit vectors.
void svd(const double* a, int64_t m, int64_t n, std::vector<double>* sigma, std::vector<double>* u,
         std::vector<double>* v) {
  std::vector<double> g(static_cast<size_t>(n * n), 0.0);  // AᵀA
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < m; ++k) g[static_cast<size_t>(i * n + j)] += a[k * n + i] * a[k * n + j];
  v->assign(static_cast<size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) (*v)[static_cast<size_t>(i * n + i)] = 1;
  const auto G = [&](int64_t i, int64_t j) -> double& { return g[static_cast<size_t>(i * n + j)]; };
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (int64_t p = 0; p < n; ++p)
      for (int64_t q = p + 1; q < n; ++q) off += G(p, q) * G(p, q);
    if (off < 1e-30) break;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        if (G(p, q) == 0) continue;
        const double theta = (G(q, q) - G(p, p)) / (2 * G(p, q));
        const double t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int64_t k = 0; k < n; ++k) {  // G = Jᵀ G J, V = V J
          const double gp = G(k, p), gq = G(k, q);
          G(k, p) = c * gp - s * gq;
          G(k, q) = s * gp + c * gq;
        }
        for (int64_t k = 0; k < n; ++k) {
          const double gp = G(p, k), gq = G(q, k);
          G(p, k) = c * gp - s * gq;
          G(q, k) = s * gp + c * gq;
        }
        for (int64_t k = 0; k < n; ++k) {
          const double vp = (*v)[static_cast<size_t>(k * n + p)], vq = (*v)[static_cast<size_t>(k * n + q)];
          (*v)[static_cast<size_t>(k * n + p)] = c * vp - s * vq;
          (*v)[static_cast<size_t>(k * n + q)] = s * vp + c * vq;
        }
      }
    }
  }
  // order by eigenvalue, descending
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return G(x, x) > G(y, y); });
  std::vector<double> vs(static_cast<size_t>(n * n));
  for (int64_t k = 0; k < n; ++k)
    for (int64_t j = 0; j < n; ++j)
      vs[static_cast<size_t>(k * n + j)] = (*v)[static_cast<size_t>(k * n + order[static_cast<size_t>(j)])];
  *v = vs;
  const int64_t r = std::min(m, n);
  sigma->assign(static_cast<size_t>(r), 0.0);
  u->assign(static_cast<size_t>(m * m), 0.0);
  std::vector<bool> filled(static_cast<size_t>(m), false);
  for (int64_t j = 0; j < r; ++j) {
    const double sj =
        std::sqrt(std::max(0.0, G(order[static_cast<size_t>(j)], order[static_cast<size_t>(j)])));
    (*sigma)[static_cast<size_t>(j)] = sj;
    if (sj <= 1e-12) continue;
    for (int64_t i = 0; i < m; ++i) {  // u_j = A v_j / sigma_j
      double d = 0;
      for (int64_t k = 0; k < n; ++k) d += a[i * n + k] * (*v)[static_cast<size_t>(k * n + j)];
      (*u)[static_cast<size_t>(i * m + j)] = d / sj;
    }
    filled[static_cast<size_t>(j)] = true;
  }
  for (int64_t j = 0, e = 0; j < m; ++j) {  // complete u to an orthonormal basis
    if (filled[static_cast<size_t>(j)]) continue;
    for (; e < m; ++e) {
      std::vector<double> w(static_cast<size_t>(m), 0.0);
      w[static_cast<size_t>(e)] = 1;
      for (int64_t c = 0; c < m; ++c) {
        if (!filled[static_cast<size_t>(c)]) continue;
        double d = 0;
        for (int64_t i = 0; i < m; ++i) d += (*u)[static_cast<size_t>(i * m + c)] * w[static_cast<size_t>(i)];
        for (int64_t i = 0; i < m; ++i) w[static_cast<size_t>(i)] -= d * (*u)[static_cast<size_t>(i * m + c)];
      }
      double nrm = 0;
      for (double x : w) nrm += x * x;
      if (nrm < 1e-12) continue;
      for (int64_t i = 0; i < m; ++i)
        (*u)[static_cast<size_t>(i * m + j)] = w[static_cast<size_t>(i)] / std::sqrt(nrm);
      filled[static_cast<size_t>(j)] = true;
      ++e;
      break;
    }
  }
}

// sign and ln|det| of the n x n row-major matrix a (overwritten by its LU factors).
void slogdet(double* a, int64_t n, double* sign, double* logAbs) {
  double s = 1, l = 0;
  for (int64_t k = 0; k < n; ++k) {
    int64_t p = k;
    for (int64_t r = k + 1; r < n; ++r)
      if (std::fabs(a[r * n + k]) > std::fabs(a[p * n + k])) p = r;
    if (a[p * n + k] == 0) {
      *sign = 0;
      *logAbs = -std::numeric_limits<double>::infinity();
      return;
    }
    if (p != k) {
      for (int64_t c = 0; c < n; ++c) std::swap(a[k * n + c], a[p * n + c]);
      s = -s;
    }
    const double piv = a[k * n + k];
    s *= piv < 0 ? -1 : 1;
    l += std::log(std::fabs(piv));
    for (int64_t r = k + 1; r < n; ++r) {
      const double f = a[r * n + k] / piv;
      for (int64_t c = k; c < n; ++c) a[r * n + c] -= f * a[k * n + c];
    }
  }
  *sign = s;
  *logAbs = l;
}

// Householder QR of the m x n row-major a: r (m x n) upper triangular, q (m x m) orthonormal.
void householderQr(const double* a, int64_t m, int64_t n, std::vector<double>* q, std::vector<double>* r) {
  r->assign(a, a + m * n);
  q->assign(static_cast<size_t>(m * m), 0.0);
  for (int64_t i = 0; i < m; ++i) (*q)[static_cast<size_t>(i * m + i)] = 1;
  std::vector<double> v(static_cast<size_t>(m));
  for (int64_t k = 0; k < std::min(m - 1, n); ++k) {
    double norm = 0;
    for (int64_t i = k; i < m; ++i)
      norm += (*r)[static_cast<size_t>(i * n + k)] * (*r)[static_cast<size_t>(i * n + k)];
    norm = std::sqrt(norm);
    const double x0 = (*r)[static_cast<size_t>(k * n + k)];
    if (norm == std::fabs(x0)) continue;  // nothing below the diagonal: no reflection (LAPACK's tau = 0)
    const double alpha = x0 >= 0 ? -norm : norm;  // the new diagonal
    for (int64_t i = k; i < m; ++i) v[static_cast<size_t>(i)] = (*r)[static_cast<size_t>(i * n + k)];
    v[static_cast<size_t>(k)] -= alpha;
    double vv = 0;
    for (int64_t i = k; i < m; ++i) vv += v[static_cast<size_t>(i)] * v[static_cast<size_t>(i)];
    if (vv == 0) continue;
    for (int64_t c = 0; c < n; ++c) {  // R = (I - 2 v v^T / v^T v) R
      double d = 0;
      for (int64_t i = k; i < m; ++i) d += v[static_cast<size_t>(i)] * (*r)[static_cast<size_t>(i * n + c)];
      d = 2 * d / vv;
      for (int64_t i = k; i < m; ++i) (*r)[static_cast<size_t>(i * n + c)] -= d * v[static_cast<size_t>(i)];
    }
    for (int64_t rr = 0; rr < m; ++rr) {  // Q = Q (I - 2 v v^T / v^T v)
      double d = 0;
      for (int64_t i = k; i < m; ++i) d += (*q)[static_cast<size_t>(rr * m + i)] * v[static_cast<size_t>(i)];
      d = 2 * d / vv;
      for (int64_t i = k; i < m; ++i) (*q)[static_cast<size_t>(rr * m + i)] -= d * v[static_cast<size_t>(i)];
    }
    for (int64_t i = k + 1; i < m; ++i) (*r)[static_cast<size_t>(i * n + k)] = 0;
  }
}

int32_t checkIn(const char* api, const char* name, const aclTensor* t, const OpInfo& info, size_t minRank) {
  int32_t st = checkTensor(api, name, t->desc);
  if (st != kSuccess) return st;
  if (isComplex(t->desc.dtype)) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} is complex ({}): the simulator holds no complex values", name,
                            dtypeName(t->desc.dtype)));
  }
  if ((st = checkDtype(api, name, t->desc.dtype, info)) != kSuccess) return st;
  if (t->desc.rank() < minRank) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} must have at least {} dimensions, not {}", name, minRank, t->desc.rank()));
  }
  return kSuccess;
}

int32_t checkOut(const char* api, const char* name, const aclTensor* t, aclDataType dt,
                 const std::vector<int64_t>& shape) {
  int32_t st = checkTensor(api, name, t->desc);
  if (st != kSuccess) return st;
  if (t->desc.dtype != dt) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} type {} must be {}", name, dtypeName(t->desc.dtype), dtypeName(dt)));
  }
  return checkShape(api, name, t->desc.shape, shape);
}

std::vector<int64_t> batchOf(const aclTensor* t) {
  return std::vector<int64_t>(t->desc.shape.begin(), t->desc.shape.end() - 2);
}

std::vector<int64_t> withTail(std::vector<int64_t> batch, int64_t a, int64_t b) {
  batch.push_back(a);
  batch.push_back(b);
  return batch;
}

// mode: 0 reduced (Q m x k, R k x n), 1 complete (Q m x m, R m x n), 2 R only (k x n, Q empty).
int32_t buildQr(const OpInfo& info, const aclTensor* self, int mode, aclTensor* q, aclTensor* r, uint64_t* ws,
                aclOpExecutor** ex) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"Q", q}, {"R", r}});
  if (st != kSuccess) return st;
  if ((st = checkIn(api, "self", self, info, 2)) != kSuccess) return st;
  const int64_t m = self->desc.shape[self->desc.rank() - 2], n = self->desc.shape.back(), k = std::min(m, n);
  const auto batch = batchOf(self);
  const aclDataType dt = self->desc.dtype;
  const int64_t qCols = mode == 1 ? m : k, rRows = mode == 1 ? m : k;
  if (mode == 2) {
    if (q->desc.numel() != 0) return fail(api, kErrParamInvalid, "mode 2 (R only) takes an empty Q");
  } else if ((st = checkOut(api, "Q", q, dt, withTail(batch, m, qCols))) != kSuccess) {
    return st;
  }
  if ((st = checkOut(api, "R", r, dt, withTail(batch, rRows, n))) != kSuccess) return st;
  auto inst = newDense(
      info,
      [m, n, qCols, rRows, mode](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
        const std::vector<double> a = loadDense<double>(in[0]);
        const int64_t mats = m * n == 0 ? 0 : static_cast<int64_t>(a.size()) / (m * n);
        std::vector<double> qAll, rAll, qm, rm;
        for (int64_t b = 0; b < mats; ++b) {
          householderQr(a.data() + b * m * n, m, n, &qm, &rm);
          for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < qCols; ++j) qAll.push_back(qm[static_cast<size_t>(i * m + j)]);
          for (int64_t i = 0; i < rRows; ++i)
            for (int64_t j = 0; j < n; ++j) rAll.push_back(rm[static_cast<size_t>(i * n + j)]);
        }
        if (mode != 2 && !qAll.empty()) storeDense(out[0], qAll.data());
        if (!rAll.empty()) storeDense(out[1], rAll.data());
      },
      static_cast<int>(std::max(m, n)));
  inst->attrs = fmt::format("mode={}", mode);
  addInput(*inst, "self", self);
  addOutput(*inst, "Q", q);
  addOutput(*inst, "R", r);
  return makeExecutor(api, std::move(inst), ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;
#define WS uint64_t *ws, aclOpExecutor **ex

// signOut and logOut: self's batch shape, self's type. A singular matrix gives 0 and -inf.
extern "C" aclnnStatus aclnnSlogdetGetWorkspaceSize(const aclTensor* self, aclTensor* signOut,
                                                    aclTensor* logOut, WS) {
  const char* api = "aclnnSlogdetGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"signOut", signOut}, {"logOut", logOut}});
  if (st != kSuccess) return st;
  if ((st = checkIn(api, "self", self, kSlogdet, 2)) != kSuccess) return st;
  const int64_t n = self->desc.shape.back();
  if (self->desc.shape[self->desc.rank() - 2] != n) {
    return fail(api, kErrParamInvalid,
                fmt::format("self shape {} is not (*, n, n)", shapeString(self->desc.shape)));
  }
  const auto batch = batchOf(self);
  if ((st = checkOut(api, "signOut", signOut, self->desc.dtype, batch)) != kSuccess) return st;
  if ((st = checkOut(api, "logOut", logOut, self->desc.dtype, batch)) != kSuccess) return st;
  auto inst = newDense(
      kSlogdet,
      [n](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
        std::vector<double> a = loadDense<double>(in[0]);
        const size_t mats = static_cast<size_t>(out[0].numel());
        std::vector<double> sign(mats), logAbs(mats);
        for (size_t b = 0; b < mats; ++b)
          slogdet(a.data() + b * static_cast<size_t>(n * n), n, &sign[b], &logAbs[b]);
        storeDense(out[0], sign.data());
        storeDense(out[1], logAbs.data());
      },
      static_cast<int>(n));
  addInput(*inst, "self", self);
  addOutput(*inst, "signOut", signOut);
  addOutput(*inst, "logOut", logOut);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(Slogdet)

// self: b (*, n, k); A: (*, n, n) with the same batch; xOut = X (*, n, k), mOut = A.
extern "C" aclnnStatus aclnnTriangularSolveGetWorkspaceSize(const aclTensor* self, const aclTensor* A,
                                                            bool upper, bool transpose, bool unitriangular,
                                                            aclTensor* xOut, aclTensor* mOut, WS) {
  const char* api = "aclnnTriangularSolveGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"A", A}, {"xOut", xOut}, {"mOut", mOut}});
  if (st != kSuccess) return st;
  if ((st = checkIn(api, "self", self, kTriangularSolve, 2)) != kSuccess) return st;
  if ((st = checkIn(api, "A", A, kTriangularSolve, 2)) != kSuccess) return st;
  const int64_t n = A->desc.shape.back(), k = self->desc.shape.back();
  if (A->desc.shape[A->desc.rank() - 2] != n || self->desc.shape[self->desc.rank() - 2] != n ||
      batchOf(self) != batchOf(A) || self->desc.dtype != A->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("self {} and A {} must be (*, n, k) and (*, n, n) of one batch and type",
                            self->desc.brief(), A->desc.brief()));
  }
  if ((st = checkOut(api, "xOut", xOut, self->desc.dtype, self->desc.shape)) != kSuccess) return st;
  if ((st = checkOut(api, "mOut", mOut, A->desc.dtype, A->desc.shape)) != kSuccess) return st;
  auto inst = newDense(
      kTriangularSolve,
      [n, k, upper, transpose, unitriangular](const std::vector<HostTensor>& in,
                                              const std::vector<HostTensor>& out) {
        const std::vector<double> b = loadDense<double>(in[0]), a = loadDense<double>(in[1]);
        std::vector<double> x(b.size());
        const size_t mats = n == 0 ? 0 : a.size() / static_cast<size_t>(n * n);
        // op(A)[i][j]; op(A) is lower triangular when exactly one of !upper and transpose holds
        const bool lower = upper == transpose;
        for (size_t m = 0; m < mats; ++m) {
          const double* am = a.data() + m * static_cast<size_t>(n * n);
          const auto at = [&](int64_t i, int64_t j) { return transpose ? am[j * n + i] : am[i * n + j]; };
          const double* bm = b.data() + m * static_cast<size_t>(n * k);
          double* xm = x.data() + m * static_cast<size_t>(n * k);
          for (int64_t c = 0; c < k; ++c) {
            for (int64_t s = 0; s < n; ++s) {
              const int64_t i = lower ? s : n - 1 - s;
              double v = bm[i * k + c];
              for (int64_t j = 0; j < n; ++j)
                if (lower ? j < i : j > i) v -= at(i, j) * xm[j * k + c];
              xm[i * k + c] = unitriangular ? v : v / at(i, i);
            }
          }
        }
        storeDense(out[0], x.data());
        storeDense(out[1], a.data());
      },
      static_cast<int>(n));
  inst->attrs = fmt::format("upper={}, transpose={}, unitriangular={}", upper, transpose, unitriangular);
  addInput(*inst, "self", self);
  addInput(*inst, "A", A);
  addOutput(*inst, "xOut", xOut);
  addOutput(*inst, "mOut", mOut);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(TriangularSolve)

extern "C" aclnnStatus aclnnQrGetWorkspaceSize(const aclTensor* self, bool some, aclTensor* Q, aclTensor* R,
                                               WS) {
  return buildQr(kQr, self, some ? 0 : 1, Q, R, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Qr)
extern "C" aclnnStatus aclnnLinalgQrGetWorkspaceSize(const aclTensor* self, int64_t mode, aclTensor* Q,
                                                     aclTensor* R, WS) {
  if (mode < 0 || mode > 2) {
    npusim::rt::chargeOpPrepare("aclnnLinalgQrGetWorkspaceSize");
    return fail("aclnnLinalgQrGetWorkspaceSize", kErrParamInvalid,
                fmt::format("mode must be 0 (reduced), 1 (complete) or 2 (r), not {}", mode));
  }
  return buildQr(kLinalgQr, self, static_cast<int>(mode), Q, R, ws, ex);
}
NPUSIM_ACLNN_PHASE2(LinalgQr)

// fullMatrices: u (*, m, m), v (*, n, n); else u (*, m, k), v (*, n, k), k = min(m, n).
// computeUV false: only sigma is computed (u and v are not written).
extern "C" aclnnStatus aclnnSvdGetWorkspaceSize(const aclTensor* input, const bool fullMatrices,
                                                const bool computeUV, aclTensor* sigma, aclTensor* u,
                                                aclTensor* v, WS) {
  const char* api = "aclnnSvdGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"input", input}, {"sigma", sigma}, {"u", u}, {"v", v}});
  if (st != kSuccess) return st;
  if ((st = checkIn(api, "input", input, kSvd, 2)) != kSuccess) return st;
  const int64_t m = input->desc.shape[input->desc.rank() - 2], n = input->desc.shape.back(),
                k = std::min(m, n);
  const auto batch = batchOf(input);
  const aclDataType dt = input->desc.dtype;
  std::vector<int64_t> sShape = batch;
  sShape.push_back(k);
  if ((st = checkOut(api, "sigma", sigma, dt, sShape)) != kSuccess) return st;
  const int64_t uc = fullMatrices ? m : k, vc = fullMatrices ? n : k;
  if (computeUV) {
    if ((st = checkOut(api, "u", u, dt, withTail(batch, m, uc))) != kSuccess) return st;
    if ((st = checkOut(api, "v", v, dt, withTail(batch, n, vc))) != kSuccess) return st;
  }
  auto inst = newDense(
      kSvd,
      [m, n, k, uc, vc, computeUV](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
        const std::vector<double> a = loadDense<double>(in[0]);
        const int64_t mats = m * n == 0 ? 0 : static_cast<int64_t>(a.size()) / (m * n);
        std::vector<double> sAll, uAll, vAll, sg, um, vm;
        for (int64_t b = 0; b < mats; ++b) {
          svd(a.data() + b * m * n, m, n, &sg, &um, &vm);
          sAll.insert(sAll.end(), sg.begin(), sg.begin() + k);
          for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < uc; ++j) uAll.push_back(um[static_cast<size_t>(i * m + j)]);
          for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < vc; ++j) vAll.push_back(vm[static_cast<size_t>(i * n + j)]);
        }
        if (!sAll.empty()) storeDense(out[0], sAll.data());
        if (computeUV && !uAll.empty()) {
          storeDense(out[1], uAll.data());
          storeDense(out[2], vAll.data());
        }
      },
      static_cast<int>(std::max(m, n)));
  inst->attrs = fmt::format("fullMatrices={}, computeUV={}", fullMatrices, computeUV);
  addInput(*inst, "input", input);
  addOutput(*inst, "sigma", sigma);
  addOutput(*inst, "u", u);
  addOutput(*inst, "v", v);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(Svd)
