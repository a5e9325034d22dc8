"""The bench's record of the machine's speed (`benchmarks.harness.machine_probe`): the same
plain Python timed at the bench's start and end, written in its JSON and said in French."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import harness


def test_the_machine_probe_is_timed_and_said_in_french() -> None:
    assert harness.machine_probe() > 0
    line = harness.probe_line(0.687, 1.156)
    assert line == (
        "Vitesse de la machine : 10\u202f000\u202f000 additions en Python en 0,69 s au début "
        "de la mesure, 1,16 s à la fin (plus c'est long, plus la machine était lente)"
    )


def test_the_probe_is_kept_in_the_result_s_json(tmp_path: Path) -> None:
    result = harness.BenchResult(1, 10, 2026, workload={}, started="2026-12-08T00:00:00Z")
    result.machine = {"cpus": 2, "probe_start_s": 0.687, "probe_end_s": 1.156}
    path = harness.write_result(result, tmp_path)
    kept = json.loads(path.read_text(encoding="utf-8"))
    assert kept["machine"]["probe_start_s"] == 0.687
    assert kept["machine"]["probe_end_s"] == 1.156
    assert json.loads((tmp_path / "latest.json").read_text(encoding="utf-8")) == kept


def test_a_tournament_added_keeps_the_encoding_and_separator_of_the_one_copied(
    tmp_path: Path,
) -> None:
    """`add_tournament` copies the last season's last duplicate export under the next
    number: a Windows-1252 file with « ; » and the organisers' French headers stays one (the
    bench failed on such a file)."""
    season = tmp_path / "2024-2025"
    season.mkdir(parents=True)
    (season / "D2024-001.csv").write_text(
        "tournament_id,player_id\nD2024-001,1\n", encoding="utf-8"
    )
    (season / "D2024-002.csv").write_bytes(
        "Code tournoi;N° licence;Nom\nD2024-002;7;Bérénice\n".encode("cp1252")
    )
    added = harness.add_tournament(tmp_path)
    assert added.name == "D2024-003.csv"
    assert added.read_bytes() == "Code tournoi;N° licence;Nom\nD2024-003;7;Bérénice\n".encode(
        "cp1252"
    )
    # a UTF-8 file with a byte-order mark keeps it
    (season / "D2024-004.csv").write_bytes(
        b"\xef\xbb\xbf" + "tournament_id,player_id\nD2024-004,Zoé\n".encode()
    )
    again = harness.add_tournament(tmp_path)
    assert (
        again.read_bytes() == b"\xef\xbb\xbf" + "tournament_id,player_id\nD2024-005,Zoé\n".encode()
    )
