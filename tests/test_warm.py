"""The warm-up of Numba's cache (`pipelines/compiled.py`) reaches every compiled loop of
`transforms/`: a loop it missed would compile again in every worker of a fresh clone."""

from __future__ import annotations

from pipelines.compiled import compiled_functions, warm_compiled


def test_the_warm_up_compiles_every_entry_point_of_transforms() -> None:
    functions = compiled_functions()
    assert "transforms.series_provisional._provisional_steps" in functions
    # A loop called only from other compiled loops is compiled with (into) its caller.
    called_inside = {
        name for dispatcher in functions.values() for name in dispatcher.py_func.__code__.co_names
    }
    entry_points = {
        key: dispatcher
        for key, dispatcher in functions.items()
        if key.rsplit(".", 1)[1] not in called_inside
    }
    assert "transforms.series_provisional._admit" not in entry_points
    warm_compiled()
    missed = sorted(key for key, dispatcher in entry_points.items() if not dispatcher.signatures)
    assert missed == []
