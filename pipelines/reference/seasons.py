from pathlib import Path

import yaml


def load_season_start(reference_dir: Path) -> tuple[int, int]:
    """(month, day) on which a season starts (RULES §0), from seasons.yaml."""
    data = yaml.safe_load((reference_dir / "seasons.yaml").read_text(encoding="utf-8"))
    return int(data["start_month"]), int(data["start_day"])
