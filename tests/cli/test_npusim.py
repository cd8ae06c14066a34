#!/usr/bin/python3
"""Tests of the npusim command: each subcommand's output on small programs, sweeps (local and on
a local Dask cluster), compare, plots, and the refusals of bad input.

Run through ctest (tests/cli/CMakeLists.txt sets the paths), or by hand:
    NPUSIM_BIN=build/tools/npusim NPUSIM_TEST_APP=build/tests/cli/cli_test_app \\
    NPUSIM_SEED002=build/examples/seed002_data_transfer tests/cli/test_npusim.py -v
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

NPUSIM = os.environ.get("NPUSIM_BIN", "npusim")
APP = os.environ.get("NPUSIM_TEST_APP", "cli_test_app")
SEED002 = os.environ.get("NPUSIM_SEED002", "seed002_data_transfer")
SOURCE = os.environ.get("NPUSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
PLOT = os.path.join(SOURCE, "scripts", "plot")

# PCIe payload bandwidth of an x16 link before protocol overheads: GT/s x lanes x 128b/130b / 8.
GTS = {3: 8.0, 4: 16.0, 5: 32.0}


def raw_GBps(gen, lanes=16):
    return GTS[gen] * lanes * (128.0 / 130.0) / 8.0


def npusim(*args, cwd=None):
    return subprocess.run([NPUSIM, *args], cwd=cwd, capture_output=True, text=True, timeout=110)


class TempDirTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="npusim-cli-test-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def assertRan(self, proc, code=0):
        self.assertEqual(proc.returncode, code, "stdout:\n%s\nstderr:\n%s" % (proc.stdout, proc.stderr))


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def h2d_ms(log_path):
    with open(log_path) as f:
        m = re.search(r"h2d_ms=([0-9.]+)", f.read())
    return float(m.group(1)) if m else None


class HelpTest(unittest.TestCase):
    def test_help_on_every_subcommand(self):
        for cmd in ([], ["run"], ["sweep"], ["compare"], ["bandwidth"], ["config"], ["config", "show"],
                    ["topology"], ["presets"]):
            p = npusim(*cmd, "--help")
            self.assertEqual(p.returncode, 0, cmd)
            self.assertIn("Usage: npusim", p.stdout, cmd)
            if cmd:
                self.assertIn(cmd[-1], p.stdout.splitlines()[1] + p.stdout.splitlines()[2], cmd)
        self.assertIn("--set", npusim("run", "--help").stdout)
        self.assertIn("--dask", npusim("sweep", "--help").stdout)

    def test_no_subcommand_is_a_usage_error(self):
        p = npusim()
        self.assertEqual(p.returncode, 2)
        self.assertIn("subcommand", p.stderr.lower())


class ConfigTest(unittest.TestCase):
    def test_presets_lists_names_and_descriptions(self):
        p = npusim("presets")
        self.assertEqual(p.returncode, 0)
        self.assertRegex(p.stdout, r"(?m)^910b\n\s+910B-class system")
        names = [e["name"] for e in json.loads(npusim("presets", "--json").stdout)]
        self.assertIn("910b", names)

    def test_config_show_values_units_sources(self):
        p = npusim("config", "show", "--set", "pcie.gen=5")
        self.assertEqual(p.returncode, 0, p.stderr)
        # The override and the four values derived from it (issue 14.2), each saying so.
        self.assertIn("5 overridden", p.stdout)
        self.assertRegex(p.stdout, r"(?m)^  pcie\.gen\s+5\s+override \(was 4\)$")
        self.assertRegex(p.stdout, r"(?m)^  pcie\.read_completion_bytes\s+128\s+B\s+derived from pcie\.gen = 5: .*\(was 64\)$")
        self.assertRegex(p.stdout, r"(?m)^  pcie\.posted_credit_bytes\s+16384\s+B\s+derived from pcie\.gen = 5")
        self.assertRegex(p.stdout, r"(?m)^  pcie\.width\s+16\s+lanes\s+hardware\.md")
        self.assertRegex(p.stdout, r"(?m)^\[hbm\]$")
        j = json.loads(npusim("config", "show", "--set", "pcie.gen=5", "--json").stdout)
        gen, width = j["params"]["pcie.gen"], j["params"]["pcie.width"]
        self.assertEqual((gen["value"], gen["source"], gen["preset_value"]), (5, "override", 4))
        self.assertEqual((width["value"], width["unit"], width["type"]), (16, "lanes", "int"))
        self.assertTrue(width["source"])
        self.assertEqual((gen["min"], gen["max"]), (1, 6))

    def test_config_show_doc_and_preset(self):
        p = npusim("config", "show", "--preset", "910b", "--doc")
        self.assertEqual(p.returncode, 0)
        self.assertRegex(p.stdout, r"PCIe generation of every link.*\(int \[1 \.\. 6\]\)")

    def test_topology_tree_and_peer_groups(self):
        p = npusim("topology")
        self.assertEqual(p.returncode, 0)
        self.assertIn("Root complex\n  Switch 0 (Gen4 x16)\n    NPU 0 (Gen4 x16)", p.stdout)
        self.assertIn("NPU 0, NPU 1, NPU 2, NPU 3\n  NPU 4, NPU 5, NPU 6, NPU 7", p.stdout)
        p = npusim("topology", "--set", "pcie.gen=5,system.p2p_across_switches=true")
        self.assertIn("Switch 1 (Gen5 x16)", p.stdout)
        self.assertIn("all pairs", p.stdout)
        tree = json.loads(npusim("topology", "--json").stdout)
        self.assertEqual(tree["name"], "Root complex")
        self.assertEqual(sum(len(s["children"]) for s in tree["children"]), 8)


    def test_topology_shows_hccs_links_and_their_modules(self):
        p = npusim("topology", "--preset", "910b-hccs")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("HCCS: 28 point-to-point links, each 56 GB/s per direction (80 % data: 44.8 GB/s), "
                      "100 ns one way", p.stdout)
        for d in range(8):
            peers = ", ".join(str(e) for e in range(8) if e != d)
            self.assertIn(f"NPU {d} <-> NPU {peers} (7 links)", p.stdout)
        self.assertIn("over HCCS between linked devices", p.stdout)
        tree = json.loads(npusim("topology", "--preset", "910b-hccs", "--json").stdout)
        self.assertEqual(len(tree["hccs"]["links"]), 28)
        link = tree["hccs"]["links"][0]
        self.assertEqual((link["devices"], link["gbps"], link["latency_ns"]), ([0, 1], 56.0, 100.0))
        self.assertAlmostEqual(link["data_gbps"], 44.8)
        self.assertNotIn("hccs", json.loads(npusim("topology", "--json").stdout))
        m = npusim("topology", "--preset", "910b-hccs", "--modules")
        self.assertEqual(m.returncode, 0, m.stderr)
        self.assertIn("npusim.hccs.npu0_npu1 (sc_module)", m.stdout)
        self.assertIn("socket npusim.npu3.dma.hccs -> npusim.hccs.npu3.from_dma", m.stdout)
        self.assertIn("socket npusim.hccs.npu6_npu7.to_b -> npusim.npu7.mem_bus.in", m.stdout)
        self.assertEqual(len(re.findall(r"(?m)^\s*npusim\.hccs\.npu\d_npu\d \(sc_module\)$", m.stdout)), 28)
        self.assertEqual(len(re.findall(r"(?m)^\s*npusim\.hccs\.npu\d \(sc_module\)$", m.stdout)), 8)
        self.assertNotIn("hccs", npusim("topology", "--modules").stdout)


class BadInputTest(TempDirTest):
    def refused(self, *args):
        marker = self.path("ran")
        p = npusim(*args, "--", APP, "--touch", marker)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertFalse(os.path.exists(marker), "the program ran despite the bad configuration")
        return p.stderr

    def test_bad_key_names_the_nearest(self):
        err = self.refused("run", "--set", "pcie.gne=5")
        self.assertIn("unknown parameter 'pcie.gne'", err)
        self.assertIn("did you mean 'pcie.gen'", err)

    def test_bad_values(self):
        self.assertIn("'pcie.gen' = 9 is above its maximum 6", self.refused("run", "--set", "pcie.gen=9"))
        self.assertIn("'pcie.gen': 'four' is not an integer", self.refused("run", "--set", "pcie.gen=four"))
        err = self.refused("run", "--set", "hbm.page_policy=opne")
        self.assertIn("hbm.page_policy", err)
        self.assertIn("did you mean 'open'", err)

    def test_bad_preset_names_the_nearest(self):
        err = self.refused("run", "--preset", "910c")
        self.assertIn("unknown preset '910c'", err)
        self.assertIn("did you mean '910b'", err)
        self.assertEqual(npusim("config", "show", "--preset", "910c").returncode, 2)
        self.assertEqual(npusim("bandwidth", "--preset", "910c").returncode, 2)

    def test_inconsistent_configuration_refused_by_every_command(self):
        # Issue 17.6: one check (Config::check) when the configuration is read, naming the key.
        for cmd in (["run"], ["sweep", "--out", self.path("sw"), "--set", "pcie.gen=4,5"]):
            err = self.refused(*cmd, "--set", "hbm.address_map=xx-yy")
            self.assertIn("hbm.address_map", err)
        show = npusim("config", "show", "--set", "hbm.address_map=xx-yy")
        self.assertEqual(show.returncode, 2)
        self.assertIn("hbm.address_map", show.stderr)
        topo = self.path("dup.json")
        with open(topo, "w") as f:
            json.dump({"extends": "910b", "topology": {"root_ports": [{"device": 0}, {"device": 0}]}}, f)
        self.assertIn("device id 0 appears twice", self.refused("run", "--config", topo))
        with open(topo, "w") as f:
            json.dump({"extends": "910b", "topology": {"root_ports": [{"device": 0, "link": {"gen": 9}}]}}, f)
        self.assertIn("link gen 9", self.refused("run", "--config", topo))
        self.assertEqual(npusim("config", "show", "--config", topo).returncode, 2)

    def test_bad_sweep_value_refused_before_any_point_runs(self):
        out = self.path("sweep")
        err = self.refused("sweep", "--out", out, "--set", "pcie.gen=3,4,7")
        self.assertIn("'pcie.gen' = 7 is above its maximum 6", err)
        self.assertFalse(os.path.exists(out))
        err = self.refused("sweep", "--out", out, "--set", "pcie.gen=3", "--set", "hbm.stack=2,4")
        self.assertIn("did you mean 'hbm.stacks'", err)

    def test_missing_program_and_files(self):
        p = npusim("run", "--", self.path("no-such-program"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("not found", p.stderr)
        self.assertEqual(npusim("compare", self.path("a.json"), self.path("b.json")).returncode, 2)
        self.assertEqual(npusim("bandwidth", "--size", "12 parsecs").returncode, 2)


class RunTest(TempDirTest):
    def test_run_prints_summary_matching_statistics(self):
        stats, trace = self.path("s.json"), self.path("t.json")
        p = npusim("run", "--stats", stats, "--trace", trace, "--", SEED002)
        self.assertRan(p)
        self.assertIn("seed 002 data transfer: all copies correct", p.stdout)
        s = json.load(open(stats))
        m = re.search(r"simulated time ([0-9.]+) us \(preset 910b\)", p.stderr)
        self.assertAlmostEqual(float(m.group(1)), s["sim_time_us"], places=3)
        # The DMA line: copies, bytes and bandwidth from the statistics file.
        chans = s["devices"][0]["dma"]
        copies = sum(c["copies"] for c in chans)
        busy = sum(c["busy_us"] for c in chans)
        mib = sum(c["bytes"] for c in chans) / 2**20
        # One line per channel that moved data: busy % of the simulated time, not averaged over channels.
        used = [c for c in chans if c["copies"] > 0]
        self.assertEqual(len(used), 1)
        line = re.search(r"NPU 0 DMA ch %d\s+([0-9.]+) %%\s+([0-9.]+)\s+([0-9.]+) MiB\s+([0-9.]+) GB/s\s+"
                         r"([0-9.]+) GB/s\s+(\d+) copies" % used[0]["channel"], p.stderr)
        self.assertIsNotNone(line, p.stderr)
        self.assertAlmostEqual(float(line.group(1)), 100 * busy / s["sim_time_us"], places=2)
        self.assertAlmostEqual(float(line.group(3)), mib, places=3)
        self.assertAlmostEqual(float(line.group(5)), used[0]["peak_GBps"], places=2)
        self.assertEqual(int(line.group(6)), copies)
        total = re.search(r"NPU 0 DMA total \(1/4 ch used\)\s+-\s+([0-9.]+)\s+([0-9.]+) MiB", p.stderr)
        self.assertIsNotNone(total, p.stderr)
        self.assertAlmostEqual(float(total.group(1)), busy, places=2)
        self.assertIn("NPU 1-7: idle", p.stderr)
        self.assertIn("NPU 0 link up", p.stderr)
        for stream in ("NPU 0 sync copies", "NPU 0 stream"):
            self.assertIn(stream, p.stderr)
        self.assertIn("traceEvents", open(trace).read(4096))

    def test_run_reports_where_streams_spent_time_and_overrides(self):
        p = npusim("run", "--set", "pcie.gen=3", "--", APP, "--bytes", "1048576", "--copies", "4")
        self.assertRan(p)
        self.assertIn("override pcie.gen: 4 -> 3", p.stderr)
        row = re.search(r"NPU 0 stream \d+\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)", p.stderr)
        self.assertIsNotNone(row, p.stderr)
        tasks, running, event_wait, engine_wait, queued = row.groups()
        self.assertEqual(int(tasks), 6)  # 2 event records + 4 copies
        # Four back-to-back 1 MiB copies: each waits behind the previous one in the stream.
        self.assertGreater(float(queued), float(running))
        # Running time ~ 4 MiB over a Gen3 x16 link at < 80 % efficiency.
        self.assertGreater(float(running), 4 * 2**20 / (0.8 * raw_GBps(3) * 1e3))

    def assertAbnormalOutputs(self, p, stats, trace, reason):
        """The run ended abnormally: statistics so far and a closed trace, both saying how."""
        s = json.load(open(stats))
        self.assertEqual(s["end"], {"normal": False, "signal": s["end"]["signal"], "reason": reason})
        self.assertGreater(s["sim_time_us"], 0)
        self.assertIn("ended abnormally (%s)" % reason, p.stderr)
        events = json.load(open(trace))["traceEvents"]  # loads: complete up to the end, closed
        ends = [e for e in events if e.get("cat") == "abnormal_end"]
        self.assertEqual(len(ends), 1, ends)
        self.assertIn(reason, ends[0]["name"])
        self.assertTrue(any(e.get("name") == "aclrtMemcpyAsync" for e in events))
        self.assertIn("open in https://ui.perfetto.dev", p.stderr)

    def test_crash_is_reported_with_signal(self):
        stats, trace = self.path("s.json"), self.path("t.json")
        p = npusim("run", "--stats", stats, "--trace", trace, "--", APP, "--abort")
        self.assertEqual(p.returncode, 128 + 6, p.stderr)
        self.assertIn("killed by signal 6 (SIGABRT", p.stderr)
        self.assertAbnormalOutputs(p, stats, trace, "SIGABRT")

    def test_segfault_is_reported_as_segfault(self):
        stats, trace = self.path("s.json"), self.path("t.json")
        p = npusim("run", "--stats", stats, "--trace", trace, "--", APP, "--segv")
        self.assertEqual(p.returncode, 128 + 11, p.stderr)
        self.assertIn("killed by signal 11 (SIGSEGV", p.stderr)
        self.assertNotIn("SIGABRT", p.stderr)
        self.assertAbnormalOutputs(p, stats, trace, "SIGSEGV")

    def test_timeout_stops_program_and_keeps_outputs(self):
        stats, trace = self.path("s.json"), self.path("t.json")
        # 5 s, not less: under a loaded CI machine (ASan, two cores) the program must have reached its
        # copy loop before the timer fires, or the trace has no copy to show.
        p = npusim("run", "--timeout", "5", "--stats", stats, "--trace", trace, "--", APP, "--forever",
                   "--bytes", "65536")
        self.assertEqual(p.returncode, 124, p.stderr)
        self.assertIn("timed out after 5 s", p.stderr)
        self.assertAbnormalOutputs(p, stats, trace, "SIGTERM")

    def test_part_presets_report_their_part(self):
        # Each 910B part preset: the runtime reports the preset's part name, core counts and memory
        # (read from the preset files, the inputs), and a copy runs on it.
        def params(name):
            doc = json.load(open(os.path.join(SOURCE, "configs", name + ".json")))
            base = params(doc["extends"]) if "extends" in doc else {}
            base.update({k: v["value"] for k, v in doc["params"].items()})
            return base
        seen = set()
        for preset in ("910b", "910b1", "910b3", "910b4"):
            want = params(preset)
            p = npusim("run", "-q", "--preset", preset, "--", APP, "--part")
            self.assertRan(p)
            m = re.search(r"soc=(\S+) aic=(\d+) aiv=(\d+) mem=(\d+)", p.stdout)
            self.assertIsNotNone(m, p.stdout)
            self.assertEqual(m.group(1), want["system.soc_name"])
            self.assertEqual(int(m.group(2)), want["aicore.cube_cores"])
            self.assertEqual(int(m.group(3)), want["aicore.vector_cores"])
            self.assertEqual(int(m.group(4)), want["hbm.capacity_bytes"])
            seen.add(m.group(1))
        self.assertEqual(seen, {"Ascend910B2", "Ascend910B1", "Ascend910B3", "Ascend910B4"})

    def test_output_paths_checked_before_the_program_starts(self):
        touched = self.path("ran")
        for opt in ("--stats", "--trace"):
            p = npusim("run", opt, "/nonexistent/dir/x.json", "--", APP, "--touch", touched)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("%s /nonexistent/dir/x.json: directory '/nonexistent/dir' does not exist" % opt, p.stderr)
            self.assertFalse(os.path.exists(touched), "the program must not have started")

    def test_quiet_prints_nothing_but_the_program_output(self):
        p = npusim("run", "-q", "--stats", self.path("s.json"), "--trace", self.path("t.json"), "--", APP)
        self.assertRan(p)
        self.assertEqual(p.stderr, "")
        self.assertIn("h2d_ms=", p.stdout)

    def test_nonzero_exit_is_reported_and_passed_on(self):
        p = npusim("run", "--", APP, "--exit", "3")
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("exited with status 3", p.stderr)
        self.assertIn("simulated time", p.stderr)  # statistics are written at exit all the same

    def test_inherited_environment_does_not_leak_in(self):
        env = dict(os.environ, NPUSIM_SET="pcie.gen=1", NPUSIM_SUMMARY="1")
        stats = self.path("s.json")
        p = subprocess.run([NPUSIM, "run", "--stats", stats, "--", APP], capture_output=True, text=True, env=env)
        self.assertRan(p)
        self.assertEqual(json.load(open(stats))["config"]["params"]["pcie.gen"], 4)
        self.assertEqual(p.stderr.count("npusim summary"), 1)


class BandwidthTest(unittest.TestCase):
    def measure(self, *args):
        p = npusim("bandwidth", "--size", "4MiB", "--json", *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout)

    def test_matrix_follows_pcie_physics(self):
        g4 = self.measure()
        self.assertEqual((g4["devices"], g4["bytes"]), (8, 4 * 2**20))
        raw = raw_GBps(4)
        for d in range(8):
            # Reads of host memory come back in 64 B completions: at most 64/84 of the raw rate.
            self.assertTrue(0.6 * raw < g4["h2d"][d] < 64 / 84 * raw, g4["h2d"])
            # Posted writes carry 256 B payloads: at most 256/280 of the raw rate.
            self.assertTrue(0.6 * raw < g4["d2h"][d] < 256 / 280 * raw, g4["d2h"])
            # Device-local copies do not cross PCIe; they are bounded by the DMA channel (100 GB/s).
            self.assertTrue(raw < g4["d2d"][d] <= 100.0, g4["d2d"])
            for e in range(8):
                same_switch = d // 4 == e // 4
                if d == e or not same_switch:
                    self.assertIsNone(g4["p2p"][d][e])
                else:
                    self.assertTrue(0.6 * raw < g4["p2p"][d][e] < 256 / 280 * raw)
        g5 = self.measure("--set", "pcie.gen=5")
        # Gen5 doubles the lane rate and (derived from pcie.gen) returns 128 B completions:
        # 2 x (128/148) / (64/84) = 2.27 times the Gen4 H2D rate.
        for d in range(8):
            self.assertAlmostEqual(g5["h2d"][d] / g4["h2d"][d], 2 * (128 / 148) / (64 / 84), delta=0.15)
        self.assertIn("pcie.gen: 4 -> 5", g5["overrides"])
        self.assertIn("pcie.read_completion_bytes: 64 -> 128", g5["overrides"])

    def test_generation_override_equals_the_generation_preset(self):
        # Issue 14.2: what follows from pcie.gen (completion size, posted credits, switch latency)
        # is derived from it, so the override and the Gen5 preset give the same copy bandwidths.
        mine = self.measure("--set", "pcie.gen=5")
        preset = self.measure("--preset", "910b-gen5")
        for kind in ("h2d", "d2h", "d2d"):
            for a, b in zip(mine[kind], preset[kind]):
                self.assertAlmostEqual(a / b, 1.0, delta=0.03, msg=kind)
        self.assertGreater(min(mine["d2h"]), 45.0)  # not the Gen4 credit limit of 25.6 GB/s

    def test_text_matrix_and_peer_access_what_if(self):
        p = npusim("bandwidth", "--size", "1MiB")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"(?m)^H2D(\s+[0-9]+\.[0-9]{2}){8}$")
        self.assertRegex(p.stdout, r"(?m)^NPU 0\s+-(\s+[0-9.]+){3}(\s+n/a){4}$")
        across = self.measure("--set", "system.p2p_across_switches=true")
        self.assertTrue(all(across["p2p"][d][e] for d in range(8) for e in range(8) if d != e))


    def test_p2p_matrix_per_link_type(self):
        # The full mesh: every pair over HCCS at the link's data rate, 56 GB/s x 0.8. The events
        # around a 4 MiB copy (94 us at that rate) also hold its host launch and start-up, under
        # 5 us: at least 94 / 99 of the rate.
        mesh = self.measure("--preset", "910b-hccs")
        for d in range(8):
            for e in range(8):
                if d != e:
                    self.assertEqual(mesh["p2p_link"][d][e], "HCCS")
                    self.assertTrue(0.95 * 44.8 < mesh["p2p"][d][e] <= 44.8, mesh["p2p"][d][e])
        # One linked pair: 0<->1 over HCCS, the rest of switch 0 over PCIe, the other switch n/a.
        path = os.path.join(tempfile.mkdtemp(prefix="npusim-cli-test-"), "pair.json")
        with open(path, "w") as f:
            json.dump({"extends": "910b-hccs", "topology": {"hccs": {"pairs": [[0, 1]]}}}, f)
        p = npusim("bandwidth", "--size", "1MiB", "--preset", path)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("memcpy peer-to-peer over HCCS", p.stdout)
        self.assertIn("memcpy peer-to-peer over PCIe", p.stdout)
        hccs, pcie = p.stdout.split("over HCCS")[1].split("over PCIe")
        self.assertRegex(hccs, r"(?m)^NPU 0\s+-\s+[0-9.]+(\s+\.){6}$")
        self.assertRegex(pcie, r"(?m)^NPU 0\s+-\s+\.(\s+[0-9.]+){2}(\s+n/a){4}$")
        shutil.rmtree(os.path.dirname(path), ignore_errors=True)


class CompareTest(TempDirTest):
    def test_compare_two_runs_differing_in_one_parameter(self):
        a, b = self.path("gen4.json"), self.path("gen5.json")
        self.assertRan(npusim("run", "-q", "--stats", a, "--", APP))
        self.assertRan(npusim("run", "-q", "--stats", b, "--set", "pcie.gen=5", "--", APP))
        p = npusim("compare", a, b)
        self.assertRan(p)
        out = p.stdout
        sa, sb = json.load(open(a)), json.load(open(b))
        self.assertIn("simulated time: %.3f us -> %.3f us" % (sa["sim_time_us"], sb["sim_time_us"]), out)
        config, stats = out.split("Statistics, largest relative difference first")
        self.assertRegex(config, r"(?m)^  pcie\.gen\s+4 -> 5$")
        self.assertNotIn("hbm.", config)
        # Rows are ordered by the size of the relative change.
        changes = [abs(float(c)) for c in re.findall(r"([+-][0-9.]+) %$", stats, re.M)]
        self.assertGreater(len(changes), 5)
        self.assertEqual(changes, sorted(changes, reverse=True))
        self.assertRegex(stats, r"(?m)^  sim_time_us\s")
        j = json.loads(npusim("compare", "--json", a, b).stdout)
        # pcie.gen and what is derived from it (issue 14.2).
        self.assertEqual(sorted(c["key"] for c in j["config"] if not c["key"].startswith("topology")),
                         ["pcie.gen", "pcie.posted_credit_bytes", "pcie.read_completion_bytes", "pcie.read_tags",
                          "pcie.switch_latency_ns"])
        rel = {s["key"]: s["relative"] for s in j["stats"]}
        self.assertAlmostEqual(rel["sim_time_us"], (sb["sim_time_us"] - sa["sim_time_us"]) / sa["sim_time_us"])
        self.assertLess(rel["sim_time_us"], 0)

    def test_compare_identical_runs(self):
        a = self.path("a.json")
        self.assertRan(npusim("run", "-q", "--stats", a, "--", APP))
        p = npusim("compare", a, a)
        self.assertIn("Configuration differences (A -> B): none", p.stdout)
        self.assertIn("(0 of", p.stdout)


class SweepTest(TempDirTest):
    def sweep(self, *args, code=0, program=()):
        out = self.path("sweep")
        p = npusim("sweep", "--out", out, *args, "--", APP, "--bytes", "4194304", *program)
        self.assertRan(p, code)
        return out, p

    def test_h2d_time_falls_as_pcie_generation_rises(self):
        out, p = self.sweep("--set", "pcie.gen=3,4,5", "--jobs", "2")
        rows = read_csv(os.path.join(out, "sweep.csv"))
        self.assertEqual([r["pcie.gen"] for r in rows], ["3", "4", "5"])
        self.assertTrue(all(r["status"] == "ok" and r["exit_code"] == "0" for r in rows))
        times = [h2d_ms(os.path.join(out, r["log_file"])) for r in rows]
        sim = [float(r["sim_time_us"]) for r in rows]
        bw = [float(r["h2d_GBps"]) for r in rows]
        self.assertTrue(all(float(r["d2h_GBps"]) > 0 for r in rows))  # the program's one D2H copy
        # Each generation doubles the lane rate; 8 MiB of copies are bandwidth-bound. From Gen5
        # the completions are 128 B (derived from pcie.gen): 2 x (128/148) / (64/84) = 2.27.
        self.assertAlmostEqual(times[0] / times[1], 2.0, delta=0.2)
        self.assertAlmostEqual(times[1] / times[2], 2.27, delta=0.2)
        self.assertTrue(sim[0] > sim[1] > sim[2], sim)
        self.assertTrue(bw[0] < bw[1] < bw[2], bw)
        doc = json.load(open(os.path.join(out, "sweep.json")))
        self.assertEqual(doc["swept"], ["pcie.gen"])
        self.assertEqual([pt["params"]["pcie.gen"] for pt in doc["points"]], [3, 4, 5])
        self.assertEqual([pt["sim_time_us"] for pt in doc["points"]], sim)
        for pt in doc["points"]:
            stats = json.load(open(os.path.join(out, pt["stats_file"])))
            self.assertEqual(stats["config"]["params"]["pcie.gen"], pt["params"]["pcie.gen"])
        self.assertIn("3 points, 3 ok, 0 failed", p.stdout)

    def test_grid_is_the_cartesian_product(self):
        out, p = self.sweep("--set", "pcie.gen=3,4", "--set", "hbm.stacks=2,4", "--set", "dma.channels=2")
        rows = read_csv(os.path.join(out, "sweep.csv"))
        self.assertEqual([(r["pcie.gen"], r["hbm.stacks"], r["dma.channels"]) for r in rows],
                         [("3", "2", "2"), ("3", "4", "2"), ("4", "2", "2"), ("4", "4", "2")])
        doc = json.load(open(os.path.join(out, "sweep.json")))
        self.assertEqual(doc["swept"], ["pcie.gen", "hbm.stacks"])
        for pt in doc["points"]:
            params = json.load(open(os.path.join(out, pt["stats_file"])))["config"]["params"]
            for k, v in pt["params"].items():
                self.assertEqual(params[k], v)

    def test_failing_point_is_recorded_and_others_run(self):
        out, p = self.sweep("--set", "pcie.gen=3,4,5", code=1, program=("--abort-if", "pcie.gen=4"))
        rows = read_csv(os.path.join(out, "sweep.csv"))
        self.assertEqual([r["status"] for r in rows], ["ok", "killed by signal 6 (SIGABRT, Aborted)", "ok"])
        self.assertEqual([r["signal"] for r in rows], ["", "ABRT", ""])
        # The aborted point still wrote its statistics up to the abort (they say how it ended).
        self.assertGreater(float(rows[1]["sim_time_us"]), 0)
        self.assertFalse(json.load(open(os.path.join(out, rows[1]["stats_file"])))["end"]["normal"])
        self.assertTrue(float(rows[0]["sim_time_us"]) > float(rows[2]["sim_time_us"]) > 0)
        self.assertIn("3 points, 2 ok, 1 failed", p.stdout)
        self.assertIn("h2d_ms=", open(os.path.join(out, rows[1]["log_file"])).read())
        doc = json.load(open(os.path.join(out, "sweep.json")))
        self.assertEqual([pt["ok"] for pt in doc["points"]], [True, False, True])

    def test_presets_zipped_axes_program_arguments_and_metrics(self):
        out, p = self.sweep("--preset", "910b,910b-gen5", "--zip", "dma.channels=1,2", "--zip", "hbm.stacks=2,4",
                            "--arg", "copies=1,3", "--metric", "ms=h2d_ms=([0-9.]+)",
                            program=("--copies", "{copies}", "--metric", "answer=42"))
        rows = read_csv(os.path.join(out, "sweep.csv"))
        # presets x (zipped pair) x program argument = 2 x 2 x 2 points, the zipped axes in step.
        self.assertEqual([(r["preset"], r["dma.channels"], r["hbm.stacks"], r["arg.copies"]) for r in rows],
                         [(pr, ch, st, c) for pr in ("910b", "910b-gen5") for ch, st in (("1", "2"), ("2", "4"))
                          for c in ("1", "3")])
        for r in rows:
            self.assertEqual(r["status"], "ok")
            stats = json.load(open(os.path.join(out, r["stats_file"])))
            self.assertEqual(stats["config"]["preset"], r["preset"])
            self.assertEqual(stats["config"]["params"]["hbm.stacks"], int(r["hbm.stacks"]))
            log = open(os.path.join(out, r["log_file"])).read()
            self.assertIn("copies=%s" % r["arg.copies"], log)
            self.assertEqual(float(r["metric.answer"]), 42)
            self.assertAlmostEqual(float(r["metric.ms"]), h2d_ms(os.path.join(out, r["log_file"])), places=6)
        # Gen5 moves the same bytes host to device faster than Gen4.
        g4 = [float(r["h2d_GBps"]) for r in rows if r["preset"] == "910b"]
        g5 = [float(r["h2d_GBps"]) for r in rows if r["preset"] == "910b-gen5"]
        self.assertGreater(min(g5), 1.5 * max(g4))

    def test_zipped_axes_need_as_many_values(self):
        out, p = self.sweep("--zip", "dma.channels=1,2", "--zip", "hbm.stacks=2,4,8", code=2)
        self.assertIn("zipped axes vary together", p.stderr)

    def test_plain_progress_lines_without_terminal(self):
        _, p = self.sweep("--set", "pcie.gen=4,5")
        self.assertRegex(p.stderr, r"(?m)^\[1/2\] point \d pcie\.gen=\d: ok, simulated [0-9.]+ us")
        self.assertRegex(p.stderr, r"(?m)^\[2/2\] point")
        self.assertNotIn("\r", p.stderr)


class DaskTest(TempDirTest):
    def test_sweep_on_local_dask_cluster_matches_local_sweep(self):
        try:
            from distributed import LocalCluster
        except ImportError:
            self.fail("python3-distributed is not installed (scripts/setup installs it)")
        out_local, out_dask = self.path("local"), self.path("dask")
        args = ["--set", "pcie.gen=3,5", "--set", "hbm.stacks=2"]
        prog = ["--", APP, "--bytes", "1048576", "--abort-if", "pcie.gen=5"]
        self.assertRan(npusim("sweep", "--out", out_local, *args, *prog), 1)
        # Scheduler and worker threads in this process, listening on 127.0.0.1 only.
        with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp://",
                          host="127.0.0.1", dashboard_address=None) as cluster:
            self.assertTrue(cluster.scheduler_address.startswith("tcp://127.0.0.1:"))
            p = npusim("sweep", "--out", out_dask, "--dask", cluster.scheduler_address, *args, *prog)
        self.assertRan(p, 1)
        local = json.load(open(os.path.join(out_local, "sweep.json")))["points"]
        dask = json.load(open(os.path.join(out_dask, "sweep.json")))
        self.assertEqual(dask["runner"], "dask " + cluster.scheduler_address)
        dask = dask["points"]
        self.assertEqual([d["params"] for d in dask], [l["params"] for l in local])
        self.assertEqual([d["status"] for d in dask], ["ok", "killed by signal 6 (SIGABRT, Aborted)"])
        self.assertEqual([d["signal"] for d in dask], [None, "ABRT"])
        # The simulation is deterministic: the same point gives the same statistics anywhere.
        self.assertEqual(dask[0]["sim_time_us"], local[0]["sim_time_us"])
        self.assertEqual(dask[0]["dma_bytes"], local[0]["dma_bytes"])
        self.assertTrue(dask[0]["worker"])
        self.assertIn("h2d_ms=", open(os.path.join(out_dask, dask[1]["log_file"])).read())

    def test_unreachable_scheduler_fails_cleanly(self):
        env = dict(os.environ, NPUSIM_DASK_TIMEOUT="2")
        p = subprocess.run([NPUSIM, "sweep", "--out", self.path("o"), "--dask", "tcp://127.0.0.1:9", "--set",
                            "pcie.gen=4", "--", APP], capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual(p.returncode, 1)
        self.assertIn("cannot reach the Dask scheduler", p.stderr)


class PlotTest(TempDirTest):
    def assertPng(self, path):
        import matplotlib.image
        with open(path, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        img = matplotlib.image.imread(path)
        self.assertGreater(img.shape[0], 200)
        self.assertGreater(len({tuple(px) for px in img.reshape(-1, img.shape[2])[::97]}), 4)  # not blank

    def test_sweep_and_statistics_charts(self):
        out = self.path("sweep")
        self.assertRan(npusim("sweep", "--out", out, "--set", "pcie.gen=3,4,5", "--set", "dma.channels=1,4",
                              "--", APP, "--bytes", "1048576"))
        p = subprocess.run([PLOT, out], capture_output=True, text=True)
        self.assertRan(p)
        written = p.stdout.split()
        self.assertEqual(sorted(os.path.basename(w) for w in written),
                         ["sweep_dma.channels.png", "sweep_pcie.gen.png"])
        for w in written:
            self.assertPng(w)
        p = subprocess.run([PLOT, os.path.join(out, "sweep.json"), "-o", self.path("j"), "--metric",
                            "sim_time_us"], capture_output=True, text=True)
        self.assertRan(p)
        self.assertEqual(len(p.stdout.split()), 2)
        stats = os.path.join(out, "points", "000.stats.json")
        png = self.path("util.png")
        p = subprocess.run([PLOT, stats, "-o", png], capture_output=True, text=True)
        self.assertRan(p)
        self.assertPng(png)

    def test_stacked_breakdown_of_program_metrics(self):
        out = self.path("stack")
        self.assertRan(npusim("sweep", "--out", out, "--arg", "a=1,5", "--", APP, "--bytes", "65536",
                              "--metric", "t_us.copy={a}", "--metric", "t_us.wait=2", "--metric", "other=7"))
        p = subprocess.run([PLOT, out, "--stack", "t_us", "--label", "small", "--label", "large"],
                           capture_output=True, text=True)
        self.assertRan(p)
        self.assertEqual([os.path.basename(w) for w in p.stdout.split()], ["sweep_stack.png"])
        self.assertPng(p.stdout.split()[0])
        # A prefix no program printed, or labels that do not match the points, are refused by name.
        p = subprocess.run([PLOT, out, "--stack", "nope"], capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("no column metric.nope.*", p.stderr)
        p = subprocess.run([PLOT, out, "--stack", "t_us", "--label", "one"], capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("1 labels for 2 successful points", p.stderr)

    def test_plot_refuses_other_files(self):
        bad = self.path("x.json")
        with open(bad, "w") as f:
            f.write("{}")
        p = subprocess.run([PLOT, bad], capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("neither a sweep nor a statistics file", p.stderr)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], *sys.argv[1:]], verbosity=2)
