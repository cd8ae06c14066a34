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
            "// __global__ __aicore__ void commented(int x) {}\n"
        )
        text, headers = f.generate(src, "/k.cpp")
        self.assertEqual(sorted(headers), ["add", "noargs"])
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


if __name__ == "__main__":
    unittest.main()
