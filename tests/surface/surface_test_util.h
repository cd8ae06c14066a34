#pragma once
// Helpers for the tests of the CANN runtime surface (issue 16): a per-test temporary directory, file
// reading, and one aclnnAdd on device memory so dump and profiling tests have an operator to observe.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "../aclnn/aclnn_test_util.h"
#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

namespace surface_test {

// A fresh directory under $TMPDIR (or /tmp), removed with the object.
struct TempDir {
  std::string path;
  TempDir() {
    std::string tmpl =
        (std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + std::string("/npusim-surface-XXXXXX");
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    path = mkdtemp(buf.data());
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
};

// Runs `body` in a child process that then ends with exit(0) (atexit hooks run, as when main returns),
// and returns the child's wait status. Outputs written at exit (trace, statistics) can then be read.
// A failed CHILD_CHECK ends the child with status 1 and prints the condition.
inline int runInChild(const std::function<void()>& body) {
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    body();
    std::exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}
#define CHILD_CHECK(cond)                                                                 \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::fprintf(stderr, "%s:%d: child check failed: %s\n", __FILE__, __LINE__, #cond); \
      std::_Exit(1);                                                                      \
    }                                                                                     \
  } while (0)

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// out = a + b on device 0 (4 fp32 each); returns out's device address (freed by the caller's finalize).
inline void* runAdd(aclrtStream stream, const std::vector<float>& a, const std::vector<float>& b) {
  const std::vector<int64_t> shape{4};
  const std::vector<int64_t> strides{1};
  const size_t bytes = 4 * sizeof(float);
  void *da = nullptr, *db = nullptr, *dout = nullptr;
  EXPECT_EQ(aclrtMalloc(&da, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&db, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&dout, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(da, bytes, a.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(db, bytes, b.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  auto mk = [&](void* p) {
    return aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 1, p);
  };
  aclTensor *ta = mk(da), *tb = mk(db), *tout = mk(dout);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnAddGetWorkspaceSize(ta, tb, alpha, tout, &ws, &ex), ACL_SUCCESS);
  EXPECT_EQ(aclnnAdd(nullptr, ws, ex, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  aclDestroyTensor(ta);
  aclDestroyTensor(tb);
  aclDestroyTensor(tout);
  aclDestroyScalar(alpha);
  return dout;
}

}  // namespace surface_test
