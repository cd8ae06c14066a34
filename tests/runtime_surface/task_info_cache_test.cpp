// aclrtCacheLastTaskExtendInfo / aclrtCacheLastTaskOpInfo: the information lands on the calling
// thread's last captured task (and is shown by aclmdlRIDebugJsonPrint), only while that task is
// the thread's last and its capture is open; op info also needs the stream's cache switch.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "acl/acl.h"
#include "tests/runtime_surface/surface_test_util.h"

static_assert(
    std::is_same_v<decltype(aclrtCacheLastTaskExtendInfo), aclError(const char* const, const size_t)>);
static_assert(std::is_same_v<decltype(aclrtCacheLastTaskOpInfo), aclError(const void* const, const size_t)>);

namespace {

struct Device : npusim::test::DeviceSession {
  Device() {
    EXPECT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    EXPECT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  ~Device() {
    aclrtFree(buf);
    aclrtDestroyStream(other);
    aclrtDestroyStream(s);
  }
  aclError memset(aclrtStream on, size_t bytes) { return aclrtMemsetAsync(buf, 4096, 1, bytes, on); }
  nlohmann::json verboseJson(aclmdlRI model) {
    const std::string path = testing::TempDir() + "task_info_cache.json";
    EXPECT_EQ(aclmdlRIDebugJsonPrint(model, path.c_str(), ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE), ACL_SUCCESS);
    return nlohmann::json::parse(std::ifstream(path));
  }
  aclrtStream s = nullptr, other = nullptr;
  void* buf = nullptr;
};

}  // namespace

TEST(TaskInfoCache, ExtendInfoGoesToTheThreadsLastCapturedTask) {
  Device d;
  const char info[] = R"({"op":"first"})";
  // No task in a model yet: nothing to attach to.
  ASSERT_EQ(d.memset(d.s, 64), ACL_SUCCESS);
  EXPECT_EQ(aclrtCacheLastTaskExtendInfo(info, sizeof info - 1), ACL_ERROR_RT_INTERNAL_ERROR);
  EXPECT_EQ(aclrtCacheLastTaskExtendInfo(nullptr, 4), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtCacheLastTaskExtendInfo(info, 0), ACL_ERROR_RT_PARAM_INVALID);

  ASSERT_EQ(aclmdlRICaptureBegin(d.s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(d.memset(d.s, 64), ACL_SUCCESS);
  ASSERT_EQ(aclrtCacheLastTaskExtendInfo(R"({"op":"replaced"})", 17), ACL_SUCCESS);
  ASSERT_EQ(aclrtCacheLastTaskExtendInfo(info, sizeof info - 1), ACL_SUCCESS);  // the second replaces it
  ASSERT_EQ(d.memset(d.s, 128), ACL_SUCCESS);
  ASSERT_EQ(aclrtCacheLastTaskExtendInfo("plain text", 5), ACL_SUCCESS);  // only infoSize bytes
  ASSERT_EQ(d.memset(d.s, 256), ACL_SUCCESS);
  const std::string longInfo(5000, 'x');
  ASSERT_EQ(aclrtCacheLastTaskExtendInfo(longInfo.c_str(), longInfo.size()), ACL_SUCCESS);
  // An eager task on another stream is now the thread's last: it is in no model.
  ASSERT_EQ(d.memset(d.other, 64), ACL_SUCCESS);
  EXPECT_EQ(aclrtCacheLastTaskExtendInfo(info, sizeof info - 1), ACL_ERROR_RT_INTERNAL_ERROR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not in a model"), std::string::npos);
  ASSERT_EQ(d.memset(d.s, 512), ACL_SUCCESS);  // captured again: no info given to this one
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(d.s, &model), ACL_SUCCESS);
  // The capture ended: its last task is no longer open to annotation.
  EXPECT_EQ(aclrtCacheLastTaskExtendInfo(info, sizeof info - 1), ACL_ERROR_RT_INTERNAL_ERROR);

  nlohmann::json j = d.verboseJson(model);
  ASSERT_EQ(j["stream_list"].size(), 1u);
  const auto& tasks = j["stream_list"][0]["task_list"];
  ASSERT_EQ(tasks.size(), 4u);
  EXPECT_EQ(tasks[0]["extend_info"], nlohmann::json({{"op", "first"}}));
  EXPECT_EQ(tasks[1]["extend_info"], "plain");
  EXPECT_EQ(tasks[2]["extend_info"], std::string(4096, 'x'));  // cut to 4 KiB
  EXPECT_FALSE(tasks[3].contains("extend_info"));
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST(TaskInfoCache, OpInfoNeedsTheStreamSwitchAndACapture) {
  Device d;
  std::vector<uint8_t> op(48, 0xAB);
  EXPECT_EQ(aclrtCacheLastTaskOpInfo(nullptr, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCacheLastTaskOpInfo(op.data(), 0), ACL_ERROR_INVALID_PARAM);
  std::vector<uint8_t> big(64 * 1024 + 1);
  EXPECT_EQ(aclrtCacheLastTaskOpInfo(big.data(), big.size()), ACL_ERROR_RT_PARAM_INVALID);

  ASSERT_EQ(aclmdlRICaptureBegin(d.s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(d.memset(d.s, 64), ACL_SUCCESS);
  EXPECT_EQ(aclrtCacheLastTaskOpInfo(op.data(), op.size()), ACL_ERROR_RT_INTERNAL_ERROR);  // switch off
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("ACL_STREAM_ATTR_CACHE_OP_INFO"), std::string::npos);
  aclrtStreamAttrValue on{};
  on.cacheOpInfoSwitch = 1;
  ASSERT_EQ(aclrtSetStreamAttribute(d.s, ACL_STREAM_ATTR_CACHE_OP_INFO, &on), ACL_SUCCESS);
  ASSERT_EQ(aclrtCacheLastTaskOpInfo(op.data(), op.size()), ACL_SUCCESS);
  ASSERT_EQ(d.memset(d.s, 64), ACL_SUCCESS);
  ASSERT_EQ(aclrtCacheLastTaskOpInfo(big.data(), 64 * 1024), ACL_SUCCESS);  // the limit itself is fine
  aclrtStreamAttrValue off{};
  ASSERT_EQ(aclrtSetStreamAttribute(d.s, ACL_STREAM_ATTR_CACHE_OP_INFO, &off), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(d.s, &model), ACL_SUCCESS);
  nlohmann::json j = d.verboseJson(model);
  const auto& tasks = j["stream_list"][0]["task_list"];
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(tasks[0]["op_info_bytes"], 48);
  EXPECT_EQ(tasks[1]["op_info_bytes"], 64 * 1024);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST(TaskInfoCache, ABuiltModelTakesExtendInfoButNotOpInfo) {
  Device d;
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, d.s, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  ASSERT_EQ(d.memset(d.s, 64), ACL_SUCCESS);
  ASSERT_EQ(aclrtCacheLastTaskExtendInfo("[1,2]", 5), ACL_SUCCESS);
  aclrtStreamAttrValue on{};
  on.cacheOpInfoSwitch = 1;
  ASSERT_EQ(aclrtSetStreamAttribute(d.s, ACL_STREAM_ATTR_CACHE_OP_INFO, &on), ACL_SUCCESS);
  uint8_t op[4] = {1, 2, 3, 4};
  EXPECT_EQ(aclrtCacheLastTaskOpInfo(op, sizeof op), ACL_ERROR_RT_INTERNAL_ERROR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclmdlRIBuildBegin"), std::string::npos);
  ASSERT_EQ(aclmdlRIEndTask(model, d.s), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);
  nlohmann::json j = d.verboseJson(model);
  const auto& tasks = j["stream_list"][0]["task_list"];
  ASSERT_GE(tasks.size(), 1u);
  EXPECT_EQ(tasks[0]["extend_info"], nlohmann::json({1, 2}));
  EXPECT_FALSE(tasks[0].contains("op_info_bytes"));
  EXPECT_EQ(aclmdlRIUnbindStream(model, d.s), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}
