#!/usr/bin/env python3
"""The sweep's HTML report against its CSV (docs/cli.md, "The report").

usage: check_report.py FIXROUTE SCRATCH_DIR

Runs a small sweep, then parses report/index.html as XML (the page is well-formed XHTML,
so a strict parser reads it) and checks: a plot per collective, algorithm and port model;
a point per CSV row carrying the row's topology, engine, permutation and steps; the
agreement matrix; the linked drawings exist and parse.
"""
import collections
import csv
import os
import subprocess
import sys
import unittest
import xml.etree.ElementTree as ET

XHTML = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"
FIXROUTE, SCRATCH = sys.argv[1], sys.argv[2]


class SweepReport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.makedirs(SCRATCH, exist_ok=True)
        cls.csv_path = os.path.join(SCRATCH, "results.csv")
        cls.report = os.path.join(SCRATCH, "report")
        subprocess.run([FIXROUTE, "sweep", "--engine", "ref,rtl", "--max-size", "6", "--quiet", "--csv", cls.csv_path,
                        "--report", cls.report], check=True, stdout=subprocess.DEVNULL)
        with open(cls.csv_path, newline="") as f:
            cls.rows = list(csv.DictReader(f))
        cls.page = ET.parse(os.path.join(cls.report, "index.html")).getroot()

    def test_a_point_per_csv_row(self):
        points = collections.Counter(
            (c.get("data-topology"), c.get("data-engine"), c.get("data-permutation"), c.get("data-steps"))
            for c in self.page.iter(SVG + "circle") if c.get("class", "").split()[:1] == ["point"])
        rows = collections.Counter((r["topology"], r["engine"], r["permutation"], r["steps"]) for r in self.rows)
        self.assertGreater(len(self.rows), 100)
        self.assertEqual(points, rows)

    def test_a_plot_per_collective_algorithm_and_ports(self):
        groups = collections.defaultdict(list)
        for r in self.rows:
            title = "{} \u00b7 {} \u00b7 {}/{}{}".format(r["collective"], r["algorithm"], r["port_model"], r["duplex"],
                                                  " \u00b7 combining" if r["combining"] == "true" else "")
            groups[title].append(r)
        boxes = [d for d in self.page.iter(XHTML + "div") if d.get("class") == "plot-box"]
        self.assertEqual(sorted(box.find(XHTML + "h3").text for box in boxes), sorted(groups))
        for box in boxes:  # a legend, and the formula drawn where the rows have one
            rows = groups[box.find(XHTML + "h3").text]
            classes = {e.get("class") for e in box.iter()}
            self.assertIn("legend", classes)
            self.assertEqual("series formula" in classes, any(r["formula"] for r in rows))
            self.assertEqual("series bound" in classes, any(r["lower_bound"] for r in rows))

    def test_agreement_matrix_counts_the_cases_both_engines_ran(self):
        cases = collections.defaultdict(dict)
        for r in self.rows:
            key = (r["topology"], r["collective"], r["algorithm"], r["port_model"], r["duplex"], r["combining"],
                   r["permutation"])
            cases[key][r["engine"]] = r
        table = next(t for t in self.page.iter(XHTML + "table") if t.get("class") == "agreement")
        trs = list(table.iter(XHTML + "tr"))
        engines = [th.text for th in trs[0]][1:]
        self.assertEqual(sorted(engines), ["ref", "rtl"])
        for tr in trs[1:]:
            a = tr[0].text
            for b, cell in zip(engines, list(tr)[1:]):
                both = [c for c in cases.values() if a in c and b in c]
                agree = [c for c in both if c[a]["ok"] == "true" == c[b]["ok"] and c[a]["steps"] == c[b]["steps"]]
                self.assertEqual((int(cell.get("data-both")), int(cell.get("data-agree"))), (len(both), len(agree)))

    def test_drawings_are_linked_and_parse(self):
        links = [a.get("href") for a in self.page.iter(XHTML + "a") if a.get("href", "").startswith("drawings/")]
        self.assertGreaterEqual(len(links), 3)
        for link in links:
            self.assertEqual(ET.parse(os.path.join(self.report, link)).getroot().tag, SVG + "svg")

    def test_slowest_runs_are_timed(self):
        table = next(t for t in self.page.iter(XHTML + "table") if t.get("class") == "slowest")
        seconds = [float(tr[-1].text) for tr in list(table.iter(XHTML + "tr"))[1:]]
        self.assertTrue(seconds)
        self.assertEqual(seconds, sorted(seconds, reverse=True))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
