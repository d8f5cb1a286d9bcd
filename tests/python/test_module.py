#!/usr/bin/env python3
"""The `fixroute` Python module (docs/python.md), run by CTest with PYTHONPATH at the
built module.

usage: test_module.py FIXROUTE SCRATCH_DIR   (the tool, to compare with; a scratch directory)
"""
import collections
import json
import os
import subprocess
import sys
import unittest

import fixroute

FIXROUTE, SCRATCH = sys.argv[1], sys.argv[2]


class Module(unittest.TestCase):
    def test_a_run_reports_what_the_tool_reports(self):
        run = fixroute.run("ring:8", "total-exchange")
        self.assertEqual((run.steps, run.ok, run.algorithm, run.engine), (8, True, "message-shift", "ref"))
        tool = json.loads(subprocess.run([FIXROUTE, "run", "ring:8", "total-exchange", "--json"], check=True,
                                         capture_output=True, text=True).stdout)
        report = run.report
        for key in ("steps", "formula", "paper_formula", "lower_bound", "ok", "meets_paper", "crossings", "packets"):
            self.assertEqual(report[key], tool[key], key)
        self.assertEqual((run.formula, run.lower_bound, run.meets_paper),
                         (tool["formula"], tool["lower_bound"], tool["meets_paper"]))
        self.assertIn("<fixroute.Run ring:8 total-exchange [message-shift] on ref: 8 steps, ok>", repr(run))

    def test_the_trace_delivers_every_packet(self):
        run = fixroute.run("ring:6", "total-exchange")
        rows = run.trace
        self.assertEqual(len(rows), run.report["crossings"])
        self.assertEqual(set(rows[0]), {"step", "from", "to", "origin", "dest", "seq"})
        self.assertTrue(all(1 <= r["step"] <= run.steps for r in rows))
        last_hop = {}
        for r in sorted(rows, key=lambda r: r["step"]):
            last_hop[(r["origin"], r["dest"], r["seq"])] = r["to"]
        self.assertEqual(len(last_hop), 6 * 5)  # one packet per ordered pair of nodes
        self.assertTrue(all(to == dest for (_, dest, _), to in last_hop.items()))
        self.assertEqual(run.trace_csv.splitlines()[0], "step,from,to,origin,dest,seq")
        self.assertEqual(fixroute.run("ring:6", "total-exchange", keep_trace=False).trace, [])

    def test_tables_written_and_run_from_their_directory(self):
        tables = fixroute.build_tables("torus:4x4", "gossip", algorithm="hamiltonian-2")
        self.assertEqual((tables.topology, tables.kind, tables.algorithm), ("torus:4x4", "port-rules", "hamiltonian-2"))
        directory = os.path.join(SCRATCH, "torus4x4")
        tables.write(directory)
        self.assertTrue(os.path.exists(os.path.join(directory, "network.json")))
        loaded = fixroute.run("torus:4x4", "gossip", tables=directory)
        built = fixroute.run("torus:4x4", "gossip", algorithm="hamiltonian-2")
        self.assertTrue(loaded.ok)
        self.assertEqual(loaded.steps, built.steps)
        self.assertEqual(loaded.trace_csv, built.trace_csv)

    def test_port_models_and_combining(self):
        run = fixroute.run("ring:6", "gossip", ports="1-port", duplex="full", combining=True)
        self.assertTrue(run.ok)
        self.assertEqual((run.report["port_model"], run.report["combining"]), ("1-port", True))

    def test_bad_input_raises_input_error(self):
        self.assertTrue(issubclass(fixroute.InputError, ValueError))
        with self.assertRaisesRegex(fixroute.InputError, "bad topology 'torus:0x4'"):
            fixroute.run("torus:0x4", "gossip")
        with self.assertRaisesRegex(fixroute.InputError, "engine"):
            fixroute.run("ring:6", "total-exchange", engine="nonesuch")
        with self.assertRaises(fixroute.InputError):
            fixroute.build_tables("ring:6", "gossip", ports="2-port")

    def test_registries(self):
        by_name = {a["name"]: a for a in fixroute.algorithms()}
        self.assertEqual(by_name["hamiltonian-2"]["collective"], "gossip")
        self.assertEqual(by_name["message-shift"]["router_kind"], "port-rules")
        self.assertEqual(collections.Counter(fixroute.engines())["ref"], 1)


if __name__ == "__main__":
    os.makedirs(SCRATCH, exist_ok=True)
    unittest.main(argv=sys.argv[:1], verbosity=2)
