#!/usr/bin/env python3
"""Self-test of scripts/trace-check/perfetto_check.mjs (through its perfetto-check wrapper): a good
trace passes and is reported as Perfetto parses it; bad traces and unmet expectations fail with
the reason. Needs Node.js (and npm the first time, to fetch the engine): without them the wrapper
fails, and so does this test."""

import json
import os
import subprocess
import tempfile
import unittest

WRAPPER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "trace-check",
                       "perfetto-check")


def x(name, ts, dur, pid=1, tid=2):
    return {"ph": "X", "pid": pid, "tid": tid, "ts": ts, "dur": dur, "name": name}


GOOD = [
    {"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "Host"}},
    {"ph": "M", "pid": 1, "tid": 2, "name": "thread_name", "args": {"name": "Thread 1"}},
    {"ph": "M", "pid": 3, "name": "process_name", "args": {"name": "NPU 0"}},
    {"ph": "M", "pid": 3, "tid": 4, "name": "thread_name", "args": {"name": "Stream 1"}},
    x("aclrtMemcpyAsync", 1.0, 2.0),
    x("validate", 1.1, 0.3),
    {"ph": "s", "pid": 1, "tid": 2, "ts": 1.0, "name": "launch", "cat": "flow", "id": 1},
    x("memcpy H2D", 4.0, 8.0, 3, 4),
    {"ph": "f", "pid": 3, "tid": 4, "ts": 4.0, "name": "launch", "cat": "flow", "id": 1, "bp": "e"},
    {"ph": "b", "pid": 3, "ts": 3.0, "name": "queued", "cat": "queue", "id2": {"local": "0x1"}},
    {"ph": "e", "pid": 3, "ts": 4.0, "name": "queued", "cat": "queue", "id2": {"local": "0x1"}},
    {"ph": "C", "pid": 3, "ts": 4.0, "name": "PCIe H2D GB/s", "args": {"value": 8.192}},
    {"ph": "C", "pid": 3, "ts": 12.0, "name": "PCIe H2D GB/s", "args": {"value": 0}},
]


class PerfettoCheckTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, content):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(content if isinstance(content, str) else json.dumps({"traceEvents": content}))
        return path

    def run_check(self, *args):
        r = subprocess.run([WRAPPER, *args], capture_output=True, text=True, timeout=600)
        report = None
        if r.stdout.strip():
            report = json.loads(r.stdout)
        return r, report

    def test_good_trace_as_perfetto_sees_it(self):
        r, rep = self.run_check(self.write("good.json", GOOD), "--expect-thread", "Host/Thread 1",
                                "--expect-thread", "NPU 0/Stream 1", "--expect-counter", "NPU 0/PCIe H2D GB/s value",
                                "--expect-flows", "1", "--assert", "SELECT count(*) = 4 FROM slice",
                                "--sql", "SELECT name, depth FROM slice WHERE name = 'validate'")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(rep["failures"], [])
        self.assertEqual([(p["pid"], p["name"]) for p in rep["processes"]], [(1, "Host"), (3, "NPU 0")])
        threads = {(t["process"], t["thread"]): t["slices"] for t in rep["threads"]}
        self.assertEqual(threads, {("Host", "Thread 1"): 2, ("NPU 0", "Stream 1"): 1})
        self.assertEqual(rep["counter_tracks"],
                         [{"process": "NPU 0", "track": "PCIe H2D GB/s value", "samples": 2, "min": 0, "max": 8.192}])
        self.assertEqual(rep["async_tracks"], [{"process": "NPU 0", "track": "queued", "slices": 1}])
        self.assertEqual(rep["flows"], [{"from_slice": "aclrtMemcpyAsync", "to_slice": "memcpy H2D", "n": 1}])
        self.assertEqual(rep["sql: SELECT name, depth FROM slice WHERE name = 'validate'"],
                         [{"name": "validate", "depth": 1}])
        self.assertEqual(rep["summary"]["unfinished_slices"], 0)

    def test_engine_errors_and_open_slices_fail(self):
        bad = GOOD + [
            {"ph": "C", "pid": 3, "ts": 13.0, "name": "PCIe H2D GB/s", "args": {"value": None}},
            {"ph": "B", "pid": 1, "tid": 2, "ts": 20.0, "name": "never ends"},
            {"ph": "b", "pid": 3, "ts": 20.0, "name": "queued", "cat": "queue", "id2": {"local": "0x2"}},
        ]
        r, rep = self.run_check(self.write("bad.json", bad))
        self.assertEqual(r.returncode, 1)
        self.assertIn("perfetto_check: FAILED", r.stderr)
        self.assertTrue(any("json_parser_failure" in f for f in rep["failures"]), rep["failures"])
        self.assertIn("2 slices never end", rep["failures"])

    def test_unmet_expectations_fail(self):
        r, rep = self.run_check(self.write("good.json", GOOD), "--expect-thread", "NPU 0/Stream 2",
                                "--expect-counter", "NPU 0/PCIe H2D GB/s", "--expect-flows", "2",
                                "--assert", "SELECT count(*) = 5 FROM slice", "--assert", "SELECT nonsense FROM nowhere")
        self.assertEqual(r.returncode, 1)
        f = rep["failures"]
        self.assertEqual(len(f), 5, f)
        self.assertTrue(f[0].startswith('expected thread track "NPU 0/Stream 2" with slices; have: Host/Thread 1 (2)'))
        self.assertTrue(f[1].startswith('expected counter track "NPU 0/PCIe H2D GB/s" with values; have: '
                                        'NPU 0/PCIe H2D GB/s value (2)'))
        self.assertEqual(f[2], "expected 2 flows, engine has 1")
        self.assertEqual(f[3], "assert is false (0): SELECT count(*) = 5 FROM slice")
        self.assertTrue(f[4].startswith("assert query failed"), f[4])

    def test_files_that_are_not_traces_fail(self):
        r, rep = self.run_check(self.write("garbage.json", "hello world\n"))
        self.assertEqual(r.returncode, 1)
        self.assertTrue(rep["failures"][0].startswith("load failed"), rep["failures"])
        r, rep = self.run_check(self.write("empty.json", "\n"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("trace file is empty", rep["failures"])
        r, _ = self.run_check(os.path.join(self.tmp.name, "missing.json"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("cannot read", r.stderr)

    def test_bad_usage(self):
        self.assertEqual(self.run_check()[0].returncode, 2)
        self.assertEqual(self.run_check("t.json", "--expect-thread", "noslash")[0].returncode, 2)
        self.assertEqual(self.run_check("t.json", "--expect-flows", "many")[0].returncode, 2)
        self.assertEqual(self.run_check("t.json", "--bogus")[0].returncode, 2)


if __name__ == "__main__":
    unittest.main()
