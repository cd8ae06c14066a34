#!/usr/bin/env python3
"""The Ascend C source filter (cmake/ascendc/ascendc_filter.py) on tricky inputs."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "cmake", "ascendc"))
import ascendc_filter as f  # noqa: E402


def body(src):
    text, headers = f.generate(src, "/k.cpp")
    return text.split('#line 1 "/k.cpp"\n', 1)[1], headers


class Launches(unittest.TestCase):
    def test_simple_launch(self):
        out, _ = body("void h(){ k<<<8, nullptr, s>>>(a, b); }\n")
        self.assertIn('::npusim::kernel::Launcher(k, "k", 8, nullptr, s)(a, b);', out)

    def test_launch_inside_literals_and_comments_is_kept(self):
        src = 'const char* t = "k<<<1, 2, 3>>>()"; // k<<<1,2,3>>>()\n/* k<<<1,2,3>>> */ char c = \'<\';\n'
        out, _ = body(src)
        self.assertEqual(out, src)

    def test_raw_string_is_kept(self):
        src = 'auto r = R"x(k<<<1, 2, 3>>>() )x";\nk<<<1, nullptr, s>>>();\n'
        out, _ = body(src)
        self.assertIn('R"x(k<<<1, 2, 3>>>() )x"', out)
        self.assertIn('Launcher(k, "k", 1, nullptr, s)();', out)

    def test_shift_and_nested_calls_in_config(self):
        out, _ = body("q::k <<< (n >> 1), nullptr, streams[f(i, j)] >>> (x);\n")
        self.assertIn('::npusim::kernel::Launcher(q::k, "k",  (n >> 1), nullptr, streams[f(i, j)] ) (x);', out)

    def test_multiline_launch_keeps_line_count(self):
        src = "k<<<\n  8,\n  nullptr,\n  s>>>(a);\nint after;\n"
        out, _ = body(src)
        self.assertEqual(out.count("\n"), src.count("\n"))
        self.assertTrue(out.endswith("int after;\n"))

    def test_digit_separator_is_not_a_literal(self):
        out, _ = body("int n = 1'000; k<<<n, nullptr, s>>>();\n")
        self.assertIn('Launcher(k, "k", n, nullptr, s)();', out)

    def test_template_kernel_launch(self):
        out, _ = body("add_kernel<float, 2> <<<n, nullptr, s>>>(a);\n")
        self.assertIn('::npusim::kernel::Launcher(add_kernel<float, 2>, "add_kernel", n, nullptr, s)(a);', out)

    def test_wrong_config_is_an_error(self):
        with self.assertRaises(f.FilterError):
            f.generate("k<<<8, s>>>();\n", "/k.cpp")

    def test_unterminated_launch_is_an_error(self):
        with self.assertRaises(f.FilterError):
            f.generate("k<<<8, nullptr, s;\n", "/k.cpp")

    def test_trap(self):
        out, _ = body('void e() { asm("trap"); asm volatile ("nop"); }\n')
        self.assertIn("::npusim::kernel::trap();", out)
        self.assertIn('asm volatile ("nop")', out)


class Kernels(unittest.TestCase):
    def test_kernel_definitions_get_entries_and_headers(self):
        src = (
            'extern "C" __global__ __aicore__ void add(GM_ADDR x, __gm__ float* y, uint32_t n, const float a)\n{ }\n'
            "__global__ __aicore__ void decl(GM_ADDR x);\n"
            "template <typename T> __global__ __aicore__ void tk(GM_ADDR x) {}\n"
            "__aicore__ __global__ void noargs(void) {}\n"
            "__global__ __aicore__ __vector__ void vec(GM_ADDR x) {}\n"  # the ASC language's marker
            "// __global__ __aicore__ void commented(int x) {}\n"
        )
        text, headers = f.generate(src, "/k.cpp")
        self.assertEqual(sorted(headers), ["add", "noargs", "vec"])
        self.assertIn(
            'extern "C" uint32_t aclrtlaunch_add(uint32_t blockDim, aclrtStream stream, void* x, void* y, '
            "uint32_t n, const float a);",
            headers["add"],
        )
        self.assertIn("NPUSIM_KERNEL_ENTRY(add);", text)
        self.assertIn('Launcher(add, "add", blockDim, nullptr, stream)(x, y, n, a);', text)
        self.assertIn('Launcher(noargs, "noargs", blockDim, nullptr, stream)();', text)

    def test_main_writes_files_and_reports_errors(self):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "k.cpp")
            with open(src, "w") as fh:
                fh.write('extern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n')
            self.assertEqual(f.main([src, "--out", os.path.join(d, "o", "k.cpp"), "--header-dir", os.path.join(d, "h")]), 0)
            self.assertTrue(os.path.exists(os.path.join(d, "h", "aclrtlaunch_k.h")))
            with open(src, "w") as fh:
                fh.write("/* never closed\n")
            self.assertEqual(f.main([src, "--out", os.path.join(d, "o", "k.cpp"), "--header-dir", d]), 1)


class DeviceVariables(unittest.TestCase):
    def test_file_scope_gm_variables_are_registered(self):
        src = (
            "__gm__ float g_scale = 2.0f;\n"
            "__gm__ int g_table[4] = {1, 2, 3, 4}, g_other;\n"
            "extern __gm__ int g_ext;\n"
            "namespace ns { __gm__ unsigned long g_counter; }\n"
            "__gm__ float* pointer_function(int a);\n"
            'extern "C" __global__ __aicore__ void k(__gm__ float* x) { __gm__ float* y = x; (void)y; }\n'
            "// __gm__ int commented;\n"
            "__gm__ const float g_const = 1.0f;\n"
            "constexpr __gm__ int g_constexpr = 2;\n"
            "__gm__ const float* g_pointer_to_const;\n"
        )
        text, _ = f.generate(src, "/k.cpp")
        regs = [line for line in text.splitlines() if line.startswith("NPUSIM_DEVICE_VAR")]
        self.assertEqual(
            regs,
            [
                "NPUSIM_DEVICE_VAR(g_scale, 0_g_scale);",
                "NPUSIM_DEVICE_VAR(g_table, 1_g_table);",
                "NPUSIM_DEVICE_VAR(g_other, 2_g_other);",
                "NPUSIM_DEVICE_VAR(ns::g_counter, 3_ns_g_counter);",
                "NPUSIM_DEVICE_VAR(g_pointer_to_const, 4_g_pointer_to_const);",
            ],
        )


class LaunchHeaders(unittest.TestCase):
    def test_struct_parameters_are_taken_by_pointer_as_cann_generates_them(self):
        src = (
            "struct Tiling { uint32_t n; };\n"
            'extern "C" __global__ __aicore__ void k(GM_ADDR x, __gm__ float* y, uint32_t n, const float s,'
            " Tiling tiling) {}\n"
        )
        text, headers = f.generate(src, "/k.cpp")
        self.assertIn(
            "aclrtlaunch_k(uint32_t blockDim, aclrtStream stream, void* x, void* y, uint32_t n, const float s,"
            " Tiling* tiling);",
            headers["k"],
        )
        self.assertIn('Launcher(k, "k", blockDim, nullptr, stream)(x, y, n, s, *tiling);', text)
        self.assertIn("struct Tiling;\n", headers["k"])  # the header stands alone


class ScalarCounting(unittest.TestCase):
    """ascendc_scalar.py: what each block of a kernel function adds to its scalar-work counter."""

    def test_long_op_loops(self):
        src = (
            'extern "C" __global__ __aicore__ void k(__gm__ uint32_t* x) {\n'
            "  float t = 0.0f;\n"
            "  for (int i = 0; i < 100; i++) {\n"
            "    t += 0.00002f;\n"
            "    for (int j = 0; j < 25000; j++) {\n"
            "      t = t * t - 1e-6f;\n"
            "      t = t > 1.0f ? 0.0f : t;\n"
            "    }\n"
            "  }\n"
            "  x[0] = t > 0.0f;\n"
            "}\n"
        )
        out, _ = body(src)
        # outside the loops: t = 0, the outer header, x[0] = t > 0 (subscript, =, >)
        self.assertIn("{ ::npusim::kernel::ScalarTally npusimTally_(7);", out)
        # outer body: +=, the inner header once (=, <, ++); per iteration <, ++, branch
        self.assertIn("for (int i = 0; i < 100; i++) { npusimTally_.n += 7;", out)
        # inner body: = * - and = > ?; per iteration <, ++, branch (1e-6f is one number)
        self.assertIn("for (int j = 0; j < 25000; j++) { npusimTally_.n += 9;", out)
        self.assertEqual(out.split("NPUSIM_KERNEL_ENTRY")[0].count("\n"), src.count("\n"))

    def test_unbraced_loop_body_is_braced(self):
        out, _ = body("__aicore__ inline int f(int n, int s) {\n  for (int i = 0; i < n; ++i) s = s * 5 + 1;\n  return s;\n}\n")
        self.assertIn("for (int i = 0; i < n; ++i) { npusimTally_.n += 6; s = s * 5 + 1; }", out)

    def test_while_and_do_while(self):
        out, _ = body("__aicore__ void f(int n) {\n  while (n > 0) { n = n - 1; }\n  do { n += 2; } while (n < 9);\n}\n")
        self.assertIn("while (n > 0) { npusimTally_.n += 4; n = n - 1; }", out)  # = - ; > branch
        self.assertIn("do { npusimTally_.n += 3; n += 2; } while (n < 9);", out)  # += ; < branch

    def test_only_kernel_functions_and_statement_blocks(self):
        src = (
            "#define KERNEL __aicore__ void\n"
            "int host(int a) { for (int i = 0; i < a; ++i) { a += i; } return a; }\n"
            "__aicore__ void f(int* p) {\n"
            "  int v[2] = {1, 2};\n"
            "  auto g = [&](int q) { return q + v[0]; };\n"
            "  if (p[0] > 0) { p[0] = g(v[1]); } else { p[0] = 0; }\n"
            "}\n"
        )
        out, _ = body(src)
        self.assertEqual(out.count("ScalarTally"), 1)
        self.assertIn("int host(int a) { for (int i = 0; i < a; ++i) { a += i; } return a; }", out)
        self.assertIn("{ return q + v[0]; }", out)  # a lambda's body counts where it is written
        self.assertIn("{ npusimTally_.n += 4; p[0] = g(v[1]); }", out)  # [ = g( [
        self.assertIn("else { npusimTally_.n += 2; p[0] = 0; }", out)

    def test_switch_body_counts_where_the_switch_stands(self):
        out, _ = body("__aicore__ void f(int op, int* p) {\n  switch (op) {\n    case 0: p[0] = 1; break;\n  }\n}\n")
        self.assertIn("switch (op) {\n    case 0: p[0] = 1; break;", out)  # nothing before the first case
        self.assertIn("npusimTally_(2);", out)  # [ =

    def test_templates_casts_and_member_access_are_not_operators(self):
        import ascendc_scalar as sc

        self.assertEqual(sc.count_ops("LocalTensor<half> x = q.AllocTensor<half>();"), 2)  # = and the call
        self.assertEqual(sc.count_ops("p->n = reinterpret_cast<__gm__ float*>(x)[i];"), 2)  # = [
        self.assertEqual(sc.count_ops("a = b::c + 1.5e-3f;"), 2)


if __name__ == "__main__":
    unittest.main()
