"""The machinery that reproduces the paper (Ferri, Hernández-Orallo & Flach, DMKD 2019) with the
library; the library (the modules at the top of ``threshold_choice``) never imports it.

It owns the paper's facts and the workflow's steps, one module each:

* :mod:`~threshold_choice.reproduction.paper`: the paper's spec (methods, gammas, baselines,
  the published tables' columns, which figures exist with their datasets and models);
* :mod:`~threshold_choice.reproduction.config`: the checks of the workflow configuration a
  JSON schema cannot express;
* :mod:`~threshold_choice.reproduction.steps`: one function per Snakemake rule (the scripts in
  ``workflow/scripts/`` only unpack ``snakemake`` and call them), by concern (``prepare``,
  ``score``, ``weka``, ``evaluate``, ``report``), with ``log_to``;
* :mod:`~threshold_choice.reproduction.runs`: the runs table's columns and metadata;
* :mod:`~threshold_choice.reproduction.layout`: the results folder's layout (the paths the
  rules, the comparison and the CLI share);
* :mod:`~threshold_choice.reproduction.scores`, :mod:`~threshold_choice.reproduction.score_cache`,
  :mod:`~threshold_choice.reproduction.provenance`: fitting the registered models on every
  split, the content-addressed cache of their scores, the software versions recorded;
* :mod:`~threshold_choice.reproduction.table5`, :mod:`~threshold_choice.reproduction.tables`,
  :mod:`~threshold_choice.reproduction.figures`,
  :mod:`~threshold_choice.reproduction.comparison`: Table 5, Tables 7 and 8, Figures 1-9 and
  the comparison with the published tables and the paper's claims.

The flow, as the workflow runs it: config (validated: schema, then
:func:`~threshold_choice.reproduction.config.check_config`) -> prepare (``datasets``: fetch and
prepare each table; ``splits``: the train/test splits) -> score (``models``, through
:mod:`~threshold_choice.reproduction.scores`) -> evaluate (the library's expected losses and
metrics per run) -> tables / figures / comparison.

Nothing is imported here: import the module you need.
"""
