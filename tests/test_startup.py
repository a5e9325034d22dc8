"""A rebuild with nothing changed starts light (issue 25): `pipelines.build` and the
`classement build` command line load neither Dagster nor the code location nor the other
commands' modules until a build runs (about 3 CPU-s of a 6 s rebuild at federation scale)."""

from __future__ import annotations

import subprocess
import sys

_REPORT = "import sys; print('\\n'.join(sorted(sys.modules)))"


def test_the_build_module_and_the_build_command_line_load_no_dagster() -> None:
    code = (
        "import pipelines.build\n"
        "from classement.cli import build_parser\n"
        "build_parser(['build', '--no-pdf'])\n"
        f"{_REPORT}\n"
    )
    loaded = set(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.split()
    )
    assert "pipelines.build" in loaded and "classement.commands.build" in loaded
    heavy = {
        "dagster",
        "pipelines.definitions",
        "pipelines.resources",
        "pipelines.ingest.batch",
        "classement.commands.check",
        "classement.commands.score",
    }
    assert not heavy & loaded
