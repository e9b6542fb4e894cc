"""The ``hokm`` command line: one module per subcommand (see :mod:`hokm.cli.main`)."""
