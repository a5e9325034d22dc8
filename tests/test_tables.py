"""The table registry: one declaration per table, enforced on writes and reads, and the
source of the docs and of the assets' column schemas."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import polars as pl
import pytest

from pipelines.definitions import defs
from pipelines.paths import PROJECT_ROOT
from pipelines.reports.data import ReportData
from pipelines.tables import render_tables_doc, splice_doc
from pipelines.warehouse import Warehouse
from transforms.tables import TableSchemaError, registry, table


def test_docs_warehouse_is_in_step_with_the_registry() -> None:
    doc = PROJECT_ROOT / "docs" / "warehouse.md"
    text = doc.read_text(encoding="utf-8")
    assert splice_doc(text, render_tables_doc()) == text, "run `make docs`"


def test_every_declared_table_is_written_by_an_asset_with_its_column_schema() -> None:
    schemas: dict[str, list[str]] = {}
    for asset in defs.assets or []:
        assert isinstance(asset, dg.AssetsDefinition)
        for spec in asset.specs:
            schema = (spec.metadata or {}).get("dagster/column_schema")
            if schema is not None:
                schemas[spec.key.to_user_string()] = [c.name for c in schema.columns]
    for name, declared in registry().items():
        assert schemas.get(name) == declared.column_names, name


def test_the_warehouse_refuses_a_frame_that_differs(tmp_path: Path) -> None:
    wh = Warehouse(tmp_path / "w.duckdb")
    good = table("season_fingerprints").complete(pl.DataFrame({"season": ["2023-2024"]}))
    wh.replace_tables({"season_fingerprints": good})
    renamed = good.rename({"fingerprint": "hash"})
    with pytest.raises(TableSchemaError, match=r"missing column.*fingerprint.*undeclared.*hash"):
        wh.replace_tables({"season_fingerprints": renamed})
    retyped = good.with_columns(pl.lit(1).alias("fingerprint"))
    with pytest.raises(TableSchemaError, match="column fingerprint is Int32, declared String"):
        wh.replace_partition("season_fingerprints", retyped, "season", "2023-2024")
    with pytest.raises(KeyError, match="not declared"):
        wh.replace_tables({"scratch": good})
    assert wh.table("season_fingerprints").equals(good)


def test_reports_fail_loudly_on_a_missing_column(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    Warehouse(path).replace_tables({"season_fingerprints": table("season_fingerprints").empty()})
    import duckdb

    with duckdb.connect(str(path)) as con:
        con.execute("ALTER TABLE season_fingerprints RENAME COLUMN fingerprint TO hash")
    data = ReportData(Warehouse(path))
    with pytest.raises(TableSchemaError, match=r"missing column.*fingerprint"):
        data.table("season_fingerprints")
    # a table the warehouse does not hold reads as its declared, empty frame
    assert data.table("cote_history").schema == table("cote_history").schema


def test_complete_and_conform() -> None:
    players = table("players")
    partial = pl.DataFrame({"last_name": ["Dupont"], "player_id": ["100"]})
    full = players.complete(partial)
    assert full.columns == players.column_names and full["federation"].dtype == pl.String
    with pytest.raises(TableSchemaError, match=r"undeclared column.*age"):
        players.complete(partial.with_columns(age=pl.lit(3)))
    with pytest.raises(TableSchemaError, match="missing column"):
        players.conform(partial)


def test_partitioned_assets_read_only_the_ingest_tables_their_fingerprints_cover() -> None:
    """A season's (a year's) fingerprint hashes `inputs_of("season")` (`"year"`): an asset
    of that partition reading another ingest table would not be rebuilt when it changes."""
    from transforms.tables import inputs_of, tables_of

    ingest = {t.name for t in tables_of("ingest")}
    graph = defs.resolve_asset_graph()
    read: dict[str, set[str]] = {"season": set(), "year": set()}
    for key in graph.get_all_asset_keys():
        node = graph.get(key)
        if node.partitions_def is None:
            continue
        name = getattr(node.partitions_def, "name", None)
        read[name] |= {p.path[-1] for p in node.parent_keys} & ingest
    assert read["season"] <= set(inputs_of("season"))
    assert read["year"] <= set(inputs_of("year"))
    assert "mort_subite_moves" not in inputs_of("year")
    assert "circuit_calendar" not in inputs_of("season")
