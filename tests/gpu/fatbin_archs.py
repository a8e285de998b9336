#!/usr/bin/env python3
"""Prints the architectures an object's embedded CUDA fat binary holds: sm_N for machine code,
compute_N for PTX, one per line, sorted. The CUDA toolkit here has no cuobjdump, so this reads the
fat binary's entry headers (kind 1 = PTX, 2 = ELF; architecture at byte 28) after its magic
0xBA55ED50. That layout is not documented (fatbinary_section.h covers only the wrapper): the
test applies it to cuzk_gpu's objects too, whose list it knows, as a control.
Usage: fatbin_archs.py OBJECT"""
import struct
import sys

MAGIC = struct.pack("<I", 0xBA55ED50)


def archs(data):
    found = set()
    at = data.find(MAGIC)
    while at >= 0:
        _, _, header, size = struct.unpack_from("<IHHQ", data, at)
        p, end = at + header, at + header + size
        while p < end:
            kind, _, entry_header, payload = struct.unpack_from("<HHIQ", data, p)
            (arch,) = struct.unpack_from("<I", data, p + 28)
            if kind not in (1, 2) or entry_header < 32 or p + entry_header + payload > end:
                raise SystemExit(f"unexpected fat binary entry at {p}: kind {kind}")
            found.add(("compute_" if kind == 1 else "sm_") + str(arch))
            p += entry_header + payload
        at = data.find(MAGIC, end)
    return sorted(found)


if __name__ == "__main__":
    with open(sys.argv[1], "rb") as f:
        print("\n".join(archs(f.read())))
