"""Where the package's shipped configuration is: the dataset and model registries, their
schemas and the published tables, the defaults of their readers (``datasets``, ``models``,
the comparison and the command line).

They are package data (``threshold_choice/data``). In the repository, ``data`` is a link to
the repository's ``config/`` folder, which the workflow reads: one copy of each file, and an
editable install sees the files the workflow uses; a wheel carries copies of them, so the
readers work wherever it is installed. The path is resolved, so that paths relative to the
repository (``data.mirror`` of ``config/config.yaml``) resolve from a checkout as before.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

CONFIG_DIR = Path(str(files("threshold_choice") / "data")).resolve()
