// The ACL headers must compile unchanged as C11 and as C++ (user programs are either), each header on
// its own, and the deprecated APIs must warn. These tests run the system compilers on small files.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

const std::string kIncludeDir = std::string(NPUSIM_SOURCE_DIR) + "/include";

const std::vector<std::string> kHeaders = {
    "acl/acl.h",
    "acl/acl_base.h",
    "acl/acl_base_rt.h",
    "acl/acl_base_mdl.h",
    "acl/acl_rt.h",
    "acl/acl_rt_allocator.h",
    "acl/acl_mdl.h",
    "acl/acl_op.h",
    "acl/error_codes/rt_error_codes.h",
    "acl/error_codes/ge_error_codes.h",
    "acl/ops/acl_dvpp.h",
    "acl/acl_prof.h",
    "acl/acl_dump.h",
    "acl/acl_tdt.h",
    "acl/acl_tdt_queue.h",
    "securec.h",
    "mstx/ms_tools_ext.h",
};

struct CompileResult {
  int exitCode;
  std::string output;
};

bool haveCompiler(const std::string& compiler) {
  return std::system(("command -v " + compiler + " >/dev/null 2>&1").c_str()) == 0;
}

// Per-process file names: ctest may run these tests concurrently.
std::string tempPath(const std::string& name) {
  return ::testing::TempDir() + "/npusim_headers_" + std::to_string(getpid()) + "_" + name;
}

std::string writeTemp(const std::string& name, const std::string& text) {
  const std::string path = tempPath(name);
  std::ofstream(path) << text;
  return path;
}

// Runs `compiler flags -fsyntax-only -I<include> source` and returns its exit code and diagnostics.
CompileResult compile(const std::string& compiler, const std::string& flags, const std::string& source) {
  const std::string log = tempPath("compile.log");
  const std::string cmd =
      compiler + " " + flags + " -fsyntax-only -I" + kIncludeDir + " " + source + " >" + log + " 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream in(log);
  std::string output((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(log.c_str());
  if (source.rfind(tempPath(""), 0) == 0) std::remove(source.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, cmd + "\n" + output};
}

const char* kStrictC = "-std=c11 -Wall -Wextra -Wpedantic -Wstrict-prototypes -Werror -x c";

}  // namespace

TEST(HeadersC, AclHeaderCompilesAsC11) {
  if (!haveCompiler("cc")) GTEST_SKIP() << "no system C compiler (cc)";
  const std::string source = std::string(NPUSIM_SOURCE_DIR) + "/tests/headers/c_include.c.in";
  const CompileResult result = compile("cc", kStrictC, source);
  EXPECT_EQ(result.exitCode, 0) << result.output;
}

TEST(HeadersC, EveryHeaderIsSelfContainedInC) {
  if (!haveCompiler("cc")) GTEST_SKIP() << "no system C compiler (cc)";
  for (const std::string& header : kHeaders) {
    const std::string source = writeTemp(
        "self_contained.c", "#include \"" + header + "\"\n#include \"" + header + "\"\nint npusimDummy;\n");
    const CompileResult result = compile("cc", kStrictC, source);
    EXPECT_EQ(result.exitCode, 0) << header << "\n" << result.output;
  }
}

TEST(HeadersCxx, EveryHeaderIsSelfContainedInCxx11And17) {
  if (!haveCompiler("c++")) GTEST_SKIP() << "no system C++ compiler (c++)";
  for (const char* standard : {"-std=c++11", "-std=c++17"}) {
    for (const std::string& header : kHeaders) {
      const std::string source = writeTemp("self_contained.cpp", "#include \"" + header + "\"\n#include \"" +
                                                                     header + "\"\nint npusimDummy;\n");
      const CompileResult result =
          compile("c++", std::string(standard) + " -Wall -Wextra -Wpedantic -Werror -x c++", source);
      EXPECT_EQ(result.exitCode, 0) << header << " " << standard << "\n" << result.output;
    }
  }
}

// aclrtQueryEvent and aclmdlRIDebugPrint carry ACL_DEPRECATED_MESSAGE (GCC >= 6, as in CANN); their
// replacements do not.
TEST(HeadersC, DeprecatedApisWarnAndReplacementsDoNot) {
  if (!haveCompiler("gcc")) GTEST_SKIP() << "the deprecation markers are GCC-only";
  const std::string flags = "-std=c11 -Werror=deprecated-declarations -x c";
  const std::string prologue =
      "#include \"acl/acl.h\"\nint f(aclrtEvent e, aclmdlRI m);\nint f(aclrtEvent e, aclmdlRI m) {\n";
  struct Case {
    const char* body;
    bool deprecated;
  };
  const Case cases[] = {
      {"  aclrtEventStatus s; (void)m; return aclrtQueryEvent(e, &s);\n}\n", true},
      {"  (void)e; return aclmdlRIDebugPrint(m);\n}\n", true},
      {"  aclrtEventRecordedStatus s; (void)m; return aclrtQueryEventStatus(e, &s);\n}\n", false},
      {"  (void)e; return aclmdlRIDebugJsonPrint(m, \"x.json\", ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY);\n}\n",
       false},
  };
  for (const Case& c : cases) {
    const std::string source = writeTemp("deprecated.c", prologue + c.body);
    const CompileResult result = compile("gcc", flags, source);
    if (c.deprecated) {
      EXPECT_NE(result.exitCode, 0) << c.body;
      EXPECT_NE(result.output.find("is deprecated"), std::string::npos) << result.output;
    } else {
      EXPECT_EQ(result.exitCode, 0) << result.output;
    }
  }
}

// CANN declares the basic codes as `static const int`: not usable as C case labels, unlike the RT macros.
TEST(HeadersC, BasicCodesAreConstantsNotMacros) {
  if (!haveCompiler("cc")) GTEST_SKIP() << "no system C compiler (cc)";
  const std::string source =
      writeTemp("codes.c",
                "#include \"acl/acl.h\"\n"
                "#ifdef ACL_SUCCESS\n#error ACL_SUCCESS must not be a macro\n#endif\n"
                "#ifndef ACL_ERROR_RT_PARAM_INVALID\n#error RT codes must be macros\n#endif\n"
                "int npusimDummy;\n");
  const CompileResult result = compile("cc", kStrictC, source);
  EXPECT_EQ(result.exitCode, 0) << result.output;
}

// aclnn/acl_meta.h in CANN repeats the ACL_FUNC_VISIBILITY / ACL_DEPRECATED* definitions without guards
// after including acl/acl_base.h; identical redefinitions must not produce a diagnostic.
TEST(HeadersCxx, CannStyleMacroRedefinitionIsSilent) {
  if (!haveCompiler("c++")) GTEST_SKIP() << "no system C++ compiler (c++)";
  const std::string text =
      "#include \"acl/acl.h\"\n"
      "#ifdef FUNC_VISIBILITY\n"
      "#define ACL_FUNC_VISIBILITY __attribute__((visibility(\"default\")))\n"
      "#else\n#define ACL_FUNC_VISIBILITY\n#endif\n"
      "#if defined(__GNUC__) && (__GNUC__ >= 6)\n"
      "#define ACL_DEPRECATED __attribute__((deprecated))\n"
      "#define ACL_DEPRECATED_MESSAGE(message) __attribute__((deprecated(message)))\n"
      "#else\n#define ACL_DEPRECATED\n#define ACL_DEPRECATED_MESSAGE(message)\n#endif\n"
      "int npusimDummy;\n";
  for (const char* visibility : {"", "-DFUNC_VISIBILITY"}) {
    const std::string source = writeTemp("redefine.cpp", text);  // compile() deletes it afterwards
    const CompileResult result = compile(
        "c++", std::string("-std=c++17 -Wall -Wextra -Wpedantic -Werror -x c++ ") + visibility, source);
    EXPECT_EQ(result.exitCode, 0) << visibility << "\n" << result.output;
  }
}
