#!/usr/bin/env python3
"""Structural checks of a Chrome Trace Event JSON file, as npusim writes them (docs/trace.md).

usage: check_trace.py TRACE.json [--expect-thread "Process/Thread"]...
                      [--expect-counter "Process/Counter"]... [--expect-flows N|N+] [--quiet]

Checks that the file is valid JSON with a traceEvents array; every event has a known phase, an
integer pid and a numeric ts; X slices have a numeric dur >= 0 and nest properly per thread (no
partial overlaps); B/E and async b/e pairs match; every flow start "s" has a finish "f" with the
same (cat, name, id) and both bind to a slice the way Perfetto binds them, with the arrow pointing
forward in time; counters carry numeric values; every process and thread in use has a name; no
thread id is shared by two processes (Perfetto keys JSON threads by tid).

--expect-thread: a thread of that name, in a process of that name, has at least one slice.
--expect-counter: a counter of that name (the event name, or Perfetto's track name
  "<event name> <args key>") in a process of that name has at least one sample.
--expect-flows: exactly N complete flows (N+ means at least N).

Exit status: 0 when every check passes, 1 otherwise (each problem on stderr), 2 on bad usage.
Python 3 standard library only.
"""

import argparse
import json
import sys
from collections import defaultdict
from decimal import Decimal

MAX_REPORTED = 25  # problems printed before summarising the rest
PHASES = set("BEXiICbensftM")
THREAD_SCOPED = set("BEXstf")  # phases that live on a thread track


def is_number(v):
    return isinstance(v, (int, Decimal)) and not isinstance(v, bool)


def fmt_us(v):
    return f"{v}us"


def reject_constant(name):
    raise ValueError(f"{name} is not valid JSON")


class Checker:
    def __init__(self):
        self.problems = []
        self.process_names = {}  # pid -> name
        self.thread_names = {}  # (pid, tid) -> name
        self.slices = defaultdict(list)  # (pid, tid) -> [Slice]
        self.flow_events = defaultdict(list)  # (pid, tid) -> [event index]
        self.counters = defaultdict(lambda: defaultdict(int))  # pid -> Perfetto track name -> samples
        self.counter_events = defaultdict(lambda: defaultdict(int))  # pid -> event name -> samples
        self.used_pids = set()
        self.used_threads = set()
        self.tid_owners = defaultdict(set)  # tid -> pids using it (events without tid use tid = pid)
        self.events = []
        self.flow_count = 0
        self.async_count = 0

    def problem(self, msg):
        self.problems.append(msg)

    def where(self, i):
        e = self.events[i]
        return f"event #{i} (ph {e.get('ph')!r}, name {e.get('name')!r})"

    # ---- loading ---------------------------------------------------------------------------
    def load(self, path):
        try:
            with open(path, "rb") as f:
                data = json.load(f, parse_float=Decimal, parse_constant=reject_constant)
        except OSError as e:
            self.problem(f"cannot read {path}: {e.strerror}")
            return False
        except (ValueError, UnicodeDecodeError) as e:
            self.problem(f"{path} is not valid JSON: {e}")
            return False
        if isinstance(data, dict):
            events = data.get("traceEvents")
            if not isinstance(events, list):
                self.problem('top-level object has no "traceEvents" array')
                return False
        elif isinstance(data, list):
            events = data
        else:
            self.problem("top level is neither an object nor an array")
            return False
        self.events = events
        return True

    # ---- per-event checks ------------------------------------------------------------------
    def scan(self):
        for i, e in enumerate(self.events):
            if not isinstance(e, dict):
                self.problem(f"event #{i} is not an object")
                continue
            ph = e.get("ph")
            if not isinstance(ph, str) or ph not in PHASES:
                self.problem(f"{self.where(i)}: unknown phase")
                continue
            pid = e.get("pid")
            if not isinstance(pid, int) or isinstance(pid, bool):
                self.problem(f"{self.where(i)}: pid is not an integer")
                continue
            thread_scoped = ph in THREAD_SCOPED or (ph in "iI" and e.get("s", "t") == "t")
            tid = e.get("tid")
            if thread_scoped or (ph == "M" and e.get("name") in ("thread_name", "thread_sort_index")):
                if not isinstance(tid, int) or isinstance(tid, bool):
                    self.problem(f"{self.where(i)}: tid is not an integer")
                    continue
                self.tid_owners[tid].add(pid)
            else:
                self.tid_owners[tid if isinstance(tid, int) else pid].add(pid)
            if ph == "M":
                self.metadata(i, e, pid, tid)
                continue
            ts = e.get("ts")
            if not is_number(ts):
                self.problem(f"{self.where(i)}: ts is not a number ({ts!r})")
                continue
            self.used_pids.add(pid)
            if thread_scoped:
                self.used_threads.add((pid, tid))
            if ph == "X":
                dur = e.get("dur")
                if not is_number(dur):
                    self.problem(f"{self.where(i)}: dur is not a number ({dur!r})")
                elif dur < 0:
                    self.problem(f"{self.where(i)}: negative dur {dur}")
                else:
                    self.slices[(pid, tid)].append((ts, dur, i))
            elif ph in "iI" and thread_scoped:
                self.slices[(pid, tid)].append((ts, Decimal(0), i))
            elif ph in "stf":
                self.flow_events[(pid, tid)].append(i)
            elif ph == "C":
                self.counter(i, e, pid)

    def metadata(self, i, e, pid, tid):
        name = e.get("name")
        args = e.get("args")
        if name in ("process_name", "thread_name"):
            if not isinstance(args, dict) or not isinstance(args.get("name"), str):
                self.problem(f"{self.where(i)}: args.name is not a string")
            elif name == "process_name":
                self.process_names[pid] = args["name"]
            else:
                self.thread_names[(pid, tid)] = args["name"]
        elif name in ("process_sort_index", "thread_sort_index"):
            if not isinstance(args, dict) or not isinstance(args.get("sort_index"), int):
                self.problem(f"{self.where(i)}: args.sort_index is not an integer")

    def counter(self, i, e, pid):
        args = e.get("args")
        if not isinstance(args, dict) or not args:
            self.problem(f"{self.where(i)}: counter without args values")
            return
        name = e.get("name", "")
        if "id" in e:
            name = f"{name} id: {e['id']}"
        for key, value in args.items():
            if not is_number(value):
                self.problem(f"{self.where(i)}: counter value {key!r} is not a number ({value!r})")
                continue
            self.counter_events[pid][name] += 1
            self.counters[pid][f"{name} {key}"] += 1

    # ---- cross-event checks ----------------------------------------------------------------
    def check_names_and_ids(self):
        for pid in sorted(self.used_pids - set(self.process_names)):
            self.problem(f"pid {pid} has events but no process_name")
        for pid, tid in sorted(self.used_threads - set(self.thread_names)):
            self.problem(f"thread pid {pid} tid {tid} has events but no thread_name")
        for tid, pids in sorted(self.tid_owners.items(), key=lambda kv: str(kv[0])):
            if len(pids) > 1:
                self.problem(
                    f"tid {tid} is used by pids {sorted(pids)}: Perfetto keys JSON threads by tid "
                    f"(events without a tid count as tid = pid), so the tracks would merge or split"
                )

    def check_nesting_and_flows(self):
        """Replays each thread the way Perfetto's importer does: events sorted by ts, longer
        slices first at equal ts (other events count as zero-length), then file order. A slice
        closes when a later slice starts at or after its end; a flow event binds to the slice on
        top of the stack, i.e. the one most recently begun, even if it has already ended."""
        bound = {}  # event index of s/t/f -> (start, end, slice event index)
        for key in set(self.slices) | set(self.flow_events):
            items = [(ts, -dur, i, "slice", ts + dur) for ts, dur, i in self.slices.get(key, [])]
            items += [(self.events[i]["ts"], Decimal(0), i, "flow", None) for i in self.flow_events.get(key, [])]
            items.sort(key=lambda it: (it[0], it[1], it[2]))
            stack = []  # (start, end, index)
            pending = []  # "f" events without bp "e": bind to the next slice that begins
            for ts, _, i, kind, end in items:
                if kind == "slice":
                    while stack and stack[-1][1] <= ts:
                        stack.pop()
                    if stack and end > stack[-1][1]:
                        p = stack[-1]
                        self.problem(
                            f"{self.where(i)} [{fmt_us(ts)}, {fmt_us(end)}] partially overlaps "
                            f"{self.where(p[2])} [{fmt_us(p[0])}, {fmt_us(p[1])}] on pid {key[0]} tid {key[1]}"
                        )
                    stack.append((ts, end, i))
                    for f in pending:
                        bound[f] = stack[-1]
                    pending = []
                    continue
                e = self.events[i]
                if e["ph"] == "f" and e.get("bp") != "e":
                    pending.append(i)
                elif not stack:
                    self.problem(f"{self.where(i)} at {fmt_us(ts)}: no slice on its thread to bind to")
                elif stack[-1][1] < ts:
                    top = stack[-1]
                    self.problem(
                        f"{self.where(i)} at {fmt_us(ts)} binds to {self.where(top[2])} "
                        f"[{fmt_us(top[0])}, {fmt_us(top[1])}], which ended before it (Perfetto binds "
                        f"a flow to the slice most recently begun on its thread)"
                    )
                else:
                    bound[i] = stack[-1]
            for i in pending:
                self.problem(f"{self.where(i)}: no slice begins after it on its thread to bind to")
        self.match_flows(bound)

    def flow_id(self, i):
        v = self.events[i].get("id")
        if isinstance(v, int) and not isinstance(v, bool):
            return v
        if isinstance(v, str):
            try:
                return int(v, 16)
            except ValueError:
                pass
        self.problem(f"{self.where(i)}: flow id {v!r} is neither an integer nor a hex string")
        return None

    def match_flows(self, bound):
        flows = defaultdict(lambda: {"s": [], "t": [], "f": []})
        for key in self.flow_events:
            for i in self.flow_events[key]:
                fid = self.flow_id(i)
                if fid is not None:
                    e = self.events[i]
                    flows[(e.get("cat", ""), e.get("name", ""), fid)][e["ph"]].append(i)
        for (cat, name, fid), ev in sorted(flows.items(), key=lambda kv: str(kv[0])):
            label = f"flow id {fid} (cat {cat!r}, name {name!r})"
            if len(ev["s"]) > 1:
                self.problem(f"{label}: {len(ev['s'])} starts (ids must be unique)")
            if not ev["s"]:
                self.problem(f"{label}: finish without a start")
                continue
            if not ev["f"]:
                self.problem(f"{label}: start without a finish")
                continue
            if len(ev["f"]) > 1:
                self.problem(f"{label}: {len(ev['f'])} finishes")
            chain = sorted(ev["s"][:1] + ev["t"] + ev["f"][:1], key=lambda i: (self.events[i]["ts"], i))
            if chain[0] != ev["s"][0] or chain[-1] != ev["f"][0]:
                self.problem(f"{label}: finish is earlier than start")
                continue
            self.flow_count += len(chain) - 1
            for a, b in zip(chain, chain[1:]):
                if a in bound and b in bound and bound[a][0] > bound[b][0]:
                    self.problem(
                        f"{label}: arrow from {self.where(bound[a][2])} (starts {fmt_us(bound[a][0])}) into "
                        f"{self.where(bound[b][2])} (starts {fmt_us(bound[b][0])}) points backwards; "
                        f"Perfetto orients arrows by slice start, so end it on a slice starting at or after the source"
                    )

    def check_begin_end(self):
        stacks = defaultdict(list)
        for i, e in enumerate(self.events):
            if isinstance(e, dict) and e.get("ph") in ("B", "E") and is_number(e.get("ts")):
                stacks[(e.get("pid"), e.get("tid"))].append(i)
        for key, idx in stacks.items():
            depth = []
            for i in sorted(idx, key=lambda i: (self.events[i]["ts"], i)):
                if self.events[i]["ph"] == "B":
                    depth.append(i)
                elif not depth:
                    self.problem(f"{self.where(i)}: E without a matching B")
                else:
                    depth.pop()
            for i in depth:
                self.problem(f"{self.where(i)}: B never ends")

    def check_async(self):
        groups = defaultdict(list)
        for i, e in enumerate(self.events):
            if not isinstance(e, dict) or e.get("ph") not in ("b", "e", "n") or not is_number(e.get("ts")):
                continue
            if "id" in e:
                ident = ("id", str(e["id"]))
            elif isinstance(e.get("id2"), dict) and ("local" in e["id2"] or "global" in e["id2"]):
                scope = "local" if "local" in e["id2"] else "global"
                ident = (scope, str(e["id2"][scope]))
            else:
                self.problem(f"{self.where(i)}: async event without id or id2")
                continue
            groups[(e.get("pid"), e.get("cat", ""), ident)].append(i)
        for key, idx in groups.items():
            open_ = []
            for i in sorted(idx, key=lambda i: (self.events[i]["ts"], i)):
                ph = self.events[i]["ph"]
                if ph == "b":
                    open_.append(i)
                    self.async_count += 1
                elif ph == "e":
                    if not open_:
                        self.problem(f"{self.where(i)}: async end without a begin")
                        continue
                    b = open_.pop()
                    if "name" in self.events[i] and self.events[i]["name"] != self.events[b].get("name"):
                        self.problem(f"{self.where(i)}: async end does not match begin {self.where(b)}")
            for i in open_:
                self.problem(f"{self.where(i)}: async begin never ends")

    # ---- expectations ----------------------------------------------------------------------
    def pids_named(self, name):
        return {pid for pid, n in self.process_names.items() if n == name}

    def expect_thread(self, spec):
        proc, _, thread = spec.partition("/")
        pids = self.pids_named(proc)
        for (pid, tid), name in self.thread_names.items():
            if pid in pids and name == thread and self.slices.get((pid, tid)):
                return
        have = sorted(
            f"{self.process_names.get(p, p)}/{n}" for (p, t), n in self.thread_names.items() if self.slices.get((p, t))
        )
        self.problem(f'expected thread "{spec}" with slices; threads with slices: {", ".join(have) or "none"}')

    def expect_counter(self, spec):
        proc, _, name = spec.partition("/")
        for pid in self.pids_named(proc):
            if self.counters.get(pid, {}).get(name, 0) > 0 or self.counter_events.get(pid, {}).get(name, 0) > 0:
                return
        have = sorted(f"{self.process_names.get(p, p)}/{n}" for p, c in self.counters.items() for n in c)
        self.problem(f'expected counter "{spec}" with samples; counters: {", ".join(have) or "none"}')

    def expect_flows(self, spec):
        want = int(spec.rstrip("+"))
        ok = self.flow_count >= want if spec.endswith("+") else self.flow_count == want
        if not ok:
            self.problem(f"expected {spec} flows, found {self.flow_count}")

    def summary(self):
        n_slices = sum(len(v) for v in self.slices.values())
        n_tracks = sum(len(c) for c in self.counters.values())
        n_samples = sum(v for c in self.counters.values() for v in c.values())
        return (
            f"{len(self.process_names)} processes, {len(self.thread_names)} threads, {n_slices} slices, "
            f"{n_tracks} counter tracks ({n_samples} samples), {self.flow_count} flows, "
            f"{self.async_count} async slices"
        )


def run(path, threads=(), counters=(), flows=None):
    """Returns (problems, summary) for the trace at `path`."""
    c = Checker()
    if c.load(path):
        c.scan()
        c.check_names_and_ids()
        c.check_nesting_and_flows()
        c.check_begin_end()
        c.check_async()
        for spec in threads:
            c.expect_thread(spec)
        for spec in counters:
            c.expect_counter(spec)
        if flows is not None:
            c.expect_flows(flows)
    return c.problems, c.summary()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace")
    ap.add_argument("--expect-thread", action="append", default=[], metavar="PROCESS/THREAD")
    ap.add_argument("--expect-counter", action="append", default=[], metavar="PROCESS/COUNTER")
    ap.add_argument("--expect-flows", metavar="N|N+")
    ap.add_argument("--quiet", action="store_true", help="print nothing when the trace passes")
    args = ap.parse_args(argv)
    for spec in args.expect_thread + args.expect_counter:
        if "/" not in spec:
            ap.error(f'expectation "{spec}" is not "Process/Name"')
    if args.expect_flows is not None and not args.expect_flows.rstrip("+").isdigit():
        ap.error("--expect-flows takes N or N+")
    problems, summary = run(args.trace, args.expect_thread, args.expect_counter, args.expect_flows)
    if problems:
        print(f"check_trace: FAILED {args.trace}: {len(problems)} problem(s)", file=sys.stderr)
        for p in problems[:MAX_REPORTED]:
            print(f"  {p}", file=sys.stderr)
        if len(problems) > MAX_REPORTED:
            print(f"  ... and {len(problems) - MAX_REPORTED} more", file=sys.stderr)
        return 1
    if not args.quiet:
        print(f"check_trace: OK {args.trace}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
