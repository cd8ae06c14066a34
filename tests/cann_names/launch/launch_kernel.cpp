// A kernel in the style of the KernelLaunch "Neo" samples (check_install.cmake builds it with
// CMakeLists.txt in both run modes): its tiling struct by value, the workspace argument, queues
// with double buffering, and LeakyRelu written with Maxs/Mins.
#include "kernel_operator.h"
#include "launch_tiling.h"

using namespace AscendC;

class LeakyKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, const LeakyTiling& t) {
    tile_ = t.tileLength;
    slope_ = t.slope;
    share_ = t.totalLength / GetBlockNum();
    gx_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + share_ * GetBlockIdx(), share_);
    gz_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + share_ * GetBlockIdx(), share_);
    pipe_.InitBuffer(qx_, 2, tile_ * sizeof(float));
    pipe_.InitBuffer(qz_, 2, tile_ * sizeof(float));
    pipe_.InitBuffer(neg_, tile_ * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < share_ / tile_; ++i) {
      LocalTensor<float> in = qx_.AllocTensor<float>();
      DataCopy(in, gx_[i * tile_], tile_);
      qx_.EnQue(in);
      LocalTensor<float> x = qx_.DeQue<float>(), z = qz_.AllocTensor<float>(), n = neg_.Get<float>();
      Maxs(z, x, 0.0f, tile_);
      Mins(n, x, 0.0f, tile_);
      Muls(n, n, slope_, tile_);
      z = z + n;
      qz_.EnQue(z);
      qx_.FreeTensor(x);
      LocalTensor<float> out = qz_.DeQue<float>();
      DataCopy(gz_[i * tile_], out, tile_);
      qz_.FreeTensor(out);
    }
  }

 private:
  TPipe pipe_;
  TQue<QuePosition::VECIN, 2> qx_;
  TQue<QuePosition::VECOUT, 2> qz_;
  TBuf<QuePosition::VECCALC> neg_;
  GlobalTensor<float> gx_, gz_;
  uint32_t tile_ = 0, share_ = 0;
  float slope_ = 0;
};

extern "C" __global__ __aicore__ void leaky_launch(GM_ADDR x, GM_ADDR z, GM_ADDR workspace,
                                                   LeakyTiling tiling) {
  (void)workspace;
  LeakyKernel op;
  op.Init(x, z, tiling);
  op.Process();
}
