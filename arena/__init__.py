"""The arena: a tournament harness for card-playing bots at Switch and its cousins.

The package is layered, bottom first: ``errors``, ``settings`` and ``digest`` (the foundation),
``engine`` (the rules engine), ``play`` (the referee), ``sandbox`` (isolated bot processes),
``tournament`` (schedules, the runner, the store, ratings), ``services`` (submit, duel, bench)
and ``cli`` (the ``arena`` command). Each layer imports only the layers below it.
"""

__version__ = "0.1.0"  # the one place the version is written (pyproject.toml reads it)
