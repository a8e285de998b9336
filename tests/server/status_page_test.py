#!/usr/bin/python3
"""The status page in a real browser: cuzk-daemon (started as daemon_test.py starts it, CPU
backend, 2 KiB test parameters) proves a 2 KiB PoRep job while Debian's headless Chromium loads
GET / from its status_listen port; the rendered DOM is checked against /status read just before
and just after the browser (what cannot change between the two reads must match exactly, what
can must lie between them), /status against the gRPC AwaitProof answer, and a screenshot of the
page is saved.

Usage: status_page_test.py --daemon BIN --cuzk BIN --proto DIR --fixtures DIR --artifacts DIR
Exit codes: 0 pass, 1 fail, 77 skip (no chromium, or no grpcio; with CI=true both fail instead).
CUZK_CHROMIUM names the browser binary (default: chromium on PATH).
"""
import argparse
import colorsys
import html.parser
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import daemon_harness as dt
from daemon_harness import Failure, check, say


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.kids, self.text = tag, dict(attrs), parent, [], ""

    def all(self):
        yield self
        for k in self.kids:
            yield from k.all()

    def find(self, tag=None, **attrs):
        """Descendants with `tag` whose attributes equal `attrs` (data_job -> data-job)."""
        want = {k.replace("_", "-"): v for k, v in attrs.items()}
        return [n for n in self.all() if (tag is None or n.tag == tag) and
                all(n.attrs.get(k) == v for k, v in want.items())]

    def one(self, tag=None, **attrs):
        found = self.find(tag, **attrs)
        if len(found) != 1:
            raise Failure(f"expected one <{tag} {attrs}> in the page, found {len(found)}")
        return found[0]

    def all_text(self):
        return self.text + "".join(k.all_text() for k in self.kids)


class Tree(html.parser.HTMLParser):
    VOID = {"meta", "link", "br", "img", "input", "hr"}

    def __init__(self, text):
        super().__init__()
        self.root = self.at = Node("#root", {}, None)
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.at)
        self.at.kids.append(n)
        if tag not in self.VOID:
            self.at = n

    def handle_endtag(self, tag):
        n = self.at
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.at = n.parent

    def handle_data(self, data):
        self.at.text += data


class Browser:
    def __init__(self, binary, tmp):
        self.binary, self.profile = binary, tempfile.mkdtemp(prefix="chromium-", dir=tmp)

    def run(self, url, *mode):
        # Root in containers and CI: no sandbox. The virtual time budget lets the page's fetch
        # of /status and its redraws happen before the DOM is dumped.
        cmd = [self.binary, "--headless=new", "--no-sandbox", "--disable-gpu",
               "--disable-dev-shm-usage", "--no-first-run", f"--user-data-dir={self.profile}",
               "--window-size=1400,1150", "--virtual-time-budget=3000", *mode, url]
        t = time.monotonic()
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            raise Failure(f"chromium exited {out.returncode}: {out.stderr[-2000:]}")
        say(f"chromium {mode[0]} ({time.monotonic() - t:.1f} s)")
        return out.stdout

    def dom(self, url):
        return Tree(self.run(url, "--dump-dom")).root


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.headers.get("Content-Type", ""), r.read().decode()


def status(base):
    return json.loads(get(base + "/status")[2])


def between(v, a, b):
    return min(a, b) <= v <= max(a, b)


def busy_at(spans, lane, t, window):
    """A lane's busy share at time t, from the spans as a later /status lists them."""
    lo, busy = t - window, 0.0
    for s in spans:
        if s["lane"] != lane or s["start_s"] > t or min(s["end_s"], t) < lo:
            continue
        busy += min(s["end_s"], t) - max(s["start_s"], lo)
    return min(1.0, busy / min(window, t))


def one_of(v, a, b):
    return v in (a, b)


def check_page_matches(page, before, after, job_id, label):
    """The rendered page against two /status reads around it: counters that only grow lie
    between the two reads, gauges are one of them (the test reads at a steady moment), and each
    lane's busy share is recomputed from the spans at the moment the page's read was made."""
    now = float(page.one("body").attrs.get("data-now-s", "nan"))
    check(before["now_s"] <= now <= after["now_s"],
          f"{label}: the page drew a /status read between the test's two reads",
          f"{before['now_s']} <= {now} <= {after['now_s']}")
    for k in ("completed", "failed", "cancelled"):
        e = page.one(id=k)
        v = int(e.attrs["data-v"])
        check(between(v, before["totals"][k], after["totals"][k]) and e.all_text() == str(v),
              f"{label}: header {k} = {v}, as /status")
    for lane in after["lanes"]:
        e = page.one("div", data_lane=lane["name"])
        want = busy_at(after["spans"], lane["name"], now, after["window_s"])
        shown = e.find("b")[0].all_text()
        v = float(e.attrs["data-v"])
        check(abs(v - want) < 1e-3 and shown == f"{int(100 * v + 0.5)}%",
              f"{label}: {lane['name']} busy {shown} ({v:.4f}), its spans' share of the time "
              f"then ({want:.4f})")
    reserved = int(page.one(id="host-reserved").attrs["data-v"])
    check(one_of(reserved, before["host"]["reserved_bytes"], after["host"]["reserved_bytes"]),
          f"{label}: host memory reserved {reserved} bytes, as /status")
    check(int(page.one(id="host-budget").attrs["data-v"]) == after["host"]["budget_bytes"] ==
          8 << 30, f"{label}: the memory budget shown is the configured 8 GiB")
    for p in after["queue"]["by_priority"]:
        name = {1: "low", 2: "normal", 3: "high", 4: "critical"}[p["priority"]]
        row = page.one("tr", data_priority=name)
        q0 = [x for x in before["queue"]["by_priority"] if x["priority"] == p["priority"]][0]
        for k in ("pending", "running"):
            v = int(row.one("td", data_k=k).all_text())
            check(one_of(v, q0[k], p[k]), f"{label}: queue {name} {k} = {v}, as /status")
    spans = page.find("g", data_job=job_id)
    n0 = sum(s["job_id"] == job_id for s in before["spans"])
    n1 = sum(s["job_id"] == job_id for s in after["spans"])
    check(spans and between(len(spans), n0, n1),
          f"{label}: {len(spans)} timeline bars of {job_id} ({n0}..{n1} in /status)")
    return spans


def rgb_of(css):
    """(r, g, b) in 0..1 from a CSS colour as the page writes it: #rrggbb or rgb(r, g, b)."""
    m = re.search(r"#([0-9a-fA-F]{6})\b", css)
    if m:
        return tuple(int(m.group(1)[i:i + 2], 16) / 255 for i in (0, 2, 4))
    m = re.search(r"rgb\((\d+),\s*(\d+),\s*(\d+)\)", css)
    if m:
        return tuple(int(v) / 255 for v in m.groups())
    raise Failure(f"no colour in {css!r}")


def check_legend(page):
    """Every phase has a legend swatch, and none is a red that reads as the failure outline
    (hue within 20 degrees of it, both saturated): the MSM phase once was."""
    legend = page.one("div", id="legend")
    failed = legend.find("span")
    failed = [n for n in failed if "data-failed" in n.attrs]
    check(len(failed) == 1, "the legend explains the failure outline")
    fh, _, fs = colorsys.rgb_to_hls(*rgb_of(failed[0].attrs["data-failed"]))
    swatches = {n.attrs["data-phase"]: n.one("i").attrs.get("style", "")
                for n in legend.find("span") if "data-phase" in n.attrs}
    check({"witness", "spmv", "h_chain", "msm", "verify"} <= set(swatches),
          "the legend names the phases", str(sorted(swatches)))
    for phase, style in swatches.items():
        h, _, s = colorsys.rgb_to_hls(*rgb_of(style))
        dh = min(abs(h - fh), 1 - abs(h - fh)) * 360
        check(not (dh < 20 and s > 0.35 and fs > 0.35),
              f"legend: the {phase} colour ({style}) is told apart from the failure red "
              f"(hue {dh:.0f} degrees off, saturation {s:.2f})")


def scenario(ctx, browser, artifacts):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    d = dt.Daemon(ctx, "page", config=f'[daemon]\nstatus_listen = "127.0.0.1:{port}"\n')
    base = f"http://127.0.0.1:{port}"

    code, ctype, page_html = get(base + "/")
    check(code == 200 and ctype.startswith("text/html"), "GET /: the HTML page")
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", page_html))
    check(urls <= {"http://www.w3.org/2000/svg"} and
          not re.search(r"<link|<img|\bsrc=|@import|url\(", page_html),
          "the page is self-contained (no outside scripts, styles, fonts or images)", str(urls))
    code, ctype, _ = get(base + "/status")
    check(code == 200 and ctype.startswith("application/json"), "GET /status: JSON")

    job = d.stub.SubmitProof(dt.porep_request(ctx, "page-1")).job_id
    say(f"submitted {job}")
    # The prover's span of the one partition is the steady part (seconds to a minute).
    dt.wait_for("the job's partition on the prover in /status", lambda: any(
        sp["job_id"] == job and sp["open"] and sp["lane"] == "cpu:0"
        for sp in status(base)["spans"]), timeout=120)
    before = status(base)
    page = browser.dom(base + "/")
    after = status(base)
    spans = check_page_matches(page, before, after, job, "while proving")
    check_legend(page)
    browser.run(base + "/", f"--screenshot={artifacts}/status_page_proving.png")
    active = page.find("tr", data_job=job)
    check(active and active[0].one("td", data_k="kind").all_text() == "porep",
          f"while proving: {job} is listed with kind porep")
    check(any(g.attrs.get("data-open") == "true" for g in spans) or
          not any(j["job_id"] == job for j in after["active_jobs"]),
          "while proving: its running partition is drawn open (or it finished meanwhile)")

    r = dt.await_final(d.stub, job)
    dt.check_completed(ctx, r, job)
    before = status(base)
    page = browser.dom(base + "/")
    after = status(base)
    spans = check_page_matches(page, before, after, job, "after the proof")
    rec = [j for j in after["recent_jobs"] if j["job_id"] == job]
    check(len(rec) == 1 and rec[0]["state"] == "completed" and rec[0]["kind"] == "porep" and
          rec[0]["sector_size"] == 2048 and rec[0]["partitions"] == 1,
          "/status: the job among the last jobs, completed, porep, 2 KiB, one partition",
          json.dumps(rec))
    t = rec[0]["timings"]
    grpc_t = {"queue_wait_ms": r.queue_wait_ms, "srs_load_ms": r.srs_load_ms,
              "synthesis_ms": r.synthesis_ms, "gpu_compute_ms": r.gpu_compute_ms,
              "total_ms": r.total_ms}
    check(t == grpc_t, "/status: its timings are AwaitProof's", f"{t} vs {grpc_t}")
    rows = [n for n in page.find("tr", data_job=job) if n.find("td", data_k="total_ms")]
    check(len(rows) == 1, f"the page lists {job} once among the last jobs")
    row = rows[0]
    shown = {k: row.one("td", data_k=k).all_text() for k in
             ("kind", "sector", "state", "partitions", *grpc_t)}
    check(shown["kind"] == "porep" and shown["sector"] == "2KiB" and
          shown["state"] == "completed" and shown["partitions"] == "1" and
          all(shown[k] == str(v) for k, v in t.items()),
          f"the page's row: porep 2KiB completed, 1 partition, timings as /status ({shown})")

    mine = [s for s in after["spans"] if s["job_id"] == job]
    lanes = {s["lane"] for s in mine}
    check({"synth:0", "cpu:0"} <= lanes and not any(s["failed"] or s["open"] for s in mine),
          f"/status: the job's spans on the synthesis and prover lanes ({sorted(lanes)})")
    witness = sum(p["end_s"] - p["start_s"] for s in mine for p in s["phases"]
                  if p["phase"] == "witness")
    prepare = sum(s["end_s"] - s["start_s"] for s in mine if s["partition"] == -1)
    # synthesis_ms: its preparation's parsing and checks, then its witness (one partition: before
    # the prove, so all of it counts); the preparation's span also holds the parameter lookup.
    check(witness * 1e3 - 2 <= t["synthesis_ms"] <= (witness + prepare) * 1e3 + 2,
          f"synthesis_ms {t['synthesis_ms']} is its witness phase ({witness * 1e3:.1f} ms) and "
          f"at most its preparation ({prepare * 1e3:.1f} ms) more")
    check(sum(t[k] for k in ("queue_wait_ms", "srs_load_ms", "synthesis_ms", "gpu_compute_ms"))
          == t["total_ms"], f"its phases add up to total_ms ({t})")
    prove = [s for s in mine if s["lane"] == "cpu:0"][0]
    dur = (prove["end_s"] - prove["start_s"]) * 1e3
    # Within the job's life: no fixed slack, which a loaded machine (ctest -j) could exceed; the
    # 2 ms below are the phase clock's rounding and the span opening after the prover took it.
    check(t["gpu_compute_ms"] - 2 <= dur <= t["total_ms"] + 1,
          f"its prover span ({dur:.1f} ms) covers gpu_compute_ms ({t['gpu_compute_ms']}) "
          f"within the job's total ({t['total_ms']} ms)")
    phases = [p["phase"] for p in prove["phases"]]
    check(phases[-1] == "verify" and "msm" in phases and "h_chain" in phases and
          all(a["end_s"] <= b["start_s"] + 1e-6 for a, b in
              zip(prove["phases"], prove["phases"][1:])) and
          prove["start_s"] <= prove["phases"][0]["start_s"] and
          prove["phases"][-1]["end_s"] <= prove["end_s"],
          f"its prover phases in order within the span ({phases})")
    drawn = {(g.attrs["data-lane"], r.attrs["data-phase"]) for g in spans
             for r in g.find("rect") if "data-phase" in r.attrs}
    want = {(s["lane"], p["phase"]) for s in mine for p in s["phases"]}
    check(want <= drawn,
          f"every phase of its spans is drawn as a bar ({len(drawn)} lane/phase pairs)",
          f"missing {want - drawn}")

    metrics = get(base + "/metrics")[2]
    for series in ('cuzk_worker_busy_ratio{lane="cpu:0",role="prover"}',
                   'cuzk_queue_jobs_by_priority{priority="normal",state="pending"} 0'):
        check(series in metrics, f"/metrics has {series}")
    shot = os.path.join(artifacts, "status_page.png")
    browser.run(base + "/", f"--screenshot={shot}")
    with open(shot, "rb") as f:
        head = f.read(24)
    check(head[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(head[16:20], "big") == 1400,
          "the screenshot is a 1400 px wide PNG")
    print(f"screenshot: {shot}", flush=True)
    badge, why = page.one(id="health"), page.one(id="health-reason")
    check(badge.attrs.get("data-state") == after["health"]["state"] == "serving" and
          badge.all_text() == "serving" and "hidden" in why.attrs,
          "the header's health badge says serving (backend cpu), no reason shown")
    d.stop_ok()

    # No prover at all (backend gpu without a device): not a green "live" over "no GPU: CPU
    # provers", but "not serving" with the reason, and "no provers".
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    g = dt.Daemon(ctx, "nogpu",
                  config=f'[daemon]\nstatus_listen = "127.0.0.1:{port}"\n[gpus]\nbackend = "gpu"\n')
    base = f"http://127.0.0.1:{port}"
    st = status(base)
    if st["health"]["state"] != "not_serving":
        say(f"SKIPPED PART: a GPU is here (health {st['health']['state']}): the page of a daemon "
            "without provers is not drawn")
    else:
        page = browser.dom(base + "/")
        badge, why = page.one(id="health"), page.one(id="health-reason")
        check(badge.attrs.get("data-state") == "not_serving" and
              badge.all_text() == "not serving",
              "backend gpu without a GPU: the header's health badge says not serving")
        check("hidden" not in why.attrs and why.all_text() == st["health"]["reason"] and
              why.attrs.get("data-state") == "not_serving",
              f"the reason is shown under the header ({why.all_text()!r})")
        check(page.one(id="device-none").all_text() == "no provers",
              "the device panel says no provers (not \"no GPU: CPU provers\")")
        browser.run(base + "/", f"--screenshot={artifacts}/status_page_not_serving.png")
    g.stop_ok()


def main():
    ap = argparse.ArgumentParser()
    for a in ("--daemon", "--cuzk", "--proto", "--fixtures", "--artifacts"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    chromium = os.environ.get("CUZK_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        return dt.missing_tool("no chromium on PATH (Debian's chromium, see scripts/deps.sh)")
    client, protoc = dt.import_grpc()
    if client is None:
        return protoc  # the exit code
    os.makedirs(args.artifacts, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cuzk-page-test-") as tmp:
        if not dt.compile_proving_stubs(protoc, args.proto, os.path.join(tmp, "stubs")):
            return 1
        ctx = argparse.Namespace(daemon=args.daemon, cuzk=args.cuzk, tmp=tmp, daemons=[],
                                 params=os.path.join(args.fixtures, "params"),
                                 c1=os.path.join(args.fixtures, "c1", dt.C1_NAME))
        ctx.c1_bytes = open(ctx.c1, "rb").read()
        version = subprocess.run([chromium, "--version"], capture_output=True, text=True)
        say(f"status page test: {version.stdout.strip()}")
        return dt.run_scenario(
            "status page", lambda: scenario(ctx, Browser(chromium, tmp), args.artifacts), ctx)


if __name__ == "__main__":
    sys.exit(main())
