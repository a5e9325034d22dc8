"""Partitions shared by the domains: seasons (`2018-2019`) and calendar years (`2018`, the
regional circuits'), both registered by the ingest.

A build runs in four stages (jobs of `defs/jobs.py`):
  1. ingest_exports: the raw folder into the base tables (group `ingest`);
  2. build_season: one season at a time, in order, every group partitioned by season —
     the families of `transforms/tables` declared with `partition="season"` (duplicate
     series, classique ratings, …) and the season's report;
  3. build_year: one calendar year at a time, in order, the families declared with
     `partition="year"` (regional circuits) and their reports;
  4. build_site: the groups that gather every season (report index, player pages).
`classement build` runs stages 2 and 3 at once: the seasons' chain in its thread, and in a
second thread each season's families that read only the ingest's tables (the Elo, the Mort
Subite challenge, the game-sheet audit, the data-quality notes: `pipelines.plan.season.APART`)
then the years (`pipelines.build._beside`).
"""

import dagster as dg

from transforms.tables import families

season_partitions = dg.DynamicPartitionsDefinition(name="season")
year_partitions = dg.DynamicPartitionsDefinition(name="year")

INGEST_GROUPS = ("ingest",)
REPORT_GROUP = "season_reports"
SEASON_GROUPS = (*(f.key for f in families() if f.partition == "season"), REPORT_GROUP)
YEAR_REPORT_GROUP = "circuit_reports"
YEAR_GROUPS = (*(f.key for f in families() if f.partition == "year"), YEAR_REPORT_GROUP)
SITE_GROUPS = ("site",)
