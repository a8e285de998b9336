"""daemon_test.py's scenarios of the other proof kinds: WinningPoSt and WindowPoSt (proofs checked
by `cuzk post verify`) and SnapDeals (checked by `cuzk update verify`).
Run through daemon_test.py (one ctest per scenario), which imports them.
"""
import argparse
import base64
import os
import subprocess
import time

import daemon_harness as h
from daemon_harness import (  # the helpers these scenarios use
    Daemon, Failure, MIB, await_final, check, check_post_proof, load_post, post_request, say,
    snap_request, status_name)


def scenario_post(ctx):
    """WinningPoSt (CRITICAL) and a WindowPoSt partition (HIGH, Curio's request id with spaces
    and brackets) of sealed 2 KiB sectors: COMPLETED, the proofs verify; bad vanilla proofs,
    wrong sector counts, randomness that is not a field element, a partition index out of range
    and a registered proof of the other kind FAIL with their reason while the daemon keeps
    serving; status and metrics by kind."""
    d = Daemon(ctx, "post", config=f'[srs]\nparam_cache = "{ctx.post_params}"')
    win, wdp = load_post(ctx, "winning"), load_post(ctx, "window")
    check(len(win.proofs) == 1 and len(wdp.proofs) == 2 and win.registered == 0 and
          wdp.registered == 10, "fixtures: Winning 2 KiB V1 of 1 sector, Window 2 KiB V1_2 of 2")
    wd_id = "wdpost-1000-0-[5 5 5 5 5 5 5 5]"  # as WindowPoStCuzk formats randomness[:8]
    jw = d.stub.SubmitProof(post_request(win, "winning", "winpost-1000-0505050505050505")).job_id
    jd = d.stub.SubmitProof(post_request(wdp, "window", wd_id)).job_id
    again = d.stub.SubmitProof(post_request(wdp, "window", wd_id)).job_id
    check(again == jd, "resubmitting Curio's request id returns the same job", f"{jd} {again}")
    check_post_proof(ctx, await_final(d.stub, jw), win, "WinningPoSt")
    check_post_proof(ctx, await_final(d.stub, jd), wdp, "WindowPoSt")

    tampered = [bytearray(p) for p in wdp.proofs]
    tampered[1][100] ^= 1  # inside sector 2's first inclusion proof
    cases = [
        ("tampered vanilla proof", "window", dict(vanilla_proofs=[bytes(p) for p in tampered]),
         "vanilla proof refused: slot 1: PoSt sector 2"),
        ("truncated vanilla proof", "winning", dict(vanilla_proofs=[win.proofs[0][:-1]]),
         "vanilla proof 0 is malformed"),
        ("two sectors for WinningPoSt", "winning", dict(vanilla_proofs=wdp.proofs),
         "2 vanilla proofs: a winning PoSt takes exactly 1"),
        ("three sectors from the deadline's last 2 KiB partition", "window",
         dict(vanilla_proofs=wdp.proofs + wdp.proofs[:1], partition_index=2999),
         "sectors 2-2 (partition 3000): partition_index 3000 out of range"),
        ("randomness of 31 bytes", "window", dict(randomness=wdp.randomness[:31]),
         "randomness must be 32 bytes, got 31"),
        ("randomness >= p", "winning", dict(randomness=b"\xff" * 32),
         "is not a valid field element"),
        ("partition index 3000", "window", dict(partition_index=3000),
         "partition_index 3000 out of range"),
        ("WinningPoSt partition 1", "winning", dict(partition_index=1),
         "a winning PoSt has one partition"),
        ("a Window proof type on WINNING_POST", "winning", dict(registered_proof=10),
         "is not a winning PoSt proof"),
        ("sector size vs registered proof", "window", dict(sector_size=8 * MIB),
         "sector_size 8388608 does not match registered proof StackedDrgWindow2KiBV1_2"),
    ]
    for label, kind, over, expect in cases:
        v = win if kind == "winning" else wdp
        r = await_final(d.stub, d.stub.SubmitProof(post_request(v, kind, **over)).job_id, 120)
        check(status_name(r) == "FAILED" and expect in r.error_message and not r.proof,
              f"{label}: FAILED with {expect!r}", f"{status_name(r)} {r.error_message!r}")
    # A request with no vanilla proof at all is refused by the call itself (no job is made).
    try:
        d.stub.SubmitProof(post_request(wdp, "window", vanilla_proofs=[]))
        check(False, "no vanilla proofs: INVALID_ARGUMENT", "the call succeeded")
    except h.grpc.RpcError as e:
        check(e.code() == h.grpc.StatusCode.INVALID_ARGUMENT and "no vanilla_proof" in e.details(),
              "no vanilla proofs: INVALID_ARGUMENT, no job", f"{e.code()} {e.details()!r}")
    # Still serving: a short (padded) partition of sector 2 alone.
    short = argparse.Namespace(**vars(wdp))
    short.proofs = wdp.proofs[1:]
    r = await_final(d.stub, d.stub.SubmitProof(post_request(short, "window")).job_id)
    check(status_name(r) == "COMPLETED" and len(r.proof) == 192,
          "after the failures, a padded one-sector partition COMPLETED",
          f"{status_name(r)} {r.error_message!r}")
    st = d.stub.GetStatus(h.pb.GetStatusRequest())
    srs = {s.circuit_id for s in st.loaded_srs}
    check(st.total_proofs_completed == 3 and st.total_proofs_failed == len(cases) and
          {"winning-2k", "wpost-2k"} <= srs,
          "GetStatus: 3 completed, the failures counted, winning-2k and wpost-2k loaded", str(st))
    text = d.stub.GetMetrics(h.pb.GetMetricsRequest()).prometheus_text
    for line in ('cuzk_proofs_total{kind="winning",outcome="completed"} 1',
                 'cuzk_proofs_total{kind="wpost",outcome="completed"} 2',
                 'cuzk_partitions_total{kind="wpost"} 2',
                 'cuzk_queue_jobs{kind="winning",state="pending"} 0'):
        check(line in text, f"GetMetrics: {line}")
    d.stop_ok()
    log = d.log_text()
    check(f"request_id={wd_id}" in log or f'request_id="{wd_id}"' in log,
          "the job log names Curio's request id", log[-2000:])


def scenario_snap(ctx):
    """SNAP_DEALS_UPDATE: bad inputs (a CID instead of a raw commitment, a partition count that
    does not match, undecodable or tampered vanilla proofs, a sector size that does not fit) FAIL
    with the reason while the daemon keeps serving; then one Prove of a real 2 KiB update:
    COMPLETED, one 192-byte proof that `cuzk update verify` accepts, counted as kind snap."""
    if ctx.snap is None:
        raise Failure("no update fixtures (pass --update-fixtures)")
    d = Daemon(ctx, "snap", config=f'[srs]\nparam_cache = "{ctx.snap_params}"')
    proofs = [base64.b64decode(p) for p in ctx.snap["vanilla_proofs"]]
    tampered = bytearray(proofs[0])
    tampered[0] ^= 1  # comm_c
    cid_prefix = bytes([0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20])
    cases = [
        ("comm_r_old as a CID", dict(comm_r_old=cid_prefix + bytes.fromhex(ctx.snap["comm_r_old"])),
         "comm_r_old is 40 bytes (a raw 32-byte commitment is expected, not a CID)"),
        ("two partition proofs for one partition", dict(vanilla_proofs=proofs * 2),
         "2 vanilla_proofs, a StackedDrg2KiBV1 update has 1 partitions"),
        ("truncated partition proof", dict(vanilla_proofs=[proofs[0][:100]]),
         "vanilla_proofs[0] is not a bincode PartitionProof"),
        ("tampered partition proof", dict(vanilla_proofs=[bytes(tampered)]),
         "vanilla proofs refused before proving: update partition 0: comm_r_old != H(comm_c"),
        ("sector size vs registered proof", dict(sector_size=8 * MIB),
         "sector_size 8388608 does not match registered update proof StackedDrg2KiBV1"),
        ("unknown registered update proof", dict(registered_proof=9),
         "unknown registered update proof id 9"),
    ]
    for i, (label, over, expect) in enumerate(cases):
        job = d.stub.SubmitProof(snap_request(ctx, f"snap-bad-{i}", **over)).job_id
        r = await_final(d.stub, job, 120)
        check(status_name(r) == "FAILED" and expect in r.error_message and not r.proof,
              f"{label}: FAILED with {expect!r}", f"{status_name(r)} {r.error_message!r}")
    check(d.stub.GetStatus(h.pb.GetStatusRequest()).total_proofs_failed == len(cases),
          "the daemon still serves and counts the failed jobs")

    t = time.monotonic()
    r = d.stub.Prove(h.pb.ProveRequest(submit=snap_request(ctx, "snap-1")), timeout=600).result
    say(f"Prove (SNAP_DEALS_UPDATE) took {time.monotonic() - t:.1f} s")
    check(status_name(r) == "COMPLETED", "update Prove: COMPLETED",
          f"{status_name(r)} {r.error_message!r}")
    check(len(r.proof) == 192, "one 192-byte partition proof", f"{len(r.proof)} bytes")
    check(r.synthesis_ms > 0 and r.gpu_compute_ms > 0,
          f"timings (synthesis {r.synthesis_ms}, prove {r.gpu_compute_ms}, total {r.total_ms} ms)")
    path = os.path.join(ctx.tmp, "snap-proof.bin")
    with open(path, "wb") as f:
        f.write(r.proof)
    out = subprocess.run([ctx.cuzk, "update", "verify", "--vanilla", ctx.snap_vanilla, "--params",
                          ctx.snap_params, "--allow-insecure-params", "--proof", path],
                         capture_output=True, text=True)
    check(out.returncode == 0 and "OK: update proof verifies" in out.stdout,
          "the proof verifies with `cuzk update verify`", out.stdout + out.stderr)
    text = d.stub.GetMetrics(h.pb.GetMetricsRequest()).prometheus_text
    check('cuzk_proofs_total{kind="snap",outcome="completed"} 1' in text,
          "GetMetrics counts the completed snap proof")
    d.stop_ok()
