// Dump (acldump*, aclmdl*Dump, aclopStartDumpArgs): real files with the operator's output bytes,
// the callback receiving the same bytes, argument dumps, exception-info files, and the documented
// error codes for misuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "surface_test_util.h"

using surface_test::TempDir;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> filesUnder(const std::string& dir) {
  std::vector<fs::path> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out.push_back(e.path());
  return out;
}

std::string writeConfig(const TempDir& dir, const std::string& dumpSection) {
  std::string path = dir / "acl.json";
  std::ofstream(path) << "{\"dump\": " << dumpSection << "}";
  return path;
}

class Dump : public ::testing::Test {
 protected:
  void open(const char* config) {
    ASSERT_EQ(aclInit(config), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    if (stream_) aclrtDestroyStream(stream_);
    aclrtResetDevice(0);
    aclFinalize();
  }
  aclrtStream stream_ = nullptr;
  TempDir dir_;
};

const std::vector<float> kA{1, 2, 3, 4}, kB{10, 20, 30, 40}, kSum{11, 22, 33, 44};

}  // namespace

TEST_F(Dump, AclInitConfigDumpsEachOperatorsOutput) {
  std::string out = dir_ / "dumps";
  std::string cfg =
      writeConfig(dir_, "{\"dump_path\": \"" + out + "\", \"dump_list\": [], \"dump_op_switch\": \"on\"}");
  open(cfg.c_str());
  ASSERT_STREQ(acldumpGetPath(DATA_DUMP), out.c_str());
  EXPECT_EQ(acldumpGetPath(OVERFLOW_DUMP), nullptr);  // not configured
  surface_test::runAdd(stream_, kA, kB);
  auto files = filesUnder(out);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].parent_path().filename(), "0");  // device 0
  EXPECT_EQ(files[0].filename().string().rfind("aclnnAdd.", 0), 0u) << files[0];
  std::string bytes = surface_test::readFile(files[0]);
  ASSERT_EQ(bytes.size(), kSum.size() * sizeof(float));
  EXPECT_EQ(std::memcmp(bytes.data(), kSum.data(), bytes.size()), 0);  // the computed result
}

TEST_F(Dump, ModelDumpNeedsInitAndAValidConfig) {
  open(nullptr);
  std::string out = dir_ / "model";
  std::string cfg = writeConfig(dir_, "{\"dump_path\": \"" + out + "\", \"dump_list\": [{}]}");
  EXPECT_EQ(aclmdlSetDump(cfg.c_str()), ACL_ERROR_DUMP_NOT_RUN);  // before aclmdlInitDump
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  EXPECT_EQ(aclmdlInitDump(), ACL_ERROR_DUMP_ALREADY_RUN);
  EXPECT_EQ(aclmdlSetDump((dir_ / "missing.json").c_str()), ACL_ERROR_INVALID_FILE);
  std::string bad = dir_ / "bad.json";
  std::ofstream(bad) << "{\"dump\": {\"dump_list\": []}}";  // no dump_path
  EXPECT_EQ(aclmdlSetDump(bad.c_str()), ACL_ERROR_INVALID_DUMP_CONFIG);
  ASSERT_EQ(aclmdlSetDump(cfg.c_str()), ACL_SUCCESS);
  ASSERT_STREQ(acldumpGetPath(DATA_DUMP), out.c_str());
  surface_test::runAdd(stream_, kA, kB);
  EXPECT_EQ(filesUnder(out).size(), 1u);
  ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);
  surface_test::runAdd(stream_, kA, kB);
  EXPECT_EQ(filesUnder(out).size(), 1u);  // dump ended: no new file
  EXPECT_EQ(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
}

namespace {
std::vector<std::string> gChunkFiles;
std::string gChunkData;
int32_t onChunk(const acldumpChunk* chunk, int32_t len) {
  gChunkFiles.push_back(chunk->fileName);
  EXPECT_EQ(static_cast<size_t>(len), sizeof(acldumpChunk) + chunk->bufLen);
  EXPECT_EQ(chunk->isLastChunk, 1u);
  gChunkData.assign(reinterpret_cast<const char*>(chunk->dataBuf), chunk->bufLen);
  return 0;
}
}  // namespace

TEST_F(Dump, CallbackReceivesTheDataInsteadOfFiles) {
  std::string out = dir_ / "cb";
  std::string cfg = writeConfig(dir_, "{\"dump_path\": \"" + out + "\", \"dump_op_switch\": \"on\"}");
  open(cfg.c_str());
  EXPECT_EQ(acldumpRegCallback(nullptr, 0), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(acldumpRegCallback(onChunk, 0), ACL_SUCCESS);
  surface_test::runAdd(stream_, kA, kB);
  ASSERT_EQ(gChunkFiles.size(), 1u);
  EXPECT_EQ(gChunkFiles[0].rfind(out + "/", 0), 0u) << gChunkFiles[0];
  ASSERT_EQ(gChunkData.size(), sizeof(float) * 4);
  EXPECT_EQ(std::memcmp(gChunkData.data(), kSum.data(), gChunkData.size()), 0);
  EXPECT_TRUE(filesUnder(out).empty());
  acldumpUnregCallback();
  surface_test::runAdd(stream_, kA, kB);
  EXPECT_EQ(gChunkFiles.size(), 1u);
  EXPECT_EQ(filesUnder(out).size(), 1u);  // back to files
}

TEST_F(Dump, ArgsDumpWritesTheOperatorArguments) {
  open(nullptr);
  std::string out = dir_ / "args";
  EXPECT_EQ(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS), ACL_ERROR_DUMP_NOT_RUN);
  EXPECT_EQ(aclopStartDumpArgs(0x2, out.c_str()), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, out.c_str()), ACL_SUCCESS);
  surface_test::runAdd(stream_, kA, kB);
  ASSERT_EQ(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS), ACL_SUCCESS);
  auto files = filesUnder(out);
  ASSERT_EQ(files.size(), 1u);
  std::string text = surface_test::readFile(files[0]);
  EXPECT_EQ(text.rfind("aclnnAdd(", 0), 0u) << text;
  EXPECT_NE(text.find("[4]"), std::string::npos) << text;  // the tensors' shapes
}

// CANN's layout (acl_dump.h, API reference "acldumpGetExceptionInfoPath/acldumpSaveExceptionInfo"):
// <dump_path>/extra-info/data-dump/<device>/, and in it <fileName>.custom.<YYYYMMDDhhmmssmmm>;
// fileName may name sub-directories but no ".." segment.
TEST_F(Dump, ExceptionInfoIsSavedUnderCannsExceptionPath) {
  std::string cfg =
      writeConfig(dir_, "{\"dump_path\": \"" + dir_.path + "\", \"dump_scene\": \"aic_err_brief_dump\"}");
  open(cfg.c_str());
  char path[ACL_DUMP_MAX_FILE_PATH_LENGTH] = {};
  ASSERT_EQ(acldumpGetExceptionInfoPath(path, sizeof path), ACL_SUCCESS);
  EXPECT_EQ(std::string(path), dir_.path + "/extra-info/data-dump/0/");
  EXPECT_TRUE(fs::is_directory(path));  // created by the query, as CANN does
  EXPECT_EQ(acldumpGetExceptionInfoPath(path, 4), ACL_ERROR_INVALID_PARAM);
  ASSERT_STREQ(acldumpGetPath(AIC_ERR_BRIEF_DUMP), dir_.path.c_str());

  void* dev = surface_test::runAdd(stream_, kA, kB);
  acldumpTensorInfo t{};
  t.type = ACL_DUMP_TENSOR_OUTPUT;
  t.tensorSize = 4 * sizeof(float);
  t.dataType = ACL_FLOAT;
  t.tensorAddr = static_cast<int64_t*>(dev);
  t.addrType = ACL_DUMP_ADDR_RAW;
  t.placement = ACL_DUMP_PLACEMENT_DEVICE;
  t.shapeNum = 1;
  t.shape[0] = 4;
  ASSERT_EQ(acldumpSaveExceptionInfo("mine", "tag1", &t, 1), ACL_SUCCESS);
  ASSERT_EQ(acldumpSaveExceptionInfo("sub/theirs", "tag2", &t, 1), ACL_SUCCESS);
  EXPECT_EQ(acldumpSaveExceptionInfo("../escape", "tag", &t, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpSaveExceptionInfo("sub/../../escape", "tag", &t, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpSaveExceptionInfo("sub/", "tag", &t, 1), ACL_ERROR_INVALID_PARAM);

  std::vector<fs::path> files = filesUnder(path);
  ASSERT_EQ(files.size(), 2u);
  std::sort(files.begin(), files.end());
  const std::regex stamped(R"(\.custom\.\d{17})");  // the simulated clock as YYYYMMDDhhmmss + ms
  EXPECT_EQ(files[0].parent_path(), fs::path(path).parent_path());
  EXPECT_EQ(files[0].filename().string().rfind("mine.custom.1970", 0), 0u) << files[0];
  EXPECT_TRUE(std::regex_match(files[0].filename().string().substr(4), stamped)) << files[0];
  EXPECT_EQ(files[1].parent_path().filename(), "sub");
  EXPECT_TRUE(std::regex_match(files[1].filename().string().substr(6), stamped)) << files[1];

  std::string text = surface_test::readFile(files[0]);
  size_t nl = text.find('\n');
  ASSERT_NE(nl, std::string::npos);
  EXPECT_NE(text.find("\"user_tag\":\"tag1\""), std::string::npos) << text.substr(0, nl);
  ASSERT_EQ(text.size() - nl - 1, 4 * sizeof(float));
  EXPECT_EQ(std::memcmp(text.data() + nl + 1, kSum.data(), 4 * sizeof(float)), 0);
}

TEST(DumpDisabled, ExceptionPathIsRefusedWithoutADumpScene) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  char path[64];
  EXPECT_EQ(acldumpGetExceptionInfoPath(path, sizeof path), ACL_ERROR_DUMP_NOT_RUN);
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);
  aclFinalize();
}
