"""Model types of the paper's Table 6 as scikit-learn-compatible classifiers.

Kept light on purpose: nothing is imported here, so that importing a submodule (or the
registry) does not import every model. Modules:

* :mod:`.registry` - ``config/models.yaml``: :func:`~.registry.load_model_registry`,
  :func:`~.registry.build_model`;
* :mod:`.logistic` (Logist), :mod:`.bayes` (NB), :mod:`.neighbours` (IBK1, IBK10),
  :mod:`.svm` (SVM, SVMp), :mod:`.baselines` (Prior, Random);
* :mod:`.trees` (J48, J48Unp, Stump) and :mod:`.part` (PART), on the C4.5 machinery of
  :mod:`.c45` (feature encoding, split selection, pessimistic error estimates);
* :mod:`.preprocessing` - input conventions, Weka's attribute filters, the generic encoder.
"""
