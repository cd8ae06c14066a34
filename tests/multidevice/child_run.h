#pragma once
// Running one test of the current binary in a child process, to compare runs (simulated times,
// trace bytes) or to read what it printed on stderr.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace npusim::test {

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs `test` with NPUSIM_TRACE=`trace`; returns everything it printed (stdout and stderr).
inline std::string runTestInChild(const std::string& test, const std::string& trace) {
  std::string cmd =
      "NPUSIM_TRACE=" + trace + " " + testing::internal::GetArgvs()[0] + " --gtest_filter=" + test + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char line[512];
  while (p && fgets(line, sizeof line, p)) out += line;
  if (p) pclose(p);
  return out;
}

// The lines of `out` that contain "RESULT".
inline std::string resultLines(const std::string& out) {
  std::istringstream in(out);
  std::string line, r;
  while (std::getline(in, line))
    if (line.find("RESULT") != std::string::npos) r += line + "\n";
  return r;
}

}  // namespace npusim::test
