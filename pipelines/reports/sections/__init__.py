"""The sections of the season report, one module each, found by `discover()`.

A rule family adds its section by adding a module here that defines `SECTION`
(a `pipelines.reports.section.Section`); nothing else changes.
"""

from __future__ import annotations

import importlib
import pkgutil

from pipelines.reports.section import Section


def discover() -> list[Section]:
    """Every `SECTION` of this package's modules, by order then key."""
    found: dict[str, Section] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        section = getattr(module, "SECTION", None)
        if not isinstance(section, Section):
            continue
        if section.key in found:
            raise ValueError(f"two report sections share the key {section.key!r}")
        found[section.key] = section
    return sorted(found.values(), key=lambda s: (s.order, s.key))
