// streamCopy: every byte of every length and alignment arrives, and nothing around it changes.
#include "models/common/stream_copy.h"

#include <gtest/gtest.h>

#include <vector>

TEST(StreamCopy, EveryLengthAndAlignment) {
  std::vector<uint8_t> src(700), dst(800);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 7 + 1);
  for (size_t so = 0; so < 16; so += 3)
    for (size_t dof = 0; dof < 17; ++dof)
      for (size_t n : {0u, 1u, 15u, 16u, 63u, 64u, 65u, 79u, 80u, 127u, 128u, 129u, 255u, 256u, 257u, 600u}) {
        std::fill(dst.begin(), dst.end(), 0xee);
        npusim::streamCopy(dst.data() + 32 + dof, src.data() + so, n);
        npusim::streamCopyDone();
        for (size_t i = 0; i < dst.size(); ++i) {
          const bool inside = i >= 32 + dof && i < 32 + dof + n;
          ASSERT_EQ(dst[i], inside ? src[so + i - 32 - dof] : 0xee)
              << "so=" << so << " dof=" << dof << " n=" << n;
        }
      }
}
