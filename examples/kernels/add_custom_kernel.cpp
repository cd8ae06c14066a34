// An Ascend C vector kernel in the usual shape: each block adds its share of two half-precision
// vectors, moving tiles through double-buffered queues (copy in, add, copy out).
#include "kernel_operator.h"

namespace {

constexpr int32_t kBuffers = 2;  // two tiles in flight per queue: copy and compute overlap

class AddTiles {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile) {
    const uint32_t perBlock = total / AscendC::GetBlockNum();
    const uint64_t first = perBlock * AscendC::GetBlockIdx();
    tile_ = tile;
    tiles_ = perBlock / tile;
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + first, perBlock);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + first, perBlock);
    z_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z) + first, perBlock);
    pipe_.InitBuffer(inX_, kBuffers, tile * sizeof(half));
    pipe_.InitBuffer(inY_, kBuffers, tile * sizeof(half));
    pipe_.InitBuffer(out_, kBuffers, tile * sizeof(half));
  }

  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < tiles_; ++i) {
      AscendC::LocalTensor<half> a = inX_.AllocTensor<half>();
      AscendC::LocalTensor<half> b = inY_.AllocTensor<half>();
      AscendC::DataCopy(a, x_[i * tile_], tile_);
      AscendC::DataCopy(b, y_[i * tile_], tile_);
      inX_.EnQue(a);
      inY_.EnQue(b);

      AscendC::LocalTensor<half> ina = inX_.DeQue<half>();
      AscendC::LocalTensor<half> inb = inY_.DeQue<half>();
      AscendC::LocalTensor<half> sum = out_.AllocTensor<half>();
      AscendC::Add(sum, ina, inb, tile_);
      out_.EnQue(sum);
      inX_.FreeTensor(ina);
      inY_.FreeTensor(inb);

      AscendC::LocalTensor<half> res = out_.DeQue<half>();
      AscendC::DataCopy(z_[i * tile_], res, tile_);
      out_.FreeTensor(res);
    }
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::QuePosition::VECIN, kBuffers> inX_, inY_;
  AscendC::TQue<AscendC::QuePosition::VECOUT, kBuffers> out_;
  AscendC::GlobalTensor<half> x_, y_, z_;
  uint32_t tile_ = 0, tiles_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total,
                                                 uint32_t tile) {
  AddTiles op;
  op.Init(x, y, z, total, tile);
  op.Process();
}
