// Gives every test process its own temporary directory and removes it when the process ends.
// ctest runs each TEST in its own process (tests/CMakeLists.txt), so this is a per-test directory:
// two suites running at once never collide on a path and nothing is left in /tmp.
// testing::TempDir() reads TEST_TMPDIR, so tests simply keep using it.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

class PerTestTempDir {
 public:
  PerTestTempDir() : owner_(getpid()) {
    const char* base = std::getenv("TMPDIR");
    std::string templ = std::string(base && *base ? base : "/tmp") + "/npusim-test-XXXXXX";
    if (mkdtemp(templ.data()) == nullptr) return;  // fall back to gtest's default
    path_ = templ;
    setenv("TEST_TMPDIR", (path_ + "/").c_str(), 1);
  }
  ~PerTestTempDir() {
    // A forked child that exits must not remove its parent's directory.
    if (path_.empty() || getpid() != owner_) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }

 private:
  pid_t owner_;
  std::string path_;
};

PerTestTempDir gTempDir;

}  // namespace
