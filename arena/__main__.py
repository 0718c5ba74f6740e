"""``python -m arena``: the same command line as the ``arena`` console script."""

from arena.launch import main

main()
