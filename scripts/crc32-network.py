#!/usr/bin/env python3
"""Writes rtl/fr_crc32_network.vh: CRC-32's step over one 32-bit word as a shared XOR network.

fr_cfg_loader takes a word a clock: crc' = T(crc ^ word), where T is 32 steps of the
reflected CRC-32 register (polynomial 0xEDB88320) with no data -- a fixed 32 x 32 matrix
over GF(2). Written row by row, as the loader's bit loop was, it costs 420 two-input XORs
after the 32 of crc ^ word; pairs of inputs that several rows share are XOR-ed once
(Paar's greedy algorithm: the pair most rows share first), which leaves about half.

  scripts/crc32-network.py > rtl/fr_crc32_network.vh

The loader's table tests check the result: every image carries its CRC, and a network
that computed another would refuse every table (error 5).
"""
from collections import Counter
from itertools import combinations

POLY = 0xEDB88320
WIDTH = 32


def no_data_steps(state):
    for _ in range(WIDTH):
        state = (state >> 1) ^ (POLY if state & 1 else 0)
    return state


def network():
    # rows[o]: the terms whose XOR is bit o of T(x); terms 0..31 are the bits of x
    images = [no_data_steps(1 << i) for i in range(WIDTH)]
    rows = [{i for i in range(WIDTH) if (images[i] >> o) & 1} for o in range(WIDTH)]
    pairs = []  # term WIDTH + k = pairs[k][0] ^ pairs[k][1]
    while True:
        shared = Counter()
        for row in rows:
            shared.update(combinations(sorted(row), 2))
        if not shared:
            break
        best = max(shared.values())
        if best < 2:
            break
        a, b = min(pair for pair, n in shared.items() if n == best)  # the same network every run
        term = WIDTH + len(pairs)
        pairs.append((a, b))
        for row in rows:
            if a in row and b in row:
                row -= {a, b}
                row.add(term)
    return pairs, [sorted(row) for row in rows]


def term(t):
    # the word's bits are crc_x's; each shared pair is a one-bit reg of its own (a simulator
    # computes it as a byte, not as a bit inserted into a wide vector)
    return "crc_x[%d]" % t if t < WIDTH else "t%d" % t


def main():
    pairs, rows = network()
    xors = len(pairs) + sum(len(r) - 1 for r in rows)
    print("// Written by scripts/crc32-network.py: do not edit. CRC-32's step over one word,")
    print("// crc_next = T(crc_x), as a network of shared XORs (%d two-input XORs; row by row: 420)." % xors)
    print("// Included in fr_cfg_loader's clocked block, where crc_x and crc_next (32 bits) are declared.")
    print("begin : crc_network")
    names = [term(WIDTH + k) for k in range(len(pairs))]
    for first in range(0, len(names), 12):
        print("    reg %s;" % ", ".join(names[first:first + 12]))
    for k, (a, b) in enumerate(pairs):
        print("    %s = %s ^ %s;" % (term(WIDTH + k), term(a), term(b)))
    for o, row in enumerate(rows):
        print("    crc_next[%d] = %s;" % (o, " ^ ".join(term(t) for t in row)))
    print("end")


if __name__ == "__main__":
    main()
