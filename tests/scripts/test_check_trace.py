#!/usr/bin/env python3
"""Self-test of scripts/check_trace.py: small good and bad traces, each bad one rejected for the
right reason, and the command line's exit codes."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "check_trace.py")
sys.path.insert(0, os.path.dirname(SCRIPT))
import check_trace  # noqa: E402


def meta(pid, tid=None, process=None, thread=None):
    """Name events for a process and, optionally, one of its threads."""
    out = []
    if process is not None:
        out.append({"ph": "M", "pid": pid, "name": "process_name", "args": {"name": process}})
    if thread is not None:
        out.append({"ph": "M", "pid": pid, "tid": tid, "name": "thread_name", "args": {"name": thread}})
    return out


def x(name, ts, dur, pid=1, tid=2, **kw):
    return dict({"ph": "X", "pid": pid, "tid": tid, "ts": ts, "dur": dur, "name": name}, **kw)


def flow(ph, fid, ts, pid=1, tid=2, name="launch"):
    e = {"ph": ph, "pid": pid, "tid": tid, "ts": ts, "name": name, "cat": "flow", "id": fid}
    if ph == "f":
        e["bp"] = "e"
    return e


BASE = meta(1, 2, "Host", "Thread 1") + meta(3, 4, "NPU 0", "Stream 1")


class CheckTraceTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.n = 0

    def write(self, content):
        self.n += 1
        path = os.path.join(self.tmp.name, f"t{self.n}.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(content if isinstance(content, str) else json.dumps(content))
        return path

    def check(self, events, **kw):
        problems, _ = check_trace.run(self.write({"traceEvents": events}), **kw)
        return problems

    def assertProblem(self, problems, *fragments):
        joined = "\n".join(problems)
        for frag in fragments:
            self.assertIn(frag, joined)

    # ---- good traces --------------------------------------------------------------------
    def good_events(self):
        return BASE + [
            x("aclrtMemcpyAsync", 1.0, 2.0),
            x("validate", 1.1, 0.3),
            flow("s", 1, 1.0),
            {"ph": "b", "pid": 3, "ts": 3.0, "name": "queued", "cat": "queue", "id2": {"local": "0x1"}},
            {"ph": "e", "pid": 3, "ts": 4.0, "name": "queued", "cat": "queue", "id2": {"local": "0x1"}},
            x("memcpy H2D", 4.0, 8.0, pid=3, tid=4),
            flow("f", 1, 4.0, pid=3, tid=4),
            {"ph": "C", "pid": 3, "ts": 4.0, "name": "PCIe H2D GB/s", "args": {"value": 8.192}},
            {"ph": "C", "pid": 3, "ts": 12.0, "name": "PCIe H2D GB/s", "args": {"value": 0}},
            {"ph": "i", "pid": 1, "tid": 2, "ts": 12.5, "name": "wake", "s": "t"},
        ]

    def test_good_trace_passes_with_expectations(self):
        problems, summary = check_trace.run(
            self.write({"traceEvents": self.good_events(), "displayTimeUnit": "ns"}),
            threads=["Host/Thread 1", "NPU 0/Stream 1"],
            counters=["NPU 0/PCIe H2D GB/s", "NPU 0/PCIe H2D GB/s value"],
            flows="1",
        )
        self.assertEqual(problems, [])
        self.assertIn("2 processes, 2 threads, 4 slices, 1 counter tracks (2 samples), 1 flows, 1 async slices", summary)

    def test_bare_array_format_is_accepted(self):
        problems, _ = check_trace.run(self.write(self.good_events()))
        self.assertEqual(problems, [])

    def test_nesting_variants_that_are_fine(self):
        events = BASE + [
            x("child", 1.0, 0.1),  # written before its parent, same start
            x("parent", 1.0, 2.0),
            x("same", 1.0, 2.0),  # identical interval nests
            x("adjacent", 3.0, 1.0),  # starts where parent ends
            x("zero", 4.0, 0),
            x("other thread overlaps", 1.5, 5.0, pid=3, tid=4),
        ]
        self.assertEqual(self.check(events), [])

    # ---- bad files ----------------------------------------------------------------------
    def test_invalid_json(self):
        problems, _ = check_trace.run(self.write('{"traceEvents":[{"ph":"X",'))
        self.assertProblem(problems, "is not valid JSON")

    def test_nan_is_not_json(self):
        problems, _ = check_trace.run(self.write('{"traceEvents":[{"ph":"C","pid":1,"ts":0,"args":{"v":NaN}}]}'))
        self.assertProblem(problems, "NaN is not valid JSON")

    def test_missing_file(self):
        problems, _ = check_trace.run(os.path.join(self.tmp.name, "nope.json"))
        self.assertProblem(problems, "cannot read")

    def test_missing_trace_events(self):
        problems, _ = check_trace.run(self.write({"events": []}))
        self.assertProblem(problems, 'no "traceEvents" array')

    # ---- events -------------------------------------------------------------------------
    def test_bad_slice_fields(self):
        problems = self.check(
            BASE + [x("neg", 1.0, -0.5), x("strts", "1.0", 1.0), x("nodur", 1.0, None), {"ph": "Q", "pid": 1}]
        )
        self.assertProblem(problems, "negative dur -0.5", "ts is not a number ('1.0')", "dur is not a number (None)",
                           "unknown phase")

    def test_partial_overlap(self):
        problems = self.check(BASE + [x("a", 1.0, 2.0), x("b", 2.0, 2.0)])
        self.assertProblem(problems, "name 'b') [2.0us, 4.0us] partially overlaps", "name 'a') [1.0us, 3.0us]")

    def test_child_ending_after_parent_by_a_nanosecond(self):
        problems = self.check(BASE + [x("parent", 0.0, 0.001), x("child", 0.001, 0.001)])
        self.assertEqual(problems, [])  # child starts at parent end: a sibling, not an overlap
        problems = self.check(BASE + [x("parent", 0.0, 0.002), x("child", 0.001, 0.002)])
        self.assertProblem(problems, "partially overlaps")

    def test_unnamed_process_and_thread(self):
        problems = self.check([x("a", 1.0, 1.0, pid=7, tid=8)])
        self.assertProblem(problems, "pid 7 has events but no process_name", "pid 7 tid 8 has events but no thread_name")

    def test_tid_equal_to_another_pid(self):
        # Thread 3 of process 1, and process 3 has a counter (which Perfetto gives tid 3).
        events = meta(1, 3, "P", "T") + meta(3, None, "Q") + [
            x("a", 1.0, 1.0, pid=1, tid=3),
            {"ph": "C", "pid": 3, "ts": 1.0, "name": "c", "args": {"value": 1}},
        ]
        self.assertProblem(self.check(events), "tid 3 is used by pids [1, 3]")

    def test_counter_values_must_be_numbers(self):
        events = BASE + [
            {"ph": "C", "pid": 3, "ts": 1.0, "name": "c", "args": {"value": None}},
            {"ph": "C", "pid": 3, "ts": 2.0, "name": "c", "args": {"value": "1.5"}},
            {"ph": "C", "pid": 3, "ts": 3.0, "name": "c", "args": {"value": True}},
            {"ph": "C", "pid": 3, "ts": 4.0, "name": "c", "args": {}},
        ]
        self.assertProblem(self.check(events), "(None)", "('1.5')", "(True)", "counter without args values")

    # ---- flows --------------------------------------------------------------------------
    def test_flow_start_without_finish_and_finish_without_start(self):
        events = BASE + [x("a", 1.0, 1.0), flow("s", 1, 1.0), x("b", 5.0, 1.0, pid=3, tid=4), flow("f", 2, 5.0, 3, 4)]
        self.assertProblem(self.check(events), "flow id 1 (cat 'flow', name 'launch'): start without a finish",
                           "flow id 2 (cat 'flow', name 'launch'): finish without a start")

    def test_flow_key_includes_name(self):
        events = BASE + [x("a", 1.0, 1.0), flow("s", 1, 1.0), x("b", 5.0, 1.0, 3, 4), flow("f", 1, 5.0, 3, 4, "other")]
        self.assertProblem(self.check(events), "start without a finish", "finish without a start")

    def test_duplicate_flow_start(self):
        events = BASE + [x("a", 1.0, 1.0), flow("s", 1, 1.0), flow("s", 1, 1.5), x("b", 5.0, 1.0, 3, 4),
                         flow("f", 1, 5.0, 3, 4)]
        self.assertProblem(self.check(events), "2 starts")

    def test_flow_binding_to_a_slice_that_already_ended(self):
        # "validate" is the slice most recently begun on the thread at 1.5 us, but it ended at
        # 1.4 us: Perfetto would draw the arrow from it, not from the enclosing API call.
        events = BASE + [x("call", 1.0, 2.0), x("validate", 1.1, 0.3), flow("s", 1, 1.5), x("task", 4.0, 1.0, 3, 4),
                         flow("f", 1, 4.0, 3, 4)]
        self.assertProblem(self.check(events), "binds to event", "name 'validate') [1.1us, 1.4us], which ended before it")

    def test_flow_without_any_slice(self):
        events = BASE + [flow("s", 1, 1.0), x("task", 4.0, 1.0, 3, 4), flow("f", 1, 4.0, 3, 4)]
        self.assertProblem(self.check(events), "no slice on its thread to bind to")

    def test_flow_finish_before_zero_length_target_binds_elsewhere(self):
        # At equal ts a zero-length slice is replayed in file order: written after the "f" it is
        # not yet open, so the flow binds to the earlier slice, which has ended.
        events = BASE + [x("call", 1.0, 1.0), flow("s", 1, 1.0), x("prev", 3.0, 1.0, 3, 4), flow("f", 1, 5.0, 3, 4),
                         x("target", 5.0, 0, 3, 4)]
        self.assertProblem(self.check(events), "name 'prev') [3.0us, 4.0us], which ended before it")
        events[-2], events[-1] = events[-1], events[-2]  # target first: fine
        self.assertEqual(self.check(events), [])

    def test_backwards_arrow(self):
        # A release arrow into the wait slice, which began before the record: Perfetto would
        # orient it from the wait to the record.
        events = BASE + [x("wait", 1.0, 10.0), x("record", 5.0, 0, 3, 4), flow("s", 1, 5.0, 3, 4),
                         flow("f", 1, 5.0)]
        self.assertProblem(self.check(events), "points backwards")

    def test_flow_finish_earlier_than_start(self):
        events = BASE + [x("a", 1.0, 1.0), flow("f", 1, 1.0), x("b", 5.0, 1.0, 3, 4), flow("s", 1, 5.0, 3, 4)]
        self.assertProblem(self.check(events), "finish is earlier than start")

    def test_flow_finish_without_bp_binds_to_next_slice(self):
        events = BASE + [x("a", 1.0, 1.0), flow("s", 1, 1.0), x("b", 5.0, 1.0, 3, 4)]
        f = flow("f", 1, 4.0, 3, 4)
        del f["bp"]
        self.assertEqual(self.check(events + [f], flows="1"), [])
        self.assertProblem(self.check(events[:-1] + [f]), "no slice begins after it")

    def test_flow_ids_as_hex_strings(self):
        s, f = flow("s", "0x1f", 1.0), flow("f", 31, 4.0, 3, 4)
        events = BASE + [x("a", 1.0, 1.0), s, x("b", 4.0, 1.0, 3, 4), f]
        self.assertEqual(self.check(events, flows="1"), [])
        s["id"] = "zz"
        self.assertProblem(self.check(events), "flow id 'zz' is neither an integer nor a hex string")

    # ---- begin/end pairs ----------------------------------------------------------------
    def test_async_pairs(self):
        def a(ph, ts, name="q", ident=None):
            return {"ph": ph, "pid": 3, "ts": ts, "name": name, "cat": "queue", "id2": {"local": ident or "0x1"}}

        self.assertEqual(self.check(BASE + [a("b", 1.0), a("b", 1.5, ident="0x2"), a("e", 2.0), a("e", 3.0, ident="0x2")]),
                         [])
        problems = self.check(BASE + [a("b", 1.0), a("e", 2.0, ident="0x2"), a("b", 3.0, "r", "0x3"),
                                      a("e", 4.0, "s", "0x3")])
        self.assertProblem(problems, "async begin never ends", "async end without a begin",
                           "async end does not match begin")
        no_id = {"ph": "b", "pid": 3, "ts": 1.0, "name": "q", "cat": "queue"}
        self.assertProblem(self.check(BASE + [no_id]), "async event without id or id2")

    def test_begin_end_pairs(self):
        b = {"ph": "B", "pid": 1, "tid": 2, "ts": 1.0, "name": "b"}
        e = {"ph": "E", "pid": 1, "tid": 2, "ts": 2.0}
        self.assertEqual(self.check(BASE + [b, e]), [])
        self.assertProblem(self.check(BASE + [b]), "B never ends")
        self.assertProblem(self.check(BASE + [e]), "E without a matching B")

    # ---- expectations -------------------------------------------------------------------
    def test_expectations_that_fail(self):
        problems, _ = check_trace.run(
            self.write({"traceEvents": self.good_events() + meta(3, 9, None, "Idle")}),
            threads=["NPU 0/Stream 2", "Host/Stream 1", "NPU 0/Idle"],
            counters=["NPU 0/HBM GB/s", "Host/PCIe H2D GB/s"],
            flows="2",
        )
        self.assertProblem(problems, 'expected thread "NPU 0/Stream 2"', 'expected thread "Host/Stream 1"',
                           'expected thread "NPU 0/Idle"', "threads with slices: Host/Thread 1, NPU 0/Stream 1",
                           'expected counter "NPU 0/HBM GB/s"', 'expected counter "Host/PCIe H2D GB/s"',
                           "counters: NPU 0/PCIe H2D GB/s value", "expected 2 flows, found 1")
        self.assertEqual(len(problems), 6)

    def test_at_least_n_flows(self):
        path = self.write({"traceEvents": self.good_events()})
        self.assertEqual(check_trace.run(path, flows="1+")[0], [])
        self.assertEqual(check_trace.run(path, flows="0+")[0], [])
        self.assertProblem(check_trace.run(path, flows="2+")[0], "expected 2+ flows, found 1")

    # ---- command line -------------------------------------------------------------------
    def cli(self, *args):
        return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)

    def test_cli_exit_codes_and_messages(self):
        good = self.write({"traceEvents": self.good_events()})
        r = self.cli(good, "--expect-thread", "Host/Thread 1", "--expect-counter", "NPU 0/PCIe H2D GB/s value",
                     "--expect-flows", "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("check_trace: OK", r.stdout)
        self.assertEqual(self.cli(good, "--quiet").stdout, "")

        bad = self.write({"traceEvents": BASE + [x("a", 1.0, 2.0), x("b", 2.0, 2.0)]})
        r = self.cli(bad)
        self.assertEqual(r.returncode, 1)
        self.assertIn("check_trace: FAILED", r.stderr)
        self.assertIn("partially overlaps", r.stderr)

        self.assertEqual(self.cli(good, "--expect-thread", "no-slash").returncode, 2)
        self.assertEqual(self.cli(good, "--expect-flows", "x").returncode, 2)
        self.assertEqual(self.cli().returncode, 2)

    def test_cli_caps_the_problem_list(self):
        events = BASE + [x(f"s{i}", float(i), 1.5) for i in range(40)]  # 39 partial overlaps
        r = self.cli(self.write({"traceEvents": events}))
        self.assertEqual(r.returncode, 1)
        self.assertIn("39 problem(s)", r.stderr)
        self.assertIn(f"... and {39 - check_trace.MAX_REPORTED} more", r.stderr)


if __name__ == "__main__":
    unittest.main()
