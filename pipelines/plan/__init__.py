"""The plans of the two kinds of partition: what a season (`season`) and a calendar year
(`year`) compute, from their inputs and the rule parameters, without Dagster. The assets,
the what-if and the benchmark all compute through them."""
