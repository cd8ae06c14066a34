// aclnnConvolution on the device: a ResNet-sized 3x3 layer is bound by the cube (its implicit
// GEMM's MACs at the cube peak), a 1x1 layer over 128 channels (32 MACs per byte) by the bytes
// it moves (input and weight read once, output written once, at the HBM / MTE-port rate).
#include <cstdio>

#include "aclnnop/aclnn_convolution.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/aicore/roofline.h"

using namespace aicore_test;

namespace {

// Device time of a stride-1 fp16 convolution with `pad` on every side, in microseconds.
double convUs(const Session& s, const DevTensor& x, const DevTensor& w, const DevTensor& y, int64_t pad) {
  const int64_t one[2] = {1, 1}, pads[2] = {pad, pad}, zero[2] = {0, 0};
  aclIntArray* stride = aclCreateIntArray(one, 2);
  aclIntArray* padding = aclCreateIntArray(pads, 2);
  aclIntArray* dilation = aclCreateIntArray(one, 2);
  aclIntArray* outPad = aclCreateIntArray(zero, 2);
  auto conv = [&] {
    launchOp(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnConvolutionGetWorkspaceSize(x.t, w.t, nullptr, stride, padding, dilation, false, outPad,
                                                  1, y.t, 0, ws, ex);
        },
        aclnnConvolution, s.stream);
  };
  const double us = 1e3 * deviceMs(s.stream, conv, conv);
  for (aclIntArray* a : {stride, padding, dilation, outPad}) aclDestroyIntArray(a);
  return us;
}

// A stride-1 fp16 N x C x H x W layer with a C x C x k x k kernel and `pad`: its device time and
// its cube and memory bounds, in microseconds.
struct Layer {
  double us, cubeUs, memoryUs;
};
Layer measure(int64_t N, int64_t C, int64_t H, int64_t W, int64_t k, int64_t pad) {
  Session s;
  DevTensor x({N, C, H, W}, ACL_FLOAT16), w({C, C, k, k}, ACL_FLOAT16), y({N, C, H, W}, ACL_FLOAT16);
  const double macs = static_cast<double>(N * C * H * W) * static_cast<double>(C * k * k);
  Layer l{convUs(s, x, w, y, pad), 1e6 * macs / roofline::cubeMacsPerSec(config()),
          1e6 * roofline::cubeMemorySec(config(), x.bytes + w.bytes, y.bytes)};
  std::printf("conv %ldx%ldx%ldx%ld, %ldx%ld, fp16: %.1f us; cube bound %.1f us, memory bound %.1f us\n",
              static_cast<long>(N), static_cast<long>(C), static_cast<long>(H), static_cast<long>(W),
              static_cast<long>(k), static_cast<long>(k), l.us, l.cubeUs, l.memoryUs);
  return l;
}

}  // namespace

TEST(ConvRoofline, Resnet3x3LayerRunsNearTheCubePeak) {
  npusim::test::configure("sim.functional=false");
  const Layer l = measure(8, 256, 56, 56, 3, 1);
  ASSERT_GT(l.cubeUs, 3 * l.memoryUs);  // the layer really is compute bound
  EXPECT_GE(l.us, l.cubeUs);            // nothing beats the cube
  // 25088 x 256 outputs in 128 x 256 blocks: 196 blocks are 9 waves on 24 cores for 8.2 waves
  // of work (91 %), less the first loads before the first MACs: at least 80 % of the peak.
  EXPECT_LE(l.us, l.cubeUs / 0.80);
}

TEST(ConvRoofline, PointwiseLayerMovesItsBytesAtTheMemoryRate) {
  npusim::test::configure("sim.functional=false");
  const Layer l = measure(16, 128, 64, 64, 1, 0);
  ASSERT_GT(l.memoryUs, 3 * l.cubeUs);  // the layer really is memory bound
  EXPECT_GE(l.us, 0.97 * l.memoryUs);
  EXPECT_LE(l.us, 1.25 * l.memoryUs);
}

TEST(ConvRoofline, NarrowLayerFillsL0cWithTallerBlocks) {
  // 16 output channels: blocks of 128 rows x 16 columns would use 1/16 of L0C and cost a tile
  // each (2048 of them); packed 16 row groups side by side they are 2048 x 16, and the layer
  // moves its bytes at the memory rate like a wide one.
  npusim::test::configure("sim.functional=false");
  const Layer l = measure(16, 16, 128, 128, 1, 0);
  ASSERT_GT(l.memoryUs, 3 * l.cubeUs);
  EXPECT_GE(l.us, 0.97 * l.memoryUs);
  EXPECT_LE(l.us, 1.25 * l.memoryUs);
}
