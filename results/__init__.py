"""The committed answers (``make results`` writes them): installed with the package as
``powertwo.results``, so the workbench finds them in a wheel as in a checkout
(:func:`powertwo.solvers.registry.results_dir`)."""
