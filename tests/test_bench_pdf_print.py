"""benchmarks.pdf_print (issue 25): the kinds of Chromium's processes, and one sample of a
real child process's CPU and memory, or its CPU alone (the child waits until sampled: no timing)."""

from __future__ import annotations

import subprocess
import sys

import psutil  # type: ignore[import-untyped]  # no stubs

from benchmarks.pdf_print import Usage, process_kind, report, sample

MIB = 1024**2

# A child that holds 64 MiB it wrote, burns a little CPU, says so and waits for its input.
_CHILD = """
import sys, time
held = bytearray(64 * 1024 * 1024)
for i in range(0, len(held), 4096):
    held[i] = 1
spent = time.process_time()
while time.process_time() - spent < 0.05:
    pass
print("prêt", flush=True)
sys.stdin.read()
"""


def test_a_process_is_known_by_its_type_its_service_or_its_program() -> None:
    renderer = ["/usr/lib/chromium/chromium", "--type=renderer", "--lang=fr"]
    compositor = [
        "/usr/lib/chromium/chromium",
        "--type=utility",
        "--utility-sub-type=printing.mojom.PrintCompositor",
    ]
    assert process_kind(renderer) == "renderer"
    assert process_kind(compositor) == "utility/PrintCompositor"
    assert process_kind(["/usr/lib/chromium/chromium", "--headless"]) == "chromium"
    assert process_kind(["/opt/driver/node", "cli.js", "run-driver"]) == "node"
    assert process_kind([]) == "?"


def test_a_sample_reads_a_child_s_cpu_and_memory_and_sums_them_by_kind() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == b"pr\xc3\xaat"
        cpu_only = Usage()
        sample(psutil.Process(), cpu_only, memory=False)
        usage = Usage()
        sample(psutil.Process(), usage)
    finally:
        child.communicate(b"")
    assert usage.cpu[child.pid] >= 0.05 and cpu_only.cpu[child.pid] >= 0.05
    assert cpu_only.pss == cpu_only.rss == cpu_only.largest == 0
    assert usage.kinds[child.pid] == process_kind([sys.executable])
    assert usage.rss >= 64 * MIB and usage.pss >= 64 * MIB and usage.largest >= 64 * MIB
    usage.cpu[1] = 1.5
    usage.kinds[1] = "renderer"
    kinds = usage.cpu_by_kind()
    assert kinds["renderer"] == 1.5 and next(iter(kinds)) == "renderer"
    text = report(3, 12.34, usage)
    assert text.startswith("Impression de 3 PDF : 12,3 s (horloge)")
    assert "plus gros processus 0,0" in text and "renderer" in text
    assert "la mesure elle-même : 0,0 s de CPU" in text
