// The example programs run as a user would run them: each binary from the build tree, its
// exit code and the lines that say what it did. They link only the public libraries, so this
// also checks that ordinary ACL programs build and run against npusim.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

struct ExampleRun {
  int exitCode = -1;
  std::string output;  // stdout and stderr
};

ExampleRun runExample(const std::string& name, const std::string& args = "", const std::string& env = "") {
  const std::string cmd =
      env + " " + std::string(NPUSIM_BINARY_DIR) + "/examples/" + name + " " + args + " 2>&1";
  ExampleRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int status = pclose(p);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

bool has(const ExampleRun& r, const std::string& text) { return r.output.find(text) != std::string::npos; }

}  // namespace

TEST(Examples, Seed000DeviceMemoryAddsOnTheDevice) {
  const ExampleRun r = runExample("seed000_device_memory");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  // A = i, B = i + 0.5, out = A + 2 B = 3 i + 1
  EXPECT_TRUE(has(r, "out = A + 2.0 * B: 1 4 7 10 13 16 19 22 25 28 31 34 37 40 43 46\n")) << r.output;
  EXPECT_TRUE(has(r, "seed 000: result correct")) << r.output;
}

TEST(Examples, Seed000NoticesTimingOnlyMode) {
  // Without host computation the output stays unwritten: the program notices and says so.
  const ExampleRun r = runExample("seed000_device_memory", "", "NPUSIM_SET=sim.functional=false");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_TRUE(has(r, "seed 000: result WRONG")) << r.output;
}

TEST(Examples, Seed001ResourcesAllocatedAndReleased) {
  const ExampleRun r = runExample("seed001_resources");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r, "seed 001: run mode ACL_HOST, resources allocated and released in order")) << r.output;
}

TEST(Examples, Seed002DataTransferInEveryDirection) {
  const ExampleRun r = runExample("seed002_data_transfer");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  for (const char* line :
       {"ok: H2H synchronous copy", "ok: H2H asynchronous copy refused", "ok: H2D asynchronous copy",
        "ok: D2H synchronous copy", "ok: D2D asynchronous copy"})
    EXPECT_TRUE(has(r, line)) << line << "\n" << r.output;
  EXPECT_FALSE(has(r, "FAILED")) << r.output;
  EXPECT_TRUE(has(r, "seed 002 data transfer: all copies correct")) << r.output;
}

TEST(Examples, MatmulChecksItsResultAndReportsTflops) {
  const ExampleRun r = runExample("matmul");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r, "matmul: result correct")) << r.output;
  EXPECT_FALSE(has(r, "WRONG")) << r.output;
  const size_t at = r.output.find("matmul fp16 1024x1024x1024: ");
  ASSERT_NE(at, std::string::npos) << r.output;
  double ms = 0, tflops = 0;
  int runs = 0;
  ASSERT_EQ(std::sscanf(r.output.c_str() + at, "matmul fp16 1024x1024x1024: %lf ms for %d runs, %lf TFLOPS",
                        &ms, &runs, &tflops),
            3)
      << r.output;
  // Below the 354 TFLOPS cube peak of 24 cores; 32 blocks on 24 cores take two waves, so a
  // 1024^3 matmul gets a bit over half of it.
  EXPECT_GT(tflops, 100.0);
  EXPECT_LT(tflops, 354.0);
}

TEST(Examples, DecoderLayerMoeVariantMatchesTheHostReference) {
  // The MoE MLP: 16 experts of intermediate 64, 4 per token, in fp16 and with W8A8 projections.
  for (const char* quant : {"", " --w8a8"}) {
    const ExampleRun r = runExample(
        "decoder_layer",
        std::string("--tokens 64 --hidden 128 --heads 4 --mlp 64 --experts 16 --topk 4 --check") + quant);
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_TRUE(has(r, "captured results identical to eager: yes")) << r.output;
    EXPECT_TRUE(has(r, "(relative): correct")) << r.output;
    for (const char* op : {"Mm (router)", "MoeGatingTopKSoftmax", "MoeInitRoutingV2",
                           "GroupedMatmul (gate|up)", "GroupedMatmul (down)", "MoeFinalizeRoutingV2"})
      EXPECT_TRUE(has(r, op)) << op << "\n" << r.output;
    EXPECT_EQ(has(r, "DynamicQuant"), quant[0] != '\0') << r.output;
  }
}

TEST(Examples, MatmulTakesItsShapeFromTheCommandLine) {
  const ExampleRun r = runExample("matmul", "256 512 128");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r, "matmul fp16 256x512x128: ")) << r.output;
  EXPECT_TRUE(has(r, "matmul: result correct")) << r.output;
}

TEST(Examples, DecoderLayerMatchesTheHostReferenceEagerAndCaptured) {
  // A small LLaMA-shaped layer: 96 tokens, hidden 256 in 4 heads of 64, MLP 688.
  const ExampleRun r = runExample("decoder_layer", "--tokens 96 --hidden 256 --heads 4 --mlp 688 --check");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r, "captured results identical to eager: yes")) << r.output;
  EXPECT_TRUE(has(r, "(relative): correct")) << r.output;
  for (const char* op : {"RmsNorm", "Mm (q)", "RotaryPositionEmbedding", "FlashAttentionScore", "SwiGlu",
                         "Slice", "InplaceCopy", "Cast"})
    EXPECT_TRUE(has(r, op)) << op << "\n" << r.output;
}

namespace {

double metric(const ExampleRun& r, const std::string& name) {
  const std::string key = "NPUSIM_METRIC " + name + "=";
  const size_t at = r.output.find(key);
  return at == std::string::npos ? -1.0 : std::atof(r.output.c_str() + at + key.size());
}

}  // namespace

TEST(Examples, DecoderLayerTpMatchesTheHostReferenceOnEveryRank) {
  // Four ranks of a small layer: each holds one head of four and a quarter of the MLP.
  const ExampleRun r =
      runExample("decoder_layer_tp", "--tp 4 --tokens 48 --hidden 256 --heads 4 --mlp 512 --check",
                 "NPUSIM_CONFIG=910b-hccs");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r, "every rank holds the same y: yes")) << r.output;
  EXPECT_TRUE(has(r, ": correct")) << r.output;
  EXPECT_TRUE(has(r, "rank 0 prefill HcclAllReduce")) << r.output;
  EXPECT_TRUE(has(r, "rank 0 decode  HcclAllReduce")) << r.output;
  EXPECT_GT(metric(r, "prefill_allreduce_us"), 0.0) << r.output;
  EXPECT_LT(metric(r, "prefill_allreduce_us"), metric(r, "prefill_us")) << r.output;
}

TEST(Examples, DecoderLayerTpAllReducesAreFasterOverHccsThanOverPcie) {
  // 256 tokens x 1024 fp16 = 512 KiB per AllReduce: the mesh algorithm on HCCS (7 links of
  // 44.8 GB/s per NPU) against PCIe, where every byte crosses the shared x16 links (~25 GB/s).
  const std::string args = "--tp 8 --tokens 256 --hidden 1024 --heads 8 --mlp 2048";
  const ExampleRun hccs =
      runExample("decoder_layer_tp", args, "NPUSIM_CONFIG=910b-hccs NPUSIM_SET=sim.functional=false");
  const ExampleRun pcie =
      runExample("decoder_layer_tp", args, "NPUSIM_CONFIG=910b NPUSIM_SET=sim.functional=false");
  ASSERT_EQ(hccs.exitCode, 0) << hccs.output;
  ASSERT_EQ(pcie.exitCode, 0) << pcie.output;
  EXPECT_GT(metric(pcie, "prefill_allreduce_us"), 3.0 * metric(hccs, "prefill_allreduce_us"))
      << hccs.output << pcie.output;
}

TEST(Examples, DecoderLayerTpRefusesMoreRanksThanDevices) {
  const ExampleRun r = runExample("decoder_layer_tp", "--tp 16", "NPUSIM_CONFIG=910b-hccs");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_TRUE(has(r, "--tp 16 needs 16 devices, the preset has 8")) << r.output;
}
