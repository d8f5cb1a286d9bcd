#!/usr/bin/env python3
"""A screenshot of the sweep's HTML report, taken by headless Chromium, shows the plots.

usage: screenshot_report.py FIXROUTE CHROMIUM SCRATCH_DIR

Writes a small report, renders it to SCRATCH_DIR/report.png and decodes the PNG (zlib and
the PNG filters, no imaging library): the picture must not be blank, and the plots'
first topology colour (#1f77b4) and the formula line's must be on it.
"""
import os
import struct
import subprocess
import sys
import unittest
import zlib

FIXROUTE, CHROMIUM, SCRATCH = sys.argv[1], sys.argv[2], sys.argv[3]


def decode_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA, non-interlaced PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"unexpected PNG form {header}"
    channels = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * channels
    previous, rows, at = bytearray(stride), [], 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, up_left = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else up_left)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, channels)])
        previous = line
    return width, height, rows


class Screenshot(unittest.TestCase):
    def test_the_plots_are_on_the_screenshot(self):
        os.makedirs(SCRATCH, exist_ok=True)
        report, png = os.path.join(SCRATCH, "report"), os.path.join(SCRATCH, "report.png")
        subprocess.run([FIXROUTE, "sweep", "--engine", "ref", "--max-size", "6", "--quiet", "--algorithm",
                        "hamiltonian-2", "--csv", os.path.join(SCRATCH, "results.csv"), "--report", report],
                       check=True, stdout=subprocess.DEVNULL)
        if os.path.exists(png):
            os.remove(png)
        # The flags that keep Chromium off the network (closed here) and out of the user's profile.
        subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--user-data-dir=" + os.path.join(SCRATCH, "chromium-profile"), "--hide-scrollbars",
                        "--window-size=1000,900", "--screenshot=" + png,
                        "file://" + os.path.abspath(os.path.join(report, "index.html"))],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        width, height, rows = decode_png(png)
        self.assertEqual((width, height), (1000, 900))
        pixels = [p for row in rows for p in row]
        near = lambda p, q: all(abs(a - b) <= 24 for a, b in zip(p, q))
        not_white = sum(1 for p in pixels if p != (255, 255, 255))
        self.assertGreater(not_white, len(pixels) // 50, "the screenshot is (nearly) blank")
        self.assertGreater(sum(1 for p in pixels if near(p, (0x1f, 0x77, 0xb4))), 50, "no plot points")
        self.assertGreater(sum(1 for p in pixels if near(p, (0x22, 0x22, 0x22))), 200, "no formula lines or text")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
