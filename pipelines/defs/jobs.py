"""Jobs, the nightly schedule and the sensors that start runs."""

import hashlib

import dagster as dg

from pipelines.ingest.raw import fingerprint, folder_digest
from pipelines.partitions import INGEST_GROUPS, SEASON_GROUPS, SITE_GROUPS, YEAR_GROUPS
from pipelines.resources import WarehouseResource
from pipelines.staleness import STAGES, stale_partitions

ingest_exports = dg.define_asset_job(
    "ingest_exports",
    selection=dg.AssetSelection.groups(*INGEST_GROUPS),
    description="Read every export of the raw folder into the base tables (bad files "
    "quarantined) and register the seasons found.",
)

build_season = dg.define_asset_job(
    "build_season",
    selection=dg.AssetSelection.groups(*SEASON_GROUPS),
    description="Compute one season: duplicate series, classique ratings, every other "
    "rule family partitioned by season, and the season's report.",
)

nightly_build = dg.ScheduleDefinition(
    name="nightly_build",
    job=ingest_exports,
    cron_schedule="0 2 * * *",
    execution_timezone="Europe/Paris",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Full rebuild every night at 02:00 (Paris); the season sensor then "
    "brings every season whose inputs changed up to date.",
)


@dg.sensor(
    job=ingest_exports,
    minimum_interval_seconds=60,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Starts a build when an export is added, changed, renamed or removed in "
    "the raw folder (keyed on the content hash of the whole folder).",
)
def raw_exports_sensor(
    context: dg.SensorEvaluationContext, warehouse: WarehouseResource
) -> dg.SensorResult | dg.SkipReason:
    hashes = fingerprint(warehouse.raw)
    digest = folder_digest(hashes)
    if digest == context.cursor:
        return dg.SkipReason(f"no change in {len(hashes)} exports")
    return dg.SensorResult(
        run_requests=[dg.RunRequest(run_key=digest, tags={"classement/raw_digest": digest[:16]})],
        cursor=digest,
    )


build_year = dg.define_asset_job(
    "build_year",
    selection=dg.AssetSelection.groups(*YEAR_GROUPS),
    description="Compute one calendar year of the regional circuits (PACA, Masters Grand "
    "Sud, Grand Est) and their reports.",
)

build_site = dg.define_asset_job(
    "build_site",
    selection=dg.AssetSelection.groups(*SITE_GROUPS),
    description="Gather every season: the reports' index page and the player pages.",
)


_IN_PROGRESS = [
    dg.DagsterRunStatus.QUEUED,
    dg.DagsterRunStatus.STARTING,
    dg.DagsterRunStatus.STARTED,
]


@dg.sensor(
    jobs=[build_season, build_year, build_site],
    minimum_interval_seconds=60,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Builds, one at a time and in order, each season, then each calendar year, "
    "whose inputs, code or parameters changed since it was last built (fingerprints written "
    "by the ingest); once every one is up to date, rebuilds the index and player pages.",
)
def stale_season_sensor(
    context: dg.SensorEvaluationContext, warehouse: WarehouseResource
) -> dg.RunRequest | dg.SkipReason:
    if not warehouse.warehouse.exists():
        return dg.SkipReason("no warehouse yet")
    for job in ("ingest_exports", "build_season", "build_year", "build_site"):
        running = context.instance.get_run_records(
            dg.RunsFilter(job_name=job, statuses=_IN_PROGRESS), limit=1
        )
        if running:
            return dg.SkipReason(f"a {job} run is in progress")
    records = []
    for stage in STAGES:
        stale = stale_partitions(
            warehouse.warehouse, stage, warehouse.reports, warehouse.parameters
        )
        if stale:
            fingerprint = warehouse.warehouse.read(
                f'SELECT fingerprint FROM "{stage.fingerprints}" WHERE "{stage.partition}" = ?',
                [stale[0]],
            ).item()
            return dg.RunRequest(
                job_name=stage.job,
                run_key=f"{stage.partition}:{stale[0]}:{fingerprint}",
                partition_key=stale[0],
            )
        if stage.builds in warehouse.warehouse.tables():
            records.append(warehouse.warehouse.table(stage.builds).sort(stage.partition))
    if not records:
        return dg.SkipReason("nothing built yet")
    key = hashlib.sha256("".join(r.write_csv() for r in records).encode()).hexdigest()
    if not (warehouse.reports / "index.html").exists():
        key += ":missing"
    return dg.RunRequest(job_name="build_site", run_key=f"site:{key}")
