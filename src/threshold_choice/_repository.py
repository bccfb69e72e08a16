"""Where the repository's configuration folder is, for the defaults of the readers of dataset
and model registries and of the published tables (the package is installed editable from the
repository's ``src/``: ``src/threshold_choice/`` -> the repository root)."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
CONFIG_DIR = REPO_ROOT / "config"
