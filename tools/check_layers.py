#!/usr/bin/env python3
"""The layer order of docs/architecture.md holds in the code.

The order is the table between `<!-- layers:begin -->` and `<!-- layers:end -->` in
docs/architecture.md, bottom up: one row per folder of src/, `| rank | `name` | what it holds |`.
A layer may include from and link to its own rank and the ranks below it, never above. Checked:

  * every folder of src/ has a row, and every row a folder;
  * every `#include "L/..."` in src/<layer>/ (any depth) names a layer L at or below <layer>,
    and no file of src/ includes from the bench tree (bench/*/ folders: bench-only kernels);
  * every cuzk_* target that a src/ CMakeLists.txt links (target_link_libraries) lies at or
    below the layer of the target linking it, and no src/ target links a target defined outside
    src/ (the benches', the apps').

Deterministic (sorted walk, no clock, no network, no GPU): the same tree gives the same answer.
Usage: check_layers.py [repository root]   (default: the parent of this script's folder)
       check_layers.py --self-test         (plants each kind of violation in a temporary tree)
Exit status 0 when the order holds, 1 with one line per violation otherwise.
"""

import os
import re
import sys
import tempfile

SOURCE_SUFFIXES = (".hpp", ".cpp", ".cu", ".cuh", ".h", ".in")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([A-Za-z0-9_]+)/')
ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*`([A-Za-z0-9_]+)`\s*\|")
ADD_LIBRARY = re.compile(r"\badd_library\s*\(\s*([A-Za-z0-9_]+)([^)]*)\)", re.S)
LINK = re.compile(r"\btarget_link_libraries\s*\(\s*([A-Za-z0-9_]+)([^)]*)\)", re.S)


def read_order(root):
    """{layer: rank} from the document's table; ranks must rise by one from 1."""
    path = os.path.join(root, "docs", "architecture.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if "<!-- layers:begin -->" not in text or "<!-- layers:end -->" not in text:
        raise SystemExit(f"{path}: no <!-- layers:begin --> ... <!-- layers:end --> table")
    table = text.split("<!-- layers:begin -->", 1)[1].split("<!-- layers:end -->", 1)[0]
    order = {}
    for line in table.splitlines():
        m = ROW.match(line)
        if m:
            rank, name = int(m.group(1)), m.group(2)
            if rank != len(order) + 1 or name in order:
                raise SystemExit(f"{path}: row '{line.strip()}' out of order or repeated")
            order[name] = rank
    if not order:
        raise SystemExit(f"{path}: the layer table has no rows")
    return order


def layer_of(rel):
    """src/<layer>/... -> layer; None for src/CMakeLists.txt and the like."""
    parts = rel.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "src" else None


def walk(root, top):
    for d, dirs, files in os.walk(os.path.join(root, top)):
        dirs.sort()
        for name in sorted(files):
            yield os.path.relpath(os.path.join(d, name), root).replace(os.sep, "/")


def cmake_targets(root, top):
    """{target: defining CMakeLists.txt path, first source} for every add_library/executable."""
    out = {}
    for rel in walk(root, top):
        if not rel.endswith("CMakeLists.txt"):
            continue
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            text = strip_comments(f.read())
        for m in ADD_LIBRARY.finditer(text):
            out[m.group(1)] = (rel, m.group(2).split())
        for m in re.finditer(r"\badd_executable\s*\(\s*([A-Za-z0-9_-]+)", text):
            out[m.group(1)] = (rel, [])
    return out


def strip_comments(text):
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def check(root):
    order = read_order(root)
    bad = []
    folders = sorted(
        e for e in os.listdir(os.path.join(root, "src")) if os.path.isdir(os.path.join(root, "src", e))
    )
    for name in folders:
        if name not in order:
            bad.append(f"src/{name}: a folder with no row in docs/architecture.md's layer table")
    for name in order:
        if name not in folders:
            bad.append(f"docs/architecture.md: layer '{name}' has no folder src/{name}")
    bench = set()
    if os.path.isdir(os.path.join(root, "bench")):
        bench = {e for e in os.listdir(os.path.join(root, "bench")) if os.path.isdir(os.path.join(root, "bench", e))}

    # Includes.
    for rel in walk(root, "src"):
        layer = layer_of(rel)
        if layer not in order or not rel.endswith(SOURCE_SUFFIXES):
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                to = m.group(1)
                if to in order and order[to] > order[layer]:
                    bad.append(f"{rel}:{n}: {layer} (layer {order[layer]}) includes {to} "
                               f"(layer {order[to]}), above it")
                elif to not in order and to in bench:
                    bad.append(f"{rel}:{n}: {layer} includes the bench tree ({to}/)")

    # Links: each src/ target's layer is its CMakeLists' folder, or for src/CMakeLists.txt the
    # folder of its first source (util/thread_pool.cpp -> util).
    src_targets = cmake_targets(root, "src")
    other = {}
    for top in ("bench", "apps", "tests", "fuzz"):
        if os.path.isdir(os.path.join(root, top)):
            other.update(cmake_targets(root, top))
    target_layer = {}
    for target, (rel, sources) in src_targets.items():
        layer = layer_of(rel)
        if layer is None and sources:
            layer = sources[0].split("/")[0]
        if layer in order:
            target_layer[target] = layer
    for rel in walk(root, "src"):
        if not rel.endswith("CMakeLists.txt"):
            continue
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            text = strip_comments(f.read())
        for m in LINK.finditer(text):
            target = m.group(1)
            layer = target_layer.get(target)
            if layer is None:
                continue
            line = text.count("\n", 0, m.start()) + 1
            for dep in m.group(2).split():
                if dep in target_layer and order[target_layer[dep]] > order[layer]:
                    to = target_layer[dep]
                    bad.append(f"{rel}:{line}: {target} ({layer}, layer {order[layer]}) links {dep} "
                               f"({to}, layer {order[to]}), above it")
                elif dep in other and dep not in src_targets:
                    bad.append(f"{rel}:{line}: {target} links {dep}, defined in {other[dep][0]} "
                               f"(outside src/)")
    return bad


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def self_test():
    """A two-layer tree that passes, then each violation planted alone must fail."""
    doc = "x\n<!-- layers:begin -->\n| 1 | `low` | a |\n| 2 | `high` | b |\n<!-- layers:end -->\n"
    base = {
        "docs/architecture.md": doc,
        "src/low/a.hpp": '#include "low/b.hpp"\n',
        "src/high/c.cpp": '#include "low/a.hpp"\n#include "high/d.hpp"\n',
        "src/low/CMakeLists.txt": "add_library(cuzk_low a.cpp)\n",
        "src/high/CMakeLists.txt": "add_library(cuzk_high c.cpp)\n"
                                   "target_link_libraries(cuzk_high PUBLIC cuzk_low)\n",
        "bench/kern/CMakeLists.txt": "add_library(cuzk_kern k.cu)\n",
    }
    planted = {
        "upward include": ("src/low/x/deep.cu", '#include "high/c.hpp"\n'),
        "bench include": ("src/high/e.cpp", '#include "kern/k.hpp"\n'),
        "upward link": ("src/low/CMakeLists.txt",
                        "add_library(cuzk_low a.cpp)\ntarget_link_libraries(cuzk_low\n  PUBLIC cuzk_high)\n"),
        "bench link": ("src/high/CMakeLists.txt",
                       "add_library(cuzk_high c.cpp)\ntarget_link_libraries(cuzk_high PRIVATE cuzk_kern)\n"),
        "folder without a row": ("src/stray/f.hpp", "\n"),
    }
    failures = []
    with tempfile.TemporaryDirectory() as clean:
        for rel, text in base.items():
            write(clean, rel, text)
        if check(clean):
            failures.append(f"the clean tree fails: {check(clean)}")
    for what, (rel, text) in sorted(planted.items()):
        with tempfile.TemporaryDirectory() as tree:
            for r, t in base.items():
                write(tree, r, t)
            write(tree, rel, text)
            if not check(tree):
                failures.append(f"not caught: {what}")
    for f in failures:
        print("FAIL:", f)
    print("self-test:", "FAIL" if failures else f"PASS ({len(planted)} planted violations caught)")
    return 1 if failures else 0


def main(argv):
    if len(argv) > 1 and argv[1] == "--self-test":
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bad = check(root)
    for line in bad:
        print(line)
    order = read_order(root)
    print(f"layer order ({len(order)} layers, docs/architecture.md): "
          + ("FAIL, %d violation(s)" % len(bad) if bad else "holds"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
