#!/usr/bin/python3
"""What anyone who reaches the real cuzk-daemon can send it, and what its operator can get wrong,
with the outcome each must have (issue 29's probe cases): a clear error and a daemon that keeps
serving, never an abort, a hang or unbounded memory. No proof is made; no fixtures are needed.

Scenarios (one ctest each):
  config       TOML typos, files that are not configuration files, sizes that round to nothing:
               exit 2 naming the file (and line), with --print-config too; `cuzk porep verify
               --c1 /dev/zero` refused

Usage: daemon_input_test.py SCENARIO --daemon BIN --cuzk BIN --proto DIR
Exit codes: 0 pass, 1 fail, 77 skip (no grpcio / grpc_tools; with CI=true a failure instead).
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import daemon_test as dt
from daemon_test import Failure, check, rpc_error, say

KIB, MIB = dt.KIB, dt.MIB


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_daemon(ctx, *args, env=None):
    return subprocess.run([ctx.daemon, *args], capture_output=True, text=True, timeout=120,
                          env=env)


def write(path, data):
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


# ---------------------------------------------------------------------------------------------


def scenario_config(ctx):
    """Each bad file: exit 2 (not 134, SIGABRT: the C++ runtime was linked statically beside
    toml++'s), one line on stderr naming the file and the line; the same with --print-config."""
    d = tempfile.mkdtemp(prefix="config-", dir=ctx.tmp)
    deep = "[gpus]\ndevices = " + "[" * 300 + "]" * 300 + "\n"
    dotted = "a" + ".a" * 100_000 + " = 1\n"  # toml++ recursed on this until the stack ran out
    cases = [
        ("unquoted listen", '[daemon]\nlisten = unix:///x\n', ":2:"),
        ("unterminated string", '[daemon]\nlisten = "unix:///x\n', ":2:"),
        ("integer 1_", "[scheduler]\nmax_batch_size = 1_\n", ":2:"),
        ("integer 0x", "[scheduler]\nmax_batch_size = 0x\n", ":2:"),
        ("integer above int64", "[daemon]\nshutdown_timeout_s = 99999999999999999999\n", ":2:"),
        ("invalid UTF-8", b'[daemon]\nlisten = "\xff\xfe"\n', ":2:"),
        ("arrays nested 300 deep", deep, ":2:"),
        ("a key nested 100,000 deep", dotted, ":1: more than 16 dots"),
        ('total_budget = "0.5"', '[memory]\ntotal_budget = "0.5"\n',
         ':2: [memory] total_budget: "0.5" is less than one byte'),
        ("total_budget of 4096 bytes", "[memory]\ntotal_budget = 4096\n",
         ':2: [memory] total_budget: must be "auto", 0 (no limit) or at least 64MiB'),
    ]
    for i, (label, text, expect) in enumerate(cases):
        path = write(os.path.join(d, f"bad-{i}.toml"), text)
        for extra in ([], ["--print-config"]):
            out = run_daemon(ctx, "--config", path, *extra)
            check(out.returncode == 2 and f"{path}{expect}" in out.stderr and
                  out.stderr.startswith("error: ") and out.stdout == "",
                  f"{label}{' (--print-config)' if extra else ''}: exit 2 naming "
                  f"{os.path.basename(path)}{expect}",
                  f"exit {out.returncode}: {out.stderr[-500:]!r}")

    big = write(os.path.join(d, "big.toml"), "# " + "x" * MIB + "\n")
    for label, path, expect in [
            ("/dev/zero", "/dev/zero", "/dev/zero: not a regular file (a device)"),
            ("a directory", d, f"{d}: is a directory, not a file"),
            ("a file past 1 MiB", big, f"{big}: larger than 1 MiB"),
            ("a missing file", os.path.join(d, "none.toml"), "cannot open")]:
        t = time.monotonic()
        out = run_daemon(ctx, "--config", path)
        check(out.returncode == 2 and expect in out.stderr,
              f"--config {label}: exit 2 without reading it ({time.monotonic() - t:.2f} s)",
              f"exit {out.returncode}: {out.stderr[-300:]!r}")

    # The CLI's input files are bounded the same way (porep verify read /dev/zero for ever).
    for args in (["porep", "verify", "--c1", "/dev/zero", "--proof", "/dev/null", "--params", d],
                 ["post", "verify", "--public", "/dev/zero", "--proof-file", "/dev/null",
                  "--params", d]):
        out = subprocess.run([ctx.cuzk, *args], capture_output=True, text=True, timeout=120)
        check(out.returncode == 2 and "/dev/zero: not a regular file (a device)" in out.stderr,
              f"cuzk {' '.join(args[:3])}: exit 2, refused unread",
              f"exit {out.returncode}: {out.stderr[-300:]!r}")


SCENARIOS = {
    "config": scenario_config,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", choices=sorted(SCENARIOS))
    ap.add_argument("--daemon", required=True)
    ap.add_argument("--cuzk", required=True)
    ap.add_argument("--proto", required=True, help="the folder holding cuzk/v1/proving.proto")
    args = ap.parse_args()
    try:
        import grpc
        from grpc_tools import protoc
    except ImportError as e:
        if os.environ.get("CI") == "true":
            print(f"FAIL: CI=true and {sys.executable} has no grpcio / grpc_tools ({e})")
            return 1
        print(f"SKIP: {sys.executable} has no grpcio / grpc_tools ({e})")
        return dt.SKIP
    dt.grpc = grpc
    with tempfile.TemporaryDirectory(prefix="cuzk-input-test-") as tmp:
        stubs = os.path.join(tmp, "stubs")
        os.mkdir(stubs)
        if protoc.main(["protoc", f"-I{args.proto}", f"--python_out={stubs}",
                        f"--grpc_python_out={stubs}",
                        os.path.join(args.proto, "cuzk/v1/proving.proto")]) != 0:
            print("FAIL: grpc_tools.protoc")
            return 1
        sys.path.insert(0, stubs)
        from cuzk.v1 import proving_pb2, proving_pb2_grpc
        dt.pb, dt.pbg = proving_pb2, proving_pb2_grpc
        # No proof is made: the parameter directory need not exist.
        ctx = argparse.Namespace(daemon=args.daemon, cuzk=args.cuzk, tmp=tmp, daemons=[],
                                 params=os.path.join(tmp, "no-params"), c1_bytes=b"")
        say(f"scenario {args.scenario}")
        try:
            SCENARIOS[args.scenario](ctx)
        except Failure as e:
            print(f"FAIL: {e}", flush=True)
            for d in ctx.daemons:
                if d.proc is not None:
                    print(f"--- log of daemon {d.proc.pid} (last 4000 bytes)")
                    print(d.log_text()[-4000:])
            return 1
        finally:
            for d in ctx.daemons:
                d.kill()
        print(f"PASS {args.scenario} ({time.monotonic() - dt.T0:.1f} s)", flush=True)
        return 0


if __name__ == "__main__":
    sys.exit(main())
