"""The ``riven`` command line. Each module here registers one group of commands."""
