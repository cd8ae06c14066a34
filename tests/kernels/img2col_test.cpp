// img2col LoadData (LoadData3DParamsV2, docs/kernels.md "Cube kernels"): what it leaves in L0A/L0B
// equals, element by element, the img2col matrix of CANN's reference (rows: output positions,
// columns: (c1, kh, kw, c0)) in the destination's fractal layout; a convolution done as img2col +
// Mmad + Fixpipe equals a direct convolution on the host; a load-bound kernel moves its bytes at
// the MTE1 rate.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_conv3x3.h"
#include "aclrtlaunch_k_img2col_layout.h"
#include "aclrtlaunch_k_img2col_matmul.h"
#include "aclrtlaunch_k_img2col_misuse.h"
#include "aclrtlaunch_k_img2col_repeat.h"
#include "ascendc/tikicpulib.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/kernels/dev_buffer.h"

extern "C" __global__ __aicore__ void k_conv3x3(GM_ADDR x, GM_ADDR wz, GM_ADDR y, uint32_t h, uint32_t w,
                                                uint32_t cin, uint32_t cout, uint32_t stride, uint32_t pad);

using aicore_test::Session;
using kernel_test::Dev;

namespace {

// k_img2col_layout's arguments, in its order.
struct Img2col {
  uint32_t target, type, registers, l1H, l1W, channels, filterH, filterW, strideH, strideW, dilationH,
      dilationW, padLeft, padRight, padTop, padBottom, padValue, mStart, mExtension, kStart, kExtension;
  uint32_t repeatTime = 0, repeatStride = 0;  // repeats along M (repeatTime 0: no SetLoadDataRepeat)
};

// The feature map element (c, h, w) is a distinct small integer, exact in half and float; stored
// in NC1HWC0 with C0 = c0.
float mapValue(uint32_t c, uint32_t h, uint32_t w) {
  return static_cast<float>((c * 131 + h * 17 + w * 5) % 1000);
}

// Element (m, k) of the img2col matrix, from the definitions: row m is output position
// (m / Wo, m % Wo), column k is (channel block, kh, kw, channel in block) in that order.
float img2col(const Img2col& a, uint32_t c0, uint32_t m, uint32_t k) {
  const int64_t spanW = (int64_t{a.filterW} - 1) * a.dilationW + 1;
  const int64_t wo = (int64_t{a.l1W} + a.padLeft + a.padRight - spanW) / a.strideW + 1;
  const uint32_t ch = k % c0, kw = k / c0 % a.filterW, kh = k / c0 / a.filterW % a.filterH,
                 cb = k / c0 / a.filterW / a.filterH;
  const int64_t h = m / wo * a.strideH + int64_t{kh} * a.dilationH - a.padTop;
  const int64_t w = m % wo * a.strideW + int64_t{kw} * a.dilationW - a.padLeft;
  if (h < 0 || h >= a.l1H || w < 0 || w >= a.l1W) return static_cast<float>(a.padValue);
  return mapValue(cb * c0 + ch, static_cast<uint32_t>(h), static_cast<uint32_t>(w));
}

// Runs k_img2col_layout and checks every element of the destination's whole fractals against the
// img2col block (rows mStart.., columns kStart..) placed as the target lays it out.
template <class T>
void checkLayout(Session& s, const Img2col& a) {
  const uint32_t c0 = 32 / sizeof(T);
  std::vector<T> map(size_t{a.channels} * a.l1H * a.l1W);
  for (uint32_t c = 0; c < a.channels; ++c)
    for (uint32_t h = 0; h < a.l1H; ++h)
      for (uint32_t w = 0; w < a.l1W; ++w)
        map[((size_t{c / c0} * a.l1H + h) * a.l1W + w) * c0 + c % c0] = static_cast<T>(mapValue(c, h, w));
  const uint32_t repeats = a.repeatTime ? a.repeatTime : 1, rows = repeats * a.mExtension;
  const uint32_t mB = (rows + 15) / 16, kB = (a.kExtension + c0 - 1) / c0;
  Dev<T> x(map), out(size_t{mB} * 16 * kB * c0);
  Dev<uint32_t> args(std::vector<uint32_t>(&a.target, &a.target + sizeof(Img2col) / 4));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_img2col_layout)(1, s.stream, x.dev, args.dev, out.dev), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const auto& got = out.read();
  for (size_t p = 0; p < got.size(); ++p) {
    const size_t f = p / (16 * c0), e = p % (16 * c0);
    uint32_t m, k;        // the block's row and column this position holds
    if (a.target == 0) {  // zZ: fractals row-major (M blocks outer), 16 x c0 row-major inside
      m = static_cast<uint32_t>(f / kB * 16 + e / c0), k = static_cast<uint32_t>(f % kB * c0 + e % c0);
    } else if (a.target == 1) {  // A = the block transposed, zZ with K along the block's rows
      k = static_cast<uint32_t>(f / mB * 16 + e / 16), m = static_cast<uint32_t>(f % mB * 16 + e % 16);
    } else {  // L0B zN, B's rows are the block's rows: fractals row-major, 16 x 16 column-major
      m = static_cast<uint32_t>(f / kB * 16 + e % 16), k = static_cast<uint32_t>(f % kB * 16 + e / 16);
    }
    if (m >= rows || k >= a.kExtension) continue;  // past the block in its last fractal: left as it was
    // Repeat i takes rows from mStart + i x repeatStride x 16.
    const uint32_t row = a.mStart + m / a.mExtension * a.repeatStride * 16 + m % a.mExtension;
    ASSERT_EQ(static_cast<float>(got[p]), img2col(a, c0, row, a.kStart + k))
        << "position " << p << " (block row " << m << ", column " << k << ")";
  }
}

}  // namespace

// L0A (zZ) of a half map, 32 channels (two C1 blocks), 9 x 7, 3 x 3 filter with stride 2 and
// dilation 2 along H, uneven padding of value 7, the block starting at row 16 and column 48;
// then from the registers (SetFmatrix, SetLoadDataPaddingValue) instead of the parameters.
TEST(Img2col, L0aHoldsTheImg2colBlockInZz) {
  Session s;
  Img2col a{0, 0, 0, 9, 7, 32, 3, 3, 2, 1, 2, 1, 1, 2, 2, 0, 7, 16, 32, 48, 160};
  checkLayout<_Float16>(s, a);
  a.registers = 1;
  checkLayout<_Float16>(s, a);
}

// enTranspose (16-bit types) puts the block's transpose in L0A; L0B takes the block with K along
// its rows (zN), as CANN's reference moves it; a float map has C0 = 8 (16 x 8 fractals in L0A).
TEST(Img2col, TransposedL0aL0bAndFloatLayouts) {
  Session s;
  const Img2col a{1, 0, 0, 6, 6, 16, 2, 3, 1, 1, 1, 1, 1, 0, 1, 1, 3, 0, 32, 16, 64};
  checkLayout<_Float16>(s, a);
  Img2col b = a;
  b.target = 2;
  checkLayout<_Float16>(s, b);
  const Img2col f{0, 1, 0, 5, 5, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 25, 8, 120};
  checkLayout<float>(s, f);
}

// SetLoadDataRepeat along M: three iterations of 16 rows, 32 rows apart (repeatStride 2), make one
// block of 48 rows, in L0A as it is and transposed, and in L0B.
TEST(Img2col, RepeatsAlongMStackTheirRows) {
  Session s;
  Img2col a{0, 0, 0, 10, 10, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0, 4, 16, 16, 96, 3, 2};
  for (uint32_t target : {0u, 1u, 2u}) {
    a.target = target;
    checkLayout<_Float16>(s, a);
  }
}

namespace {

// y = x (*) w, 3 x 3, as k_conv3x3 computes it: x and w small integers (exact in half; the products
// and their sums, under 2^24, exact in float), so img2col + Mmad (float accumulation of half
// products) must equal the direct convolution exactly.
// Runs k_conv3x3 over x and b (as laid out below) and returns y: on the device or in the CPU
// debug mode.
using ConvRun = std::function<std::vector<float>(
    const std::vector<_Float16>& x, const std::vector<_Float16>& b, size_t ySize, uint32_t h, uint32_t w,
    uint32_t cin, uint32_t cout, uint32_t stride, uint32_t pad)>;

void checkConv(const ConvRun& run, uint32_t h, uint32_t w, uint32_t cin, uint32_t cout, uint32_t stride,
               uint32_t pad) {
  const uint32_t ho = (h + 2 * pad - 3) / stride + 1, wo = (w + 2 * pad - 3) / stride + 1, k = cin * 9;
  auto xAt = [](uint32_t c, uint32_t y, uint32_t x) { return static_cast<int>((c * 7 + y * 3 + x) % 9) - 4; };
  auto wAt = [](uint32_t co, uint32_t c, uint32_t kh, uint32_t kw) {
    return static_cast<int>((co * 5 + c * 3 + kh * 2 + kw) % 7) - 3;
  };
  std::vector<_Float16> x(size_t{cin} * h * w), b(size_t{k} * cout);
  for (uint32_t c = 0; c < cin; ++c)
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t xx = 0; xx < w; ++xx)
        x[((size_t{c / 16} * h + y) * w + xx) * 16 + c % 16] = static_cast<_Float16>(xAt(c, y, xx));
  // B's row r = ((c / 16 x 3 + kh) x 3 + kw) x 16 + c % 16 (img2col's column order), in zN.
  for (uint32_t c = 0; c < cin; ++c)
    for (uint32_t kh = 0; kh < 3; ++kh)
      for (uint32_t kw = 0; kw < 3; ++kw)
        for (uint32_t co = 0; co < cout; ++co) {
          const uint32_t r = ((c / 16 * 3 + kh) * 3 + kw) * 16 + c % 16;
          b[(size_t{r / 16} * (cout / 16) + co / 16) * 256 + co % 16 * 16 + r % 16] =
              static_cast<_Float16>(wAt(co, c, kh, kw));
        }
  const std::vector<float> y = run(x, b, size_t{ho} * wo * cout, h, w, cin, cout, stride, pad);
  ASSERT_EQ(y.size(), size_t{ho} * wo * cout);

  for (uint32_t oy = 0; oy < ho; ++oy)
    for (uint32_t ox = 0; ox < wo; ++ox)
      for (uint32_t co = 0; co < cout; ++co) {
        long want = 0;
        for (uint32_t c = 0; c < cin; ++c)
          for (uint32_t kh = 0; kh < 3; ++kh)
            for (uint32_t kw = 0; kw < 3; ++kw) {
              const int iy = static_cast<int>(oy * stride + kh) - static_cast<int>(pad),
                        ix = static_cast<int>(ox * stride + kw) - static_cast<int>(pad);
              if (iy >= 0 && iy < static_cast<int>(h) && ix >= 0 && ix < static_cast<int>(w))
                want +=
                    long{xAt(c, static_cast<uint32_t>(iy), static_cast<uint32_t>(ix))} * wAt(co, c, kh, kw);
            }
        ASSERT_EQ(y[(size_t{oy} * wo + ox) * cout + co], static_cast<float>(want))
            << "y[" << oy << "][" << ox << "][" << co << "]";
      }
}

}  // namespace

// N = 1, C = 16, H = W = 8, 3 x 3, stride 1, pad 1, 16 filters (fp16 in, fp32 out); then 32
// channels, 32 filters, stride 2.
TEST(Img2col, ConvolutionAsImg2colAndMmadEqualsADirectConvolution) {
  Session s;
  const ConvRun onDevice = [&s](const std::vector<_Float16>& x, const std::vector<_Float16>& b, size_t ySize,
                                uint32_t h, uint32_t w, uint32_t cin, uint32_t cout, uint32_t stride,
                                uint32_t pad) {
    Dev<_Float16> dx(x), db(b);
    Dev<float> dy(std::vector<float>(ySize, -1.0f));
    EXPECT_EQ(
        ACLRT_LAUNCH_KERNEL(k_conv3x3)(1, s.stream, dx.dev, db.dev, dy.dev, h, w, cin, cout, stride, pad),
        0u);
    EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    return dy.read();
  };
  checkConv(onDevice, 8, 8, 16, 16, 1, 1);
  checkConv(onDevice, 8, 8, 32, 32, 2, 1);
}

// The same convolution in CANN's CPU debug mode (ICPU_RUN_KF over GmAlloc memory, no device).
TEST(Img2col, ConvolutionRunsInTheCpuDebugMode) {
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  const ConvRun onCpu = [](const std::vector<_Float16>& x, const std::vector<_Float16>& b, size_t ySize,
                           uint32_t h, uint32_t w, uint32_t cin, uint32_t cout, uint32_t stride,
                           uint32_t pad) {
    auto* dx = static_cast<uint8_t*>(AscendC::GmAlloc(x.size() * sizeof(_Float16)));
    auto* db = static_cast<uint8_t*>(AscendC::GmAlloc(b.size() * sizeof(_Float16)));
    auto* dy = static_cast<uint8_t*>(AscendC::GmAlloc(ySize * sizeof(float)));
    std::memcpy(dx, x.data(), x.size() * sizeof(_Float16));
    std::memcpy(db, b.data(), b.size() * sizeof(_Float16));
    EXPECT_EQ(ICPU_RUN_KF(k_conv3x3, 1, dx, db, dy, h, w, cin, cout, stride, pad), 0);
    std::vector<float> y(ySize);
    std::memcpy(y.data(), dy, ySize * sizeof(float));
    for (uint8_t* p : {dx, db, dy}) AscendC::GmFree(p);
    return y;
  };
  checkConv(onCpu, 8, 8, 16, 16, 1, 1);
}

// img2col with a 1 x 1 filter over a matrix stored as NZ panels in L1 (height 1, width the rows)
// loads A into L0A and B into L0B, as CANN's mmad_load3dv2 example feeds Mmad: C = A x B equals
// the host's product exactly (values in eighths: products and sums exact in float).
TEST(Img2col, OneByOneImg2colFeedsAMatmul) {
  Session s;
  const uint32_t m = 48, n = 32, k = 64;
  const auto a = kernel_test::exactHalves(size_t{m} * k, 3), b = kernel_test::exactHalves(size_t{k} * n, 5);
  Dev<_Float16> da(a), db(b);
  Dev<float> dc(size_t{m} * n);
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_img2col_matmul)(1, s.stream, da.dev, db.dev, dc.dev, m, n, k), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const auto& c = dc.read();
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      double want = 0;
      for (uint32_t x = 0; x < k; ++x)
        want += static_cast<double>(a[size_t{i} * k + x]) * static_cast<double>(b[size_t{x} * n + j]);
      ASSERT_EQ(c[size_t{i} * n + j], static_cast<float>(want)) << "C[" << i << "][" << j << "]";
    }
}

// An img2col-bound kernel: 64 more loads of a 128 x 256 half block (64 KiB) take their bytes at
// aicore.mte1_bytes_per_cycle (512 B/cycle: 128 cycles each) at the core clock, plus the loop's
// own scalar work (its condition, increment, branch and the call: under 8 cycles a load). Both
// kernels run longer than the host takes to launch the next (else the host's launch would be timed).
TEST(Img2col, LoadsMoveTheirBytesAtTheMte1Rate) {
  Session s;
  Dev<_Float16> x(size_t{32} * 16 * 16);
  auto timed = [&](uint32_t repeats) {
    auto launch = [&] { ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_img2col_repeat)(1, s.stream, x.dev, repeats), 0u); };
    return aicore_test::deviceMs(s.stream, launch, launch);
  };
  const double few = timed(96), many = timed(160);
  const auto& cfg = aicore_test::config();
  const double wantMs = 64.0 * 65536 / cfg.getFloat("aicore.mte1_bytes_per_cycle") /
                        (cfg.getFloat("aicore.freq_ghz") * 1e9) * 1e3;
  std::printf("k_img2col_repeat: 96 loads %.3f us, 160 loads %.3f us; 64 x 64 KiB at the MTE1 rate %.3f us\n",
              few * 1e3, many * 1e3, wantMs * 1e3);
  const double scalarMs = 64.0 * 8 / (cfg.getFloat("aicore.freq_ghz") * 1e9) * 1e3;
  EXPECT_GE(many - few, 0.995 * wantMs);
  EXPECT_LE(many - few, wantMs + scalarMs);
}

// What LoadData (img2col) does not model, or cannot do, ends the kernel with the cube core's
// exception and the reason.
TEST(Img2col, UnsupportedOrImpossibleLoadsEndTheKernelWithTheReason) {
  Session s;
  const char* why[] = {"into L0B or with enTranspose only 16-bit types are supported",
                       "along K (repeatMode 1) with repeatTime > 1 is not supported",
                       "the filter is larger than the padded feature map"};
  for (uint32_t what = 0; what < 3; ++what) {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_img2col_misuse)(1, s.stream, what), 0u);
    EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(why[what]), std::string::npos) << aclGetRecentErrMsg();
  }
}
