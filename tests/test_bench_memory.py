"""benchmarks.memory (issue 25): the steps read from a build's progress lines and the peak
of each, from samples written by hand (the sampling itself is measurement, not tested)."""

from __future__ import annotations

from benchmarks.memory import START, Sample, step_of, step_peaks, table

MIB = 1024**2


def test_a_stage_line_starts_a_step_and_a_count_or_a_finished_step_does_not() -> None:
    assert step_of("  [   5.6 s] Lecture des exports de raw …\n", START) == (
        "Lecture des exports de raw …"
    )
    assert step_of("  [  12.0 s]     … exports lus : 2 / 9\n", "Lecture …") == "Lecture …"
    assert step_of("  [ 148.2 s]   ✓ saison enregistrée (0,0 s)\n", "Saison 2023-2024 …") == (
        "Saison 2023-2024 …"
    )
    assert step_of("Pages du site (index, fiches des joueurs) …", "x") == (
        "Pages du site (index, fiches des joueurs) …"
    )


def test_each_step_keeps_its_span_and_its_three_peaks() -> None:
    samples = [
        Sample(0.0, 100 * MIB, 0, 0, START),
        Sample(0.2, 300 * MIB, 0, 0, "Lecture …"),
        Sample(0.4, 250 * MIB, 0, 0, "Lecture …"),
        Sample(0.6, 200 * MIB, 300 * MIB, 200 * MIB, "Pages …"),
        Sample(0.8, 220 * MIB, 100 * MIB, 100 * MIB, "Pages …"),
    ]
    peaks = step_peaks(samples)
    assert [(p.step, p.first, p.last) for p in peaks] == [
        (START, 0.0, 0.0),
        ("Lecture …", 0.2, 0.4),
        ("Pages …", 0.6, 0.8),
    ]
    pages = peaks[2]
    assert (pages.main, pages.together, pages.largest_descendant) == (
        220 * MIB,
        500 * MIB,
        200 * MIB,
    )
    text = table(peaks)
    reading = next(line for line in text.splitlines() if line.startswith("Lecture …"))
    assert reading.split()[2:] == ["0,2", "0,4", "0,29", "Gio", "0,29", "Gio", "0,00", "Gio"]
    assert text.splitlines()[-1].split() == [
        "Construction",
        "entière",
        "0,29",
        "Gio",
        "0,49",
        "Gio",
        "0,20",
        "Gio",
    ]
