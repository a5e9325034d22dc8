import dagster as dg

from pipelines.resources import WarehouseResource


@dg.definitions
def resources() -> dg.Definitions:
    return dg.Definitions(resources={"warehouse": WarehouseResource()})
