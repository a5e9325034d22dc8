import dagster as dg

from pipelines.resources import WarehouseResource


@dg.definitions
def resources() -> dg.Definitions:
    """The warehouse resource, and the executor of the runs the daemon and the UI launch:
    their steps run one after the other in the run's own process (`in_process_executor`).
    Dagster's default starts a new Python process for each step, which imports Dagster and
    loads this code location again (about 2 CPU-s a step) to gain nothing here: the steps that
    write the warehouse take turns anyway (the pool `warehouse`, dagster.yaml), and they are
    nearly all of a run. The build of the command line runs in its process the same way
    (`pipelines.build`)."""
    return dg.Definitions(
        resources={"warehouse": WarehouseResource()},
        executor=dg.in_process_executor,
    )
