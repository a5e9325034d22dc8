"""The in-memory Dagster instance `classement build` runs its jobs in.

Decisions taken here (issue 23, a test suite in minutes; issue 25, one tournament in seconds):
- A build's instance lives as long as its process and nobody reads its history: the Dagster
  UI (`classement dev`, `dagster dev`) runs on the instance of DAGSTER_HOME, never on this
  one; which season or year to rebuild is the warehouse's own record (`season_builds`,
  `year_builds`: `pipelines.staleness`), not Dagster's asset records.
- So its event log keeps the run events only (a run started, succeeded, failed: the run's
  status) and the dynamic partitions; the step, asset and check events still reach the
  run's result (`ExecuteInProcessResult`: the step times of `BuildSummary.timings`) and the
  progress logger, they are just not written into an in-memory SQLite nobody queries.
- Without asset records, Dagster's data-version bookkeeping finds no earlier event for a
  step's inputs (`get_asset_records` answers at once) and records the default version,
  instead of two SQLite queries per input of every step (measured: half the time of a
  small raw folder's build went there, `_fetch_input_asset_version_info` and `store_event`).
- The dynamic partitions (the seasons, the years) are written to its SQLite as usual and
  read from a copy in memory: Dagster asks whether a run's partition exists several times
  per step (`has_dynamic_partition`), and only this process ever changes them.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

import dagster as dg
from dagster._core.events.log import EventLogEntry
from dagster._core.instance import InstanceType
from dagster._core.launcher.sync_in_memory_run_launcher import SyncInMemoryRunLauncher
from dagster._core.run_coordinator import DefaultRunCoordinator
from dagster._core.storage.event_log import InMemoryEventLogStorage
from dagster._core.storage.event_log.base import (
    AssetRecord,
    AssetRecordsFilter,
    EventLogCursor,
    EventRecordsResult,
)
from dagster._core.storage.noop_compute_log_manager import NoOpComputeLogManager
from dagster._core.storage.root import TemporaryLocalArtifactStorage
from dagster._core.storage.runs import InMemoryRunStorage

EMPTY_CURSOR = EventLogCursor.from_storage_id(-1).to_string()


class RunEventsOnly(InMemoryEventLogStorage):
    """An in-memory event log that stores the run events and nothing else (see the module's
    docstring); its dynamic partitions are kept as usual, and read from memory."""

    def __init__(self) -> None:
        self._partitions: dict[str, tuple[list[str], frozenset[str]]] = {}
        super().__init__()

    def _known(self, name: str) -> tuple[list[str], frozenset[str]]:
        known = self._partitions.get(name)
        if known is None:
            keys = list(super().get_dynamic_partitions(name))
            known = self._partitions[name] = (keys, frozenset(keys))
        return known

    def get_dynamic_partitions(self, partitions_def_name: str) -> Sequence[str]:
        return list(self._known(partitions_def_name)[0])

    def has_dynamic_partition(self, partitions_def_name: str, partition_key: str) -> bool:
        return partition_key in self._known(partitions_def_name)[1]

    def get_existing_dynamic_partitions(
        self, partitions_def_name: str, partition_keys: Sequence[str]
    ) -> Set[str]:
        known = self._known(partitions_def_name)[1]
        return {key for key in partition_keys if key in known}

    def add_dynamic_partitions(
        self, partitions_def_name: str, partition_keys: Sequence[str]
    ) -> None:
        self._partitions.pop(partitions_def_name, None)
        super().add_dynamic_partitions(partitions_def_name, partition_keys)

    def delete_dynamic_partition(self, partitions_def_name: str, partition_key: str) -> None:
        self._partitions.pop(partitions_def_name, None)
        super().delete_dynamic_partition(partitions_def_name, partition_key)

    def store_event(self, event: EventLogEntry) -> None:
        dagster_event = event.dagster_event
        if dagster_event is not None and dagster_event.is_job_event:
            super().store_event(event)

    def get_asset_records(
        self, asset_keys: Sequence[dg.AssetKey] | None = None
    ) -> list[AssetRecord]:
        # none is ever written (no asset event is stored): answered without a query
        return []

    def fetch_materializations(
        self,
        records_filter: dg.AssetKey | AssetRecordsFilter,
        limit: int,
        cursor: str | None = None,
        ascending: bool = False,
    ) -> EventRecordsResult:
        # none is ever written: answered without a query (an asset check of a partition
        # asks for its target's latest materialization, to record it beside its verdict)
        return EventRecordsResult([], cursor=cursor or EMPTY_CURSOR, has_more=False)

    @property
    def asset_records_have_last_observation(self) -> bool:
        # there are no asset records and no observations: no fallback query per input
        return True


def build_instance() -> dg.DagsterInstance:
    """A new in-memory instance whose event log keeps the run events only."""
    return dg.DagsterInstance(
        instance_type=InstanceType.EPHEMERAL,
        local_artifact_storage=TemporaryLocalArtifactStorage(),
        run_storage=InMemoryRunStorage(),
        event_storage=RunEventsOnly(),
        compute_log_manager=NoOpComputeLogManager(),
        run_coordinator=DefaultRunCoordinator(),
        run_launcher=SyncInMemoryRunLauncher(),
    )
