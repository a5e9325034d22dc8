"""Partitions shared by the domains: seasons (`2018-2019`), registered by the ingest."""

import dagster as dg

season_partitions = dg.DynamicPartitionsDefinition(name="season")

# A build runs in three stages (jobs of `defs/jobs.py`):
#   1. build_ratings: every asset computed over all seasons at once (ingest, classique
#      ratings), i.e. every group not listed below;
#   2. build_season: the groups partitioned by season, one season at a time, in order;
#   3. build_site: the groups that gather every season (report index, player pages).
SEASON_GROUPS = ("series", "season_reports")
SITE_GROUPS = ("site",)
